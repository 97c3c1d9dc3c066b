// Directory records of the data file: sources, offices, resources and function_overrides (schema.sql names).
//   1. authored files data/resources/*.yaml (national resources on country:us, Minnesota city assessors ...)
//   2. state property-tax page and GIS portal from the authored state rules
//   3. county and city home pages from the CISA .gov registry (sourcesDir/dotgov/current-full.csv)
//   4. offices named in the .gov registry (assessor, treasurer, register of deeds ...), classified by the office-word
//      table (data/office-words.yaml). No office name is made up: Minnesota's former generic county office names
//      ("X County Land Use Permits") are gone; an answer names an office from a record or from the state rule's title.
//   5. county and local home pages outside .gov from the GSA govt-urls list, where the registry gave none (gsa.ts)
//   6. GIS portals and parcel/address layer endpoints from OpenAddresses, and GIS offices its attributions name
//      (openaddresses.ts)
// Every record carries a source trail; a record whose origin is not documented is kept with documented 0.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { matchRegistry, readDotgov, governmentName } from "./dotgov";
import {
  type JurisdictionIn,
  type OfficeRow,
  type OverrideRow,
  type ResourceRow,
  type SourceRow,
  Records,
  resourceRow,
  sha256Hex,
  sourceRow,
} from "./records-common";
import { loadAuthoredRecords } from "./records-authored";
import { buildStateResources } from "./records-state";
import { addRegistryOffices, findRegistryOffices } from "./dotgov-offices";
import { OfficeWords } from "./office-words";
import { addGsaHomes } from "./gsa";
import { OA_INPUT, addOpenAddresses, countyDefinitionHosts } from "./openaddresses";
import { readDeclared } from "./declared";
import { OwnHosts, hostOf } from "./own-hosts";
import { markRuleEvidenceGovernments } from "./rule-evidence";
import { addContactEmailHosts, addDelegatedHosts, addNamedRegistryHosts, addStateHosts } from "./registry-hosts";
import { addCityUrls } from "./uscityurl";
import { addPageRecords, type CheckCtx } from "./pages";
import { CONSOLIDATED } from "./same-as";
import { settleDisputedHosts } from "./disputed-hosts";

/** A GIS link (OpenAddresses) filed under one government but served from another government's own host (a
 *  city's server given as the county's): its publisher is the host's government and it is not official for the
 *  government it is filed under. Returns one line per link changed. */
function demoteForeignHosts(rec: Records, ctx: DirectoryCtx, own: OwnHosts, twins: (id: string) => string[]): string[] {
  const out: string[] = [];
  for (const r of [...rec.resources.values()].sort((a, b) => (a.resource_id < b.resource_id ? -1 : 1))) {
    if (r.source_kind !== "openaddresses-definition" || !r.official) continue;
    const host = hostOf(r.url);
    const owners = host ? [...own.owners(host)] : [];
    if (
      !owners.length ||
      owners.includes(r.jurisdiction_id) ||
      twins(r.jurisdiction_id).some((t) => owners.includes(t))
    )
      continue;
    const owner = owners.length === 1 ? ctx.jurisdictions.get(owners[0]!) : undefined;
    r.official = 0;
    r.publisher = owner ? governmentName(owner) : null;
    r.description =
      `${r.description ?? ""} Served from ${host}, the own host of ${owner ? governmentName(owner) : owners.join(", ")}: not this government's own page.`.trim();
    out.push(`${r.jurisdiction_id} ${r.url} -> ${r.publisher ?? owners.join(", ")}`);
  }
  return out;
}

