// GSA govt-urls list (gsa-govt-urls/5_govt_urls_county_only.csv and 6_govt_urls_local_only.csv, commit of
// 2023-02-22): official home pages of county and local governments OUTSIDE .gov. A government that has a .gov home
// page from the CISA registry keeps it; the GSA page is added only where there is none. Matching is by the
// organisation's name in the Note column + the state named in Location, with the same name rules as the .gov
// registry (scripts/build/dotgov.ts); what did not match is counted and shown. Older vintage (most rows were added
// 2013-2015): the source name says so.
// Rows whose Note does not name their government as the registry would (matchGsaRow), each decided by the row itself:
//   - a bare name in the local file ("Bleckley, GA"; "accesskent, mi" for accesskent.com, a web prefix on the name)
//     that names no local government is the county of that name, when the domain carries the name;
//   - a county's row whose Note misspells the county its domain names ("Northfolk County" on norfolkcounty.org):
//     that county, when the name written is one slip of the pen from it (domain-names.ts);
//   - a county's row on a domain that names a town (townofkershaw.net for "kershaw county"): never the county's
//     domain; the row's Link on another host is used instead.
import { parseCsv } from "./csv";
import { GovIndex, governmentName, matchRow, nameTokens, keyOf, pickHome, type DotgovRow } from "./dotgov";
import { countyKey, orgVariants } from "./dotgov-names";
import { countyNamedByHost, municipalityNamedByHost, nearSpelling } from "./domain-names";
import { bareDomain } from "./own-hosts";
import { STATES } from "./states";
import { readDeclared, type DeclaredCtx } from "./declared";
import type { OwnHosts } from "./own-hosts";
import { baseName } from "./legal";
import { countiesByState } from "./registry-hosts";
import { type JurisdictionIn, Records, isHttpUrl, resourceRow } from "./records-common";

/** The two files read: county governments and local governments (cities, towns, townships, villages). */
export const GSA_FILES = [
  { id: "gsa-govt-urls-county", label: "counties", type: "County" as const },
  { id: "gsa-govt-urls-local", label: "local", type: "City" as const },
];
/** Same rank and topics as the .gov home pages (scripts/build/directory-records.ts). */
export const HOME_SORT_KEY = 30;
export const HOME_TOPICS = ["property_records_general"];

export interface GsaRow {
  domain: string;
  note: string;
  org: string;
  state: string;
  link: string | null;
  /** the Link column as listed (the page used is `link`) */
  listedLink: string;
  status: string;
  type: "County" | "City";
}

const POSTAL_BY_NAME = new Map(STATES.map((s) => [keyOf(nameTokens(s.name)), s.postal]));

/** The organisation's name from a Note: "Anne Arundel County, MD -- Note added 4/21/14 14:52" -> "Anne Arundel
 *  County". Drops the note stamp, URLs, "website"/"home page" words, parenthesised asides, trailing notes and a
 *  trailing state (code or "of/in <state>"); repairs the mis-decoded no-break space ("¬†"). */
export function cleanNote(note: string): string {
  let s = note.replace(/¬†|\u00a0/g, " ");
  s = s.replace(/\s*-+\s*Note added[\s\S]*$/i, "");
  s = s
    .replace(/https?:\/\/\S+/gi, " ")
    .replace(/\bURL resolves[\s\S]*$/i, "")
    .replace(/\bNote:[\s\S]*$/i, "");
  s = s.replace(/\s+n(\*[\s\S]*)?$/, ""); // "Cass County, MN n*must use 'www' ..."
  s = s.replace(/\([^)]*\)/g, " ").replace(/\b(official\s+)?(web\s?site|home\s?page|site)\b/gi, " ");
  s = s.replace(/^\s*(county\s*:|of\b|commissioners\s+office\s+for\b)\s*/i, ""); // "County: Cole County", "website of X"
  if (!/^(county|parish|borough|city|town|village|township)\s+of\s/i.test(s))
    s = s.replace(/\s+(of|in)\s+([A-Za-z ]+?)\.?\s*$/i, (m, _w, st: string) =>
      POSTAL_BY_NAME.has(keyOf(nameTokens(st))) || /^[A-Za-z]{2}$/.test(st.trim()) ? "" : m,
    );
  s = s.replace(/,\s*[A-Za-z]{2}\.?\s*$/, ""); // a trailing state code, even a wrong one
  return s
    .replace(/\s+/g, " ")
    .replace(/[\s.,;:-]+$/, "")
    .trim();
}

