// Offices from the CISA .gov registry: a County, City or Special district domain registered by an office (an
// assessor, an appraisal district, a register of deeds, a treasurer ...) becomes an Office of the government it
// belongs to, with the functions the office word has in that state (data/office-words.yaml, through OfficeWords:
// this file never decides what a word means). Two ways to see the office:
//   - the Organization/Suborganization name names it ("Cook County Assessor"): the office's name is that name;
//   - the organization is the government and the domain label is "<government><word>" (bouldercountyassessor.gov,
//     org "Boulder County"): the name is the government's name followed by the word ("Boulder County Assessor").
// The government is found with the registry matcher of dotgov.ts after the office words are taken out.
import { parseCsv } from "./csv";
import { type DotgovRow, GovIndex, matchRow, nameTokens, keyOf } from "./dotgov";
import { governmentName } from "../../src/directory/names";
import { FUNCTIONS, type Fn } from "../../src/domain/vocabulary";
import { type OfficeWords, wordTokens } from "./office-words";
import { type JurisdictionIn, type Records, officeId, resourceRow } from "./records-common";
import { BY_POSTAL } from "./states";

const TYPES = new Set(["County", "City", "Special district"]);
// Words that say "office of" rather than who: taken out before the government is matched.
const FILLER = new Set([
  "office",
  "offices",
  "department",
  "dept",
  "division",
  "and",
  "services",
  "central",
  "comptroller",
  "controller",
  "elections",
  "ex",
  "officio",
  "court",
  "courts",
  "circuit",
]);
// Legal words inside an office phrase ("county clerk", "township assessor") still name the government's kind.
const LEGAL = new Set(["county", "parish", "borough", "township", "town", "city", "village"]);
const COUNTY_WORD = /\b(county|parish|borough)\b/;

export interface OfficeFound {
  j: JurisdictionIn;
  name: string;
  functions: Fn[];
  domain: string;
  org: string;
  via: "name" | "domain";
}

const titleCase = (s: string) => s.replace(/\b[a-z]/g, (c) => c.toUpperCase());
const cleanName = (s: string) =>
  s
    .replace(/\s+/g, " ")
    .replace(/[\s,;:|-]+$/, "")
    .trim();

/** The organization with its office words and filler words taken out ("Cook County Assessor" → "Cook County"). */
function governmentPart(org: string, hits: { start: number; end: number }[]): string {
  const t = wordTokens(org);
  const drop = new Array<boolean>(t.length).fill(false);
  for (const h of hits) for (let k = h.start; k < h.end; k++) drop[k] = !LEGAL.has(t[k]!);
  let out = t.filter((w, i) => !drop[i] && !FILLER.has(w)).join(" ");
  out = out
    .replace(/^(the )?(office )?of( the)? /, "")
    .replace(/\b(county|parish)( \1)+\b/g, "$1")
    .replace(/( (of|the))+$/, "")
    .trim();
  const countyOf = /\b(county|parish) of (.+)$/.exec(out); // "county county of riverside" → "county of riverside"
  return countyOf ? `${countyOf[1]} of ${countyOf[2]}` : out;
}

function stateKeys(postal: string): string[] {
  const s = BY_POSTAL.get(postal);
  return [postal.toLowerCase(), ...(s ? [keyOf(nameTokens(s.name))] : [])];
}