/** What the page-record checks need: own hosts, consolidated twins, and the bodies documented overrides name. */
function pageCheckCtx(rec: Records, ctx: DirectoryCtx, own: OwnHosts): CheckCtx {
  const twins = new Map<string, string[]>();
  // one government under a county and a place id: the consolidated city-counties of same-as.ts, and those whose
  // place is the consolidated government's "balance" (Jacksonville-Duval, Nashville-Davidson, Indianapolis-Marion,
  // Louisville-Jefferson), the unified governments below, the District of Columbia, and Virginia's independent
  // cities (county-equivalents)
  const pairs: [string, string][] = [
    ...Object.entries(CONSOLIDATED).filter((e): e is [string, string] => !!e[1]),
    ["12031", "1235000"],
    ["47037", "4752006"],
    ["18097", "1836003"],
    ["21111", "2148006"],
    ["11001", "1150000"],
    ["13059", "1303440"], // Athens-Clarke County unified government
    ["13245", "1304204"], // Augusta-Richmond County consolidated government
    ["13021", "1349008"], // Macon-Bibb County
    ["20209", "2036000"], // Unified Government of Wyandotte County and Kansas City, Kansas
    ["22055", "2240735"], // Lafayette Consolidated Government (city and parish)
  ];
  const byName = new Map<string, string>();
  for (const j of ctx.jurisdictions.values())
    if (j.type === "place" && j.state === "VA" && j.legal_type === "city") byName.set(j.name, j.jurisdiction_id);
  for (const j of ctx.jurisdictions.values())
    if (j.type === "county" && j.state === "VA" && j.legal_type === "city" && byName.has(j.name))
      pairs.push([j.jurisdiction_id.slice(7), byName.get(j.name)!.slice(6)]);
  const pair = (a: string, b: string) => {
    for (const [x, y] of [
      [a, b],
      [b, a],
    ] as const) {
      const l = twins.get(x) ?? twins.set(x, []).get(x)!;
      if (!l.includes(y)) l.push(y);
    }
  };
  for (const [county, place] of pairs) pair(`county:${county}`, `place:${place}`);
  // and the data file's same_as pairs: a New England or New Jersey town that is also a city (Newark's township and
  // city, Hartford's consolidated town and city) is one government under a county subdivision and a place id
  for (const [a, b] of ctx.sameAs ?? []) pair(a, b);
  return {
    own,
    jurisdictions: ctx.jurisdictions,
    twins: (id) => twins.get(id) ?? [],
    performer: (id, fn) => rec.overrides.get(`${id}|${fn}|primary`)?.performer_id ?? null,
  };
}

export type { SourceRow, OfficeRow, ResourceRow, OverrideRow } from "./records-common";

export interface DirectoryCtx {
  sourcesDir: string | null;
  projectRoot: string;
  jurisdictions: Map<string, JurisdictionIn>;
  stateRules: Record<string, any>;
  /** the same_as pairs (one government under two ids) */
  sameAs?: [string, string][];
  log: (line: string) => void;
}

/** CISA registry file as documented in shared SOURCES.md (cisagov/dotgov-data, commit of 2026-08-22). */
const DOTGOV = {
  file: "dotgov/current-full.csv",
  source_id: "cisa-dotgov",
  name: "CISA .gov domain registry (current-full.csv)",
  url: "https://github.com/cisagov/dotgov-data/blob/4ee64196503d34bcaff8b508444b0f7552f97d71/current-full.csv",
  publisher: "Cybersecurity and Infrastructure Security Agency (CISA)",
  vintage: "2026-08-22 (commit 4ee64196503d34bcaff8b508444b0f7552f97d71)",
  license: "CC0 1.0",
};
const HOME_SORT_KEY = 30;