/** The page to use: the Link column when it is an http(s) URL on the listed Domain's host (or a host above or
 *  below it, or when the listed domain is an IP address); otherwise the listed Domain itself (a "#N/A" link, or a
 *  Link that points at another site, as the row for co.dekalb.ga.us whose Link is Fulton County's). */
export function homeUrl(link: string, domain: string): string | null {
  const l = link.trim(),
    d = domain.trim().toLowerCase();
  const dHost = d.split("/")[0]!.replace(/^www\./, "");
  const lHost = isHttpUrl(l) ? new URL(l).hostname.toLowerCase().replace(/^www\./, "") : "";
  const named = /^[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}$/.test(dHost);
  // the Link is used on the listed domain's host, or where the listed "domain" is no host name (an IP address)
  if (lHost && (!named || lHost === dHost || lHost.endsWith("." + dHost) || dHost.endsWith("." + lHost))) return l;
  if (!named) return null;
  return `http://${d}${d.includes("/") ? "" : "/"}`;
}

export function readGsa(text: string, type: "County" | "City"): GsaRow[] {
  return parseCsv(text).map((r) => ({
    domain: String(r["Domain"] ?? "")
      .trim()
      .toLowerCase(),
    note: String(r["Note"] ?? ""),
    org: cleanNote(String(r["Note"] ?? "")),
    state: POSTAL_BY_NAME.get(keyOf(nameTokens(String(r["Location"] ?? "")))) ?? "",
    link: homeUrl(String(r["Link"] ?? ""), String(r["Domain"] ?? "")),
    listedLink: String(r["Link"] ?? "").trim(),
    status: String(r["Status"] ?? "").trim(),
    type,
  }));
}

/** A county office's own domain in the county file that names no government as such ("ocean county clerk site",
 *  "The Clerk of the Circuit, Hillsborough County, FL"): the one county of the row's state named "<X> County" (or
 *  Parish, Borough) in the note, when the office-word table finds a property office in the note. Gives an own
 *  host, never a home page. */
export function countyOfficeOf(
  row: GsaRow,
  counties: Map<string, JurisdictionIn[]> | null,
  officeWord: (text: string, state: string) => boolean,
): JurisdictionIn | null {
  if (row.status !== "accepted term" || !officeWord(row.note, row.state)) return null;
  const note = ` ${nameTokens(row.org).join(" ")} `;
  const hits = (counties?.get(row.state) ?? []).filter((c) => {
    const base = nameTokens(baseName(c.name)).join(" ");
    const legal = (c.legal_type ?? "county").toLowerCase();
    return note.includes(` ${base} ${legal} `);
  });
  return hits.length === 1 ? hits[0]! : null;
}

export type GsaOutcome = { ok: true; j: JurisdictionIn; row: GsaRow } | { ok: false; reason: string; row: GsaRow };

/** "Accident Maryland, located in Garrett County, MD" in the county file is a town's site: match it as local. */
const LOCATED_IN = /^(.*?),?\s+(?:is\s+)?located\s+in\s+/i;
/** The organisation calls itself a county (or parish). */
const SAYS_COUNTY = /\b(county|counties|parish)\b/i;
/** Any word naming a kind of government: an organisation without one is a bare name ("Bleckley", "accesskent"). */
const GOVERNMENT_WORD =
  /\b(county|counties|parish|borough|city|town|township|twp|village|municipality|government|gov|department|dept|office|commission|board|district|authority|association)\b/i;
/** Words sites put before a government's name in their domain (accesskent.com, myescambia.com, visitmonmouth.com). */
const WEB_PREFIX = /^(access|my|visit|discover|go)(?=[a-z]{3})/;