export function findRegistryOffices(csvText: string, jurisdictions: Iterable<JurisdictionIn>, words: OfficeWords) {
  const idx = new GovIndex(jurisdictions);
  const found: OfficeFound[] = [];
  const counts: Record<string, number> = {};
  const inc = (k: string) => {
    counts[k] = (counts[k] ?? 0) + 1;
  };
  const unmatched: string[] = [];
  const rows = parseCsv(csvText)
    .map((r) => ({
      domain: String(r["Domain name"] ?? "")
        .trim()
        .toLowerCase(),
      type: String(r["Domain type"] ?? "").trim(),
      org: cleanName(String(r["Organization name"] ?? "")),
      sub: cleanName(String(r["Suborganization name"] ?? "")),
      city: String(r["City"] ?? "").trim(),
      state: String(r["State"] ?? "")
        .trim()
        .toUpperCase(),
    }))
    .filter((r) => TYPES.has(r.type) && r.state)
    .sort((a, b) => (a.domain < b.domain ? -1 : a.domain > b.domain ? 1 : 0));
  for (const r of rows) {
    const name = r.sub && words.hits(r.sub, r.state).length ? `${r.org} ${r.sub}` : r.org;
    const hits = words.hits(name, r.state);
    const asFns = (l: readonly string[]) => l.filter((f): f is Fn => (FUNCTIONS as readonly string[]).includes(f));
    let functions = asFns(words.functionsOf(name, r.state));
    let officeName = name;
    let govText = governmentPart(name, hits);
    let via: OfficeFound["via"] = "name";
    if (!hits.length) {
      // the org is the government; does the domain label add exactly one office word?
      const m = matchRow(idx, {
        domain: r.domain,
        type: r.type === "City" ? "City" : "County",
        org: r.org,
        city: r.city,
        state: r.state,
      } as DotgovRow);
      if (!m.ok) continue;
      let label = r.domain.replace(/\.gov$/, "").replace(/[^a-z0-9]/g, "");
      const gkey = keyOf(nameTokens(m.j.name.replace(/\s+(county|parish|borough|city|town|village|township)$/i, "")));
      label = label
        .replace(gkey, "")
        .replace(/^(county|co|city|town|village|twp|township|parish)/, "")
        .replace(/(county|co)/, "");
      for (const k of stateKeys(r.state))
        if (label.endsWith(k) && label.length > k.length) label = label.slice(0, -k.length);
      for (const k of stateKeys(r.state))
        if (label.startsWith(k) && label.length > k.length) label = label.slice(k.length);
      const row = words.all().find((w) => w.word.replace(/ /g, "") === label);
      const meaning = row ? words.meaning(row.word, r.state) : null;
      if (!meaning || !asFns(meaning.functions).length) continue;
      functions = asFns(meaning.functions);
      officeName = `${governmentName(m.j)} ${titleCase(meaning.word)}`;
      govText = r.org;
      via = "domain";
    }
    inc("rows_with_office_word");
    if (!functions.length) {
      inc("no_property_function");
      continue;
    }
    const type = COUNTY_WORD.test(govText) || r.type !== "City" ? "County" : "City";
    const m = matchRow(idx, {
      domain: r.domain,
      type,
      org: govText || r.org,
      city: r.city,
      state: r.state,
    } as DotgovRow);
    if (!m.ok) {
      inc(`unmatched_${m.reason}`);
      unmatched.push(`${r.org} (${r.state}, ${r.domain}) [${m.reason}]`);
      continue;
    }
    inc(`matched_via_${via}`);
    found.push({ j: m.j, name: officeName, functions, domain: r.domain, org: r.org, via });
  }
  return { found, counts, unmatched };
}

/** The topic under which an office's own site is listed, by the function it performs. */
const OFFICE_TOPIC: Record<Fn, string> = {
  assessment: "assessor",
  tax_collection: "tax_collector",
  recording: "recorder_deeds",
  zoning: "zoning",
  permits: "building_permits",
  gis: "county_gis",
};
const OFFICE_SORT_KEY = 25; // before the government's home page (30)

/** One office per (government, function): where several domains name the same office, the shortest domain wins.
 *  Each office's site is also a resource under its functions' topics, so answers link it and search finds it. */
export function addRegistryOffices(
  rec: Records,
  found: OfficeFound[],
  sourceId: string,
  documented: number,
): Record<string, number> {
  const best = new Map<string, OfficeFound>();
  for (const f of found) {
    for (const fn of f.functions) {
      const k = `${f.j.jurisdiction_id}|${fn}`;
      const cur = best.get(k);
      if (
        !cur ||
        f.domain.length < cur.domain.length ||
        (f.domain.length === cur.domain.length && f.domain < cur.domain)
      )
        best.set(k, f);
    }
  }
  const counts: Record<string, number> & { registry_offices: number } = { registry_offices: 0 };
  for (const [k, f] of [...best].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    const fn = k.split("|")[1]!;
    const added = rec.addOffice({
      office_id: officeId(f.j.jurisdiction_id, `dotgov|${fn}`),
      jurisdiction_id: f.j.jurisdiction_id,
      name: f.name,
      kind: fn,
      function: fn,
      phone: null,
      email: null,
      address: null,
      url: `https://${f.domain}/`,
      verified_status: "not_yet_verified",
      verified_at: null,
      source_kind: "cisa-dotgov-registry",
      source_id: sourceId,
      documented,
    });
    if (added) {
      counts.registry_offices++;
      counts[`registry_offices_${fn}`] = (counts[`registry_offices_${fn}`] ?? 0) + 1;
    }
  }
  const sites = new Map<string, OfficeFound>();
  for (const f of best.values()) sites.set(`${f.j.jurisdiction_id}|${f.domain}`, f);
  for (const f of [...sites.values()].sort((a, b) => (a.domain < b.domain ? -1 : a.domain > b.domain ? 1 : 0))) {
    const fns = [...best].filter(([, g]) => g === f).map(([k]) => k.split("|")[1] as Fn);
    rec.addResource(
      resourceRow({
        jurisdiction_id: f.j.jurisdiction_id,
        name: f.name,
        url: `https://${f.domain}/`,
        topics: [...new Set(fns.map((fn) => OFFICE_TOPIC[fn]))],
        sort_key: OFFICE_SORT_KEY,
        source_kind: "cisa-dotgov-registry",
        source_id: sourceId,
        documented,
        publisher: f.org,
        official: true,
        description: `Site of the office on its .gov domain, as registered with CISA by ${f.org}.`,
      }),
    );
    counts.registry_office_sites = (counts.registry_office_sites ?? 0) + 1;
  }
  return counts;
}