function addRegistry(
  rec: Records,
  ctx: DirectoryCtx,
  summary: Record<string, number | string>,
  own: OwnHosts,
  words: OfficeWords,
): { homes: Map<string, string>; text: string | null } {
  const homes = new Map<string, string>();
  const path = ctx.sourcesDir ? join(ctx.sourcesDir, DOTGOV.file) : null;
  if (!path || !existsSync(path)) {
    ctx.log(`  dotgov: ${path ? `${path} not found` : "no sources folder"}; no .gov home pages`);
    summary.dotgov = "not available";
    return { homes, text: null };
  }
  const bytes = readFileSync(path);
  const sid = rec.addSource(
    sourceRow({
      source_id: DOTGOV.source_id,
      name: DOTGOV.name,
      url: DOTGOV.url,
      publisher: DOTGOV.publisher,
      official: 1,
      retrieved_at: null,
      license_class: "open",
      license: DOTGOV.license,
      vintage: DOTGOV.vintage,
      sha256: sha256Hex(bytes),
    }),
  );
  const text = new TextDecoder().decode(bytes);
  const { rows, total } = readDotgov(text);
  const m = matchRegistry(rows, ctx.jurisdictions.values(), (org, st) => words.hits(org, st).length > 0);
  for (const [id, list] of m.domains) for (const d of list) own.add(id, d);
  const named = addNamedRegistryHosts(own, text, ctx.jurisdictions.values());
  ctx.log(`  dotgov own hosts named beyond the home pages: ${named.counties} county, ${named.places} place domains`);
  for (const [id, h] of m.homes) {
    const url = `https://${h.row.domain}/`;
    homes.set(id, url);
    rec.addResource(
      resourceRow({
        jurisdiction_id: id,
        name: `${governmentName(h.j)} official website`,
        url,
        topics: ["property_records_general"],
        sort_key: HOME_SORT_KEY,
        source_kind: "cisa-dotgov-registry",
        source_id: sid,
        documented: rec.sources.get(sid)!.documented,
        publisher: h.row.org,
        official: true,
        description: `Home page of the government on its .gov domain, as registered with CISA by ${h.row.org}.`,
      }),
    );
  }
  summary.dotgov_rows = total;
  for (const [k, v] of Object.entries(m.counts).sort()) summary[`dotgov_${k}`] = v;
  const ex = m.unmatched.map(
    (u) => `${u.row.type}: ${u.row.org} (${u.row.state || "?"}, ${u.row.domain}) [${u.reason}]`,
  );
  summary.unmatched_examples = ex.slice(0, 50).join("; ");
  const c = m.counts;
  ctx.log(
    `  dotgov: County domains read ${c.county_read ?? 0}, matched ${c.county_matched ?? 0} (${c.county_governments ?? 0} counties), unmatched ${c.county_unmatched ?? 0}`,
  );
  ctx.log(
    `  dotgov: City domains read ${c.city_read ?? 0}, matched ${c.city_matched ?? 0} (${c.city_governments ?? 0} places/towns), unmatched ${c.city_unmatched ?? 0}`,
  );
  for (const line of ex.slice(0, 30)) ctx.log(`    unmatched ${line}`);

  const offices = findRegistryOffices(text, ctx.jurisdictions.values(), words);
  for (const f of offices.found) own.add(f.j.jurisdiction_id, f.domain);
  const oc = addRegistryOffices(rec, offices.found, sid, rec.sources.get(sid)!.documented);
  for (const [k, v] of Object.entries({ ...offices.counts, ...oc }).sort()) summary[`dotgov_offices_${k}`] = v;
  ctx.log(
    `  dotgov offices (${words.size} office-word rows): ${offices.counts.rows_with_office_word ?? 0} domains name an office, ${oc.registry_offices} offices kept (${Object.entries(
      oc,
    )
      .filter(([k]) => k !== "registry_offices")
      .map(([k, v]) => `${k.replace("registry_offices_", "")} ${v}`)
      .join(", ")}), ${offices.unmatched.length} not matched to a government`,
  );
  for (const line of offices.unmatched.slice(0, 15)) ctx.log(`    office not matched: ${line}`);
  return { homes, text };
}