/** The name an organisation gives a county, as keys: its name variants with the government words taken off
 *  ("County of Niagra" -> "niagra", "kennebe ccounty" -> "kennebec", "clareco" -> "clare"), and without a leading
 *  "City of" where the name ends in County ("The City of Flagler County" -> "flagler"). A name that carries an
 *  office or another body ("Bienville Parish Clerk's Office", "bullit county Travel") gives none that a county's
 *  name is near. */
function countyNameWritten(org: string, state: string): string[] {
  const t = nameTokens(org).filter((w, i) => i > 0 || w !== "the");
  const names = [org];
  if (/^(city|town|village) of$/.test(t.slice(0, 2).join(" ")) && /^(county|parish)$/.test(t[t.length - 1] ?? ""))
    names.push(t.slice(2).join(" "));
  const out = names.flatMap((n) =>
    orgVariants(n, "County", state).flatMap((v) => [v.key, v.key.replace(/(county|parish|co)$/, "")]),
  );
  return [...new Set(out.filter(Boolean))];
}

/** The names a bare organisation may stand for: itself and, when it only repeats the domain's name ("accesskent,
 *  mi" for accesskent.com), that name without a web prefix or the state's code ("kent"). */
function bareNames(org: string, domain: string, state: string): string[] {
  const key = keyOf(nameTokens(org));
  const label = bareDomain(domain).split(".")[0]!.replace(/-/g, "");
  const out = [org];
  if (key === label) {
    const st = state.toLowerCase();
    for (const k of [label.replace(WEB_PREFIX, ""), label.endsWith(st) ? label.slice(0, -st.length) : label])
      if (k !== label && k.length >= 3) out.push(k);
  }
  return out;
}

export function matchGsaRow(idx: GovIndex, row: GsaRow): GsaOutcome {
  if (row.status !== "accepted term") return { ok: false, reason: "status_not_accepted", row };
  if (!row.link) return { ok: false, reason: "no_usable_link", row };
  const li = LOCATED_IN.exec(row.org);
  let org = li ? (li[1] ?? row.org) : row.org;
  // "Bath Township, Summit County": the county is dropped from the name and, as in the .gov matching, picks
  // between several governments of one name (matchRow looks for a county's name in the domain label).
  const inCounty = /^(.+?),\s*([A-Za-z .'-]+?)\s+County$/i.exec(org);
  let hint = "";
  if (inCounty && row.type === "City") {
    org = inCounty[1]!;
    hint = keyOf(nameTokens(inCounty[2]!));
  }
  const as = (type: "County" | "City", name = org) =>
    matchRow(idx, { domain: hint ? `${row.domain}.${hint}` : row.domain, type, org: name, city: "", state: row.state });
  let m = as(li ? "City" : row.type);
  // a borough or town listed in the county file ("Borough of Alpha, NJ (Warren County)") is matched as local
  if (!m.ok && row.type === "County" && !li) {
    const l = as("City");
    if (l.ok) m = l;
  }
  // and a county listed in the local file ("Aleutians East Borough, AK") as a county
  if (!m.ok && row.type === "City" && /\b(county|parish|borough)\b/i.test(org)) {
    const c = as("County");
    if (c.ok) m = c;
  }
  // a bare name in the local file ("Bleckley, GA"; "accesskent, mi", which only repeats its domain accesskent.com)
  // that names no local government is the county of that name
  if (!m.ok && m.reason === "no_name_match" && row.type === "City" && !li && !hint && !GOVERNMENT_WORD.test(org)) {
    const label = bareDomain(row.domain).split(".")[0]!.replace(/-/g, "");
    for (const name of bareNames(org, row.domain, row.state)) {
      const l = name === org ? m : as("City", name);
      // the county only where the domain carries the name ("effga.com" for "Effingham" names no county)
      const c = l.ok || !label.includes(keyOf(nameTokens(name))) ? l : as("County", name);
      if (c.ok) {
        m = c;
        break;
      }
      if ((!l.ok && l.reason === "ambiguous") || (!c.ok && c.reason === "ambiguous")) break;
    }
  }
  // a county's row whose organisation misspells the county its domain names ("Northfolk County" for
  // norfolkcounty.org, "County of Niagra" for niagaracounty.com, "McCreaery" for mccrearycounty.com): the county the
  // domain names, when the name written is one slip from it. The row says County in its file, its organisation or
  // its domain; a department or an ambiguous name is left unmatched.
  if (!m.ok && m.reason === "no_name_match" && !li && !row.domain.includes("/")) {
    const saysCounty = (row.type === "County" && !hint) || SAYS_COUNTY.test(org);
    const c = countyNamedByHost(row.domain, row.state, idx.counties, saysCounty);
    if (c && countyNameWritten(org, row.state).some((w) => nearSpelling(w, countyKey(c.name)))) m = { ok: true, j: c };
  }
  if (!m.ok) return { ok: false, reason: m.reason, row };
  // a county's row on a domain that names a town ("kershaw county, sc" listed on townofkershaw.net, its Link
  // www.kershaw.sc.gov): the domain is the town's, never the county's; the Link, on another host that names no
  // town, is the county's page
  if (m.j.type === "county" && municipalityNamedByHost(row.domain)) {
    const lh = /^https?:\/\//i.test(row.listedLink) ? bareDomain(row.listedLink) : "";
    if (!lh || lh === bareDomain(row.domain) || municipalityNamedByHost(lh))
      return { ok: false, reason: "domain_names_a_municipality", row };
    return { ok: true, j: m.j, row: { ...row, domain: lh, link: row.listedLink } };
  }
  return { ok: true, j: m.j, row };
}

/** Home pages from the GSA list for governments without a .gov home page (`dotgovHomes`: jurisdiction_id -> URL).
 *  Returns jurisdiction_id -> GSA home URL of what was added. */
export async function addGsaHomes(
  rec: Records,
  ctx: DeclaredCtx & { jurisdictions: Map<string, JurisdictionIn> },
  dotgovHomes: Map<string, string>,
  summary: Record<string, number | string>,
  own?: OwnHosts,
  /** whether a text names a property office (the office-word table, data/office-words.yaml) */
  officeWord?: (text: string, state: string) => boolean,
): Promise<Map<string, string>> {
  const added = new Map<string, string>();
  let idx: GovIndex | null = null;
  let countiesOfState: Map<string, JurisdictionIn[]> | null = null;
  for (const f of GSA_FILES) {
    const input = await readDeclared(ctx, f.id);
    if (!input) {
      ctx.log(`  gsa ${f.label}: ${f.id} not present; no GSA home pages`);
      summary[`gsa_${f.label}`] = "not available";
      continue;
    }
    idx ??= new GovIndex(ctx.jurisdictions.values());
    countiesOfState ??= countiesByState(ctx.jurisdictions.values());
    const sid = rec.addSource(input.source);
    const rows = readGsa(input.text, f.type).sort((a, b) => (a.domain < b.domain ? -1 : a.domain > b.domain ? 1 : 0));
    const c: Record<string, number> & {
      read: number;
      matched: number;
      unmatched: number;
      ambiguous: number;
      governments: number;
      has_dotgov: number;
      added: number;
    } = { read: rows.length, matched: 0, unmatched: 0, ambiguous: 0, governments: 0, has_dotgov: 0, added: 0 };
    const inc = (k: string) => {
      c[k] = (c[k] ?? 0) + 1;
    };
    const byGov = new Map<string, { j: JurisdictionIn; rows: GsaRow[] }>();
    const unmatched: string[] = [],
      ambiguous: string[] = [],
      matchedEx: string[] = [];
    for (const row of rows) {
      const m = matchGsaRow(idx, row);
      const office =
        !m.ok && f.type === "County" && officeWord ? countyOfficeOf(row, countiesOfState, officeWord) : null;
      if (office && !row.domain.includes("/")) {
        own?.add(office.jurisdiction_id, row.domain); // an office's own domain: an own host, never a home page
        inc("county_office_domains");
      }
      if (!m.ok) {
        const line = `${row.org || row.note} (${row.state || "?"}, ${row.domain}) [${m.reason}]`;
        if (m.reason === "ambiguous") {
          c.ambiguous++;
          ambiguous.push(line);
        } else {
          c.unmatched++;
          unmatched.push(line);
        }
        inc(`unmatched_${m.reason}`);
        continue;
      }
      c.matched++;
      if (f.type === "County" && m.j.type !== "county") inc("matched_local_government_in_county_file");
      if (matchedEx.length < 5) matchedEx.push(`${row.org} -> ${m.j.jurisdiction_id} ${m.j.name}`);
      const g = byGov.get(m.j.jurisdiction_id);
      if (g) g.rows.push(m.row);
      else byGov.set(m.j.jurisdiction_id, { j: m.j, rows: [m.row] });
    }
    for (const [id, g] of [...byGov].sort((a, b) => a[0].localeCompare(b[0]))) {
      c.governments++;
      // a listed domain with a path (174.132.145.94/~hope, 360eldorado.com/Government) names no own host
      for (const r of g.rows) if (!r.domain.includes("/")) own?.add(id, r.domain);
      if (dotgovHomes.has(id)) {
        c.has_dotgov++;
        continue;
      } // prefer the .gov home page
      if (added.has(id)) continue; // already given by the county file
      const pick = pickHome(
        g.rows.map((r) => r.domain),
        keyOf(nameTokens(g.j.name)),
      );
      const row = g.rows.find((r) => r.domain === pick)!;
      const gov = governmentName(g.j);
      rec.addResource(
        resourceRow({
          jurisdiction_id: id,
          name: `${gov} official website`,
          url: row.link!,
          topics: HOME_TOPICS,
          sort_key: HOME_SORT_KEY,
          source_kind: "gsa-govt-urls-list",
          source_id: sid,
          documented: input.source.documented,
          publisher: gov,
          official: true,
          description: `Home page of the government outside .gov, from GSA's govt-urls list (${input.source.vintage}; entries mostly added 2013-2015, the site may have moved).`,
        }),
      );
      added.set(id, row.link!);
      c.added++;
    }
    for (const [k, v] of Object.entries(c).sort()) summary[`gsa_${f.label}_${k}`] = v;
    summary[`gsa_${f.label}_unmatched_examples`] = unmatched.slice(0, 20).join("; ");
    summary[`gsa_${f.label}_ambiguous_examples`] = ambiguous.slice(0, 20).join("; ");
    ctx.log(
      `  gsa ${f.label}: rows ${c.read}, matched ${c.matched} (${c.governments} governments: ${c.has_dotgov} already with a .gov home page, ${c.added} home pages added), unmatched ${c.unmatched}, ambiguous ${c.ambiguous}`,
    );
    const reasons = Object.entries(c)
      .filter(([k]) => k.startsWith("unmatched_"))
      .map(([k, v]) => `${k.slice(10)} ${v}`)
      .join(", ");
    if (reasons) ctx.log(`    unmatched by reason: ${reasons}`);
    for (const l of matchedEx) ctx.log(`    matched ${l}`);
    for (const l of unmatched.slice(0, 8)) ctx.log(`    unmatched ${l}`);
    for (const l of ambiguous.slice(0, 5)) ctx.log(`    ambiguous ${l}`);
  }
  const counties = [...ctx.jurisdictions.values()].filter((j) => j.type === "county" && isStateOrDc(j.state_fips));
  const withGov = counties.filter((j) => dotgovHomes.has(j.jurisdiction_id)).length;
  const withGsa = counties.filter((j) => added.has(j.jurisdiction_id)).length;
  Object.assign(summary, {
    home_counties_50_dc: counties.length,
    home_counties_dotgov: withGov,
    home_counties_gsa: withGsa,
    home_counties_total: withGov + withGsa,
  });
  ctx.log(
    `  home pages: ${withGov + withGsa} of ${counties.length} counties (50 states + DC): ${withGov} .gov (CISA), ${withGsa} GSA list`,
  );
  return added;
}

/** The 50 states and DC by FIPS code (territories 60 and up are not counted in the coverage figures). */
export const isStateOrDc = (fips: string | null) => !!fips && Number(fips) <= 56;