export async function buildDirectoryRecords(ctx: DirectoryCtx): Promise<{
  sources: SourceRow[];
  offices: OfficeRow[];
  resources: ResourceRow[];
  function_overrides: OverrideRow[];
  summary: Record<string, number | string>;
}> {
  const summary: Record<string, number | string> = {};
  const { rec, counts } = loadAuthoredRecords(join(ctx.projectRoot, "data/resources"), ctx);
  Object.assign(summary, counts);
  Object.assign(summary, buildStateResources(rec, ctx.jurisdictions, ctx.stateRules, ctx.log));
  const own = new OwnHosts();
  const words = OfficeWords.load(join(ctx.projectRoot, "data/office-words.yaml"));
  const { homes, text: registryText } = addRegistry(rec, ctx, summary, own, words);
  const registryOwn = own.copy();
  const gsaHomes = await addGsaHomes(rec, ctx, homes, summary, own, (t, st) => words.hits(t, st).length > 0);
  const oa = await readDeclared(ctx, OA_INPUT);
  await addCityUrls(rec, ctx, (id) => homes.has(id) || gsaHomes.has(id), own, summary, {
    homeHost: (id) => homes.get(id) ?? gsaHomes.get(id) ?? null,
    countyHosts: oa ? countyDefinitionHosts(oa.text, ctx.jurisdictions) : new Map(),
  });
  const checkCtx = pageCheckCtx(rec, ctx, own);
  const disputed = settleDisputedHosts(own, rec, {
    jurisdictions: ctx.jurisdictions,
    registry: registryOwn,
    twins: checkCtx.twins,
  });
  summary.own_hosts_disputed_claims_dropped = disputed.length;
  ctx.log(`  hosts two lists give to two governments, settled (claims dropped): ${disputed.length}`);
  for (const l of disputed) ctx.log(`    ${l}`);
  const delegated = addDelegatedHosts(own, ctx.jurisdictions.values(), registryText);
  summary.own_hosts_delegated_counties = delegated.counties;
  summary.own_hosts_delegated_locals = delegated.locals;
  ctx.log(
    `  delegated names under the states' domains (own hosts): ${delegated.counties} counties, ${delegated.locals} cities and towns`,
  );
  if (registryText) {
    const mail = addContactEmailHosts(own, registryText, ctx.jurisdictions);
    summary.own_hosts_from_contact_email = mail.rows + mail.mail_domains;
    ctx.log(
      `  own hosts from the registry's contact e-mail: ${mail.rows} office domains, ${mail.mail_domains} e-mail domains`,
    );
    for (const l of mail.lines.slice(0, 6)) ctx.log(`    ${l}`);
    if (process.env.BUILD_VERBOSE) for (const l of mail.lines.slice(6)) ctx.log(`    ${l}`);
  }
  await addOpenAddresses(rec, ctx, (id) => [homes.get(id), gsaHomes.get(id)].filter((u): u is string => !!u), summary);
  const foreign = demoteForeignHosts(rec, ctx, own, checkCtx.twins);
  summary.gis_links_on_another_governments_host = foreign.length;
  ctx.log(
    `  GIS links on another government's host (publisher set to that government, not official here): ${foreign.length}`,
  );
  for (const l of foreign.slice(0, 8)) ctx.log(`    ${l}`);
  if (registryText) {
    summary.own_hosts_of_states = addStateHosts(own, registryText, ctx.jurisdictions);
    ctx.log(
      `  state hosts (the registry's State or territory rows, for state bodies' pages): ${summary.own_hosts_of_states}`,
    );
  }
  // OWN_HOSTS_OUT=file writes every own host with its governments (to find where an office's site is provable)
  if (process.env.OWN_HOSTS_OUT) writeFileSync(process.env.OWN_HOSTS_OUT, JSON.stringify(own.entries()));
  addPageRecords(rec, join(ctx.projectRoot, "data/pages"), checkCtx, ctx.log, summary);
  const localEvidence = markRuleEvidenceGovernments(ctx.stateRules, own);
  summary.state_rules_with_local_evidence = localEvidence.length;
  ctx.log(
    `  state rules whose evidence is one local government's page (shown as evidence only for that body): ${localEvidence.length}`,
  );
  for (const l of localEvidence.slice(0, 8)) ctx.log(`    ${l}`);

  const byId = <T>(m: Map<string, T>, k: (x: T) => string) =>
    [...m.values()].sort((a, b) => (k(a) < k(b) ? -1 : k(a) > k(b) ? 1 : 0));
  const sources = byId(rec.sources, (s) => s.source_id);
  const offices = byId(rec.offices, (o) => o.office_id);
  const resources = byId(rec.resources, (r) => r.resource_id);
  const function_overrides = byId(rec.overrides, (o) => `${o.jurisdiction_id}|${o.function}|${o.role}`);
  for (const r of [...resources, ...offices, ...function_overrides]) {
    if (r.source_id && !rec.sources.has(r.source_id)) throw new Error(`record points at unknown source ${r.source_id}`);
  }
  summary.sources = sources.length;
  summary.resources = resources.length;
  summary.offices = offices.length;
  summary.function_overrides = function_overrides.length;
  summary.undocumented_records = [...resources, ...offices].filter((r) => !r.documented).length;
  ctx.log(
    `  directory records: ${resources.length} resources, ${offices.length} offices, ${function_overrides.length} overrides, ${sources.length} sources, ${summary.undocumented_records} undocumented`,
  );
  return { sources, offices, resources, function_overrides, summary };
}
