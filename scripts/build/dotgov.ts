// CISA .gov registry (dotgov/current-full.csv): read the County and City domains and match each to a county, an
// incorporated place, or (where the town or township is the government) a county subdivision, by name + state.
// The "Security contact email" column is dropped on read and never used.
import { parseCsv } from "./csv";
import type { JurisdictionIn } from "./records-common";
import { governmentName, placeBase } from "../../src/directory/names";
import {
  DEPARTMENT,
  countyKey,
  effLegal,
  keyOf,
  nameTokens,
  orgVariants,
  qualifiedHead,
  type Variant,
} from "./dotgov-names";
import { nearSpelling } from "./domain-names";
// re-exported for the modules that match names the same way
export { governmentName, keyOf, nameTokens, orgVariants };

export interface DotgovRow {
  domain: string;
  type: "County" | "City";
  org: string;
  city: string;
  state: string;
}

/** County and City rows only (not the "- Election" variants, not State or territory). Email column dropped. */
export function readDotgov(text: string): { rows: DotgovRow[]; total: number } {
  const all = parseCsv(text);
  const rows: DotgovRow[] = [];
  for (const r of all) {
    const type = (r["Domain type"] ?? "").trim();
    if (type !== "County" && type !== "City") continue;
    rows.push({
      domain: (r["Domain name"] ?? "").trim().toLowerCase(),
      type,
      org: (r["Organization name"] ?? "").trim(),
      city: (r["City"] ?? "").trim(),
      state: (r["State"] ?? "").trim().toUpperCase(),
    });
  }
  return { rows, total: all.length };
}

// ---------------------------------------------------------------- index and matching

/** States where towns or townships are the general-purpose local government (strong minor civil divisions). */
export const STRONG_MCD_STATES = new Set(["CT", "ME", "MA", "MI", "MN", "NH", "NJ", "NY", "PA", "RI", "VT", "WI"]);
const COUSUB_OK = new Set(["town", "township", "charter township", "plantation", "city", "village", "borough"]);

export interface Candidate {
  j: JurisdictionIn;
  legal: string | null;
  countyKey: string | null;
}

export class GovIndex {
  readonly counties = new Map<string, Map<string, Candidate[]>>();
  readonly locals = new Map<string, Map<string, Candidate[]>>();
  readonly cousubStates = new Set<string>();
  constructor(jurisdictions: Iterable<JurisdictionIn>) {
    const list = [...jurisdictions];
    const countyKeyById = new Map(
      list.filter((j) => j.type === "county").map((j) => [j.jurisdiction_id, countyKey(j.name)]),
    );
    const add = (m: Map<string, Map<string, Candidate[]>>, st: string, key: string, c: Candidate) => {
      if (!key) return;
      let s = m.get(st);
      if (!s) m.set(st, (s = new Map()));
      const a = s.get(key);
      if (a) a.push(c);
      else s.set(key, [c]);
    };
    const townCities: [string, string, Candidate][] = [];
    for (const j of list.sort((a, b) => a.jurisdiction_id.localeCompare(b.jurisdiction_id))) {
      if (!j.state) continue;
      if (j.type === "county") {
        add(this.counties, j.state, countyKey(j.name), { j, legal: effLegal(j), countyKey: null });
        continue;
      }
      if (j.type !== "place" && j.type !== "cousub") continue;
      const legal = effLegal(j);
      if (legal === "cdp" || / CDP$/.test(j.name)) continue;
      if (j.type === "cousub") {
        if (legal && !COUSUB_OK.has(legal)) continue;
        this.cousubStates.add(j.state);
      }
      const cand = { j, legal, countyKey: j.county_id ? (countyKeyById.get(j.county_id) ?? null) : null };
      const base = placeBase(j.name).base;
      add(this.locals, j.state, keyOf(nameTokens(base)), cand);
      // Massachusetts towns with a city form of government are "X Town city" in the Census; they call themselves
      // "Town of X" or "City of X" (that name, unless a town of the state already bears it)
      const town = j.state === "MA" && legal === "city" ? /^(.+) Town$/.exec(base) : null;
      if (town) townCities.push([j.state, keyOf(nameTokens(town[1]!)), { ...cand, legal: null }]);
    }
    const taken = new Set(townCities.filter(([st, key]) => this.locals.get(st)?.has(key)).map(([st, key]) => st + key));
    for (const [st, key, c] of townCities) if (!taken.has(st + key)) add(this.locals, st, key, c);
  }
}

// Minnesota townships are legally "towns" and often call themselves "Town of X".
const compatible = (legal: string | null, hint: string, state: string) =>
  legal === null ||
  legal === hint ||
  (hint === "township" && legal === "charter township") ||
  (legal === "city and borough" && (hint === "city" || hint === "borough")) ||
  (state === "MN" && hint === "town" && legal === "township");

function localCandidates(idx: GovIndex, state: string, v: Variant): Candidate[] {
  let c = idx.locals.get(state)?.get(v.key) ?? [];
  if (!c.length) return c;
  // A city that is both a place and a county subdivision (Minnesota, New Jersey ...) is the place.
  const places = c.filter((x) => x.j.type === "place");
  c = c.filter(
    (x) => x.j.type === "place" || !places.some((p) => p.legal === null || x.legal === null || p.legal === x.legal),
  );
  const strong = STRONG_MCD_STATES.has(state);
  c = c.filter(
    (x) =>
      x.j.type === "place" ||
      strong ||
      (v.hint !== null &&
        (v.hint === "town" || v.hint === "township") &&
        x.legal !== null &&
        compatible(x.legal, v.hint, state)),
  );
  if (v.hint) {
    const f = c.filter((x) => compatible(x.legal, v.hint!, state));
    if (f.length) return f;
    // The organization calls itself "City of X" where Census says "X town": accept only outside the town/township
    // states, where no separate town government of the same name can exist.
    // A township is never the same government as a city or village of the same name.
    return strong || v.hint === "township" ? [] : c.filter((x) => x.j.type === "place");
  }
  return c;
}

/** The row's domain as one run of letters and digits, without ".gov" (villageofhempsteadny). */
const domainLabel = (row: DotgovRow) => row.domain.replace(/\.gov$/, "").replace(/[^a-z0-9]/g, "");

/** Several governments of one name in the state: pick the one whose county is named in the domain or the
 *  organization name, else the one in the county of the registry's City (the mailing city). */
function byCounty(idx: GovIndex, cands: Candidate[], row: DotgovRow, key: string): Candidate | null {
  const label = domainLabel(row).replace(key, "");
  const orgKey = keyOf(nameTokens(row.org)).replace(key, "");
  const named = cands.filter(
    (c) => c.countyKey && c.countyKey.length >= 4 && (label.includes(c.countyKey) || orgKey.includes(c.countyKey)),
  );
  if (named.length === 1) return named[0]!;
  const cityKey = keyOf(nameTokens(row.city));
  if (!cityKey) return null;
  const cityCounties = new Set(
    (idx.locals.get(row.state)?.get(cityKey) ?? []).map((c) => c.j.county_id).filter(Boolean),
  );
  const inCity = cands.filter((c) => (c.j.county_id && cityCounties.has(c.j.county_id)) || c.countyKey === cityKey);
  return inCity.length === 1 ? inCity[0]! : null;
}

/** A municipal row whose organisation misspells the name ("Inc. Village of Hemsptead", "Town of Smithfeld") while
 *  its domain spells it right (villageofhempsteadny.gov, smithfieldri.gov): the one government of the state whose
 *  name key is a slip of the pen from the row's (nearSpelling) AND is written out in the domain's label. Two
 *  witnesses, so a name merely close to another place's (Mableton, Mapleton) never moves a row. At most one letter
 *  longer or shorter: a word added to the name ("Borough of Emerson PD", "Kenedy 4B Corporation") is no slip. */
function misspelt(idx: GovIndex, row: DotgovRow, variants: Variant[]): Candidate | null {
  const label = domainLabel(row);
  const locals = idx.locals.get(row.state);
  if (!locals) return null;
  for (const v of variants) {
    if (v.key.length < 4) continue;
    const keys = [...locals.keys()].filter(
      (k) => k !== v.key && Math.abs(k.length - v.key.length) <= 1 && label.includes(k) && nearSpelling(v.key, k),
    );
    if (keys.length !== 1) continue;
    const cands = localCandidates(idx, row.state, { ...v, key: keys[0]! });
    if (cands.length === 1) return cands[0]!;
    if (cands.length > 1) return byCounty(idx, cands, row, keys[0]!);
  }
  return null;
}

export type MatchResult =
  | { ok: true; j: JurisdictionIn }
  | {
      ok: false;
      reason:
        | "no_state"
        | "department_or_agency"
        | "office_of_a_government"
        | "ambiguous"
        | "town_or_township_without_cousub_data"
        | "no_name_match";
    };

/** isOffice: does the organization name an office (the office-word table decides; see dotgov-offices.ts)? */
export function matchRow(
  idx: GovIndex,
  row: DotgovRow,
  isOffice: (org: string, state: string) => boolean = () => false,
): MatchResult {
  if (!row.state) return { ok: false, reason: "no_state" };
  const variants = orgVariants(row.org, row.type, row.state);
  // then the name before a qualifier ("Town of Riverhead - IT Dept."); the whole name still picks the county
  const cityKey = keyOf(nameTokens(row.city));
  const head = qualifiedHead(
    row.org,
    row.state,
    (k) => k === cityKey || !!idx.counties.get(row.state)?.has(k) || !!idx.locals.get(row.state)?.has(k),
  );
  if (head) variants.push(...orgVariants(head, row.type, row.state));
  for (const v of variants) {
    let cands: Candidate[];
    if (row.type === "County") cands = idx.counties.get(row.state)?.get(v.key) ?? [];
    else cands = localCandidates(idx, row.state, v);
    if (!cands.length) continue;
    if (cands.length === 1) return { ok: true, j: cands[0]!.j };
    const pick = byCounty(idx, cands, row, v.key);
    return pick ? { ok: true, j: pick.j } : { ok: false, reason: "ambiguous" };
  }
  const last = variants[variants.length - 1];
  if (isOffice(row.org, row.state)) return { ok: false, reason: "office_of_a_government" };
  if (DEPARTMENT.test(nameTokens(row.org).join(" "))) return { ok: false, reason: "department_or_agency" };
  const slip = row.type === "City" ? misspelt(idx, row, variants) : null;
  if (slip) return { ok: true, j: slip.j };
  if (
    row.type === "City" &&
    last &&
    (last.hint === "town" || last.hint === "township") &&
    !idx.cousubStates.has(row.state)
  ) {
    return { ok: false, reason: "town_or_township_without_cousub_data" };
  }
  return { ok: false, reason: "no_name_match" };
}

// Domain labels that name a department (police, fire, court ...) rank after the government's general domain.
const DEPT_LABEL =
  /(police|waste|(pd|fd|ems)([a-z]{2})?$|fire|court|librar|sheriff|911|water|utilit|parks|vote|elect|tourism|visit|airport|housing|health|transit|museum|jail|recycl)/;

/** Deterministic best home page among several domains of one government: general before department-like
 *  labels, then the shortest, then alphabetical. */
const departmentLabel = (d: string, govKey: string) =>
  DEPT_LABEL.test(
    d
      .replace(/\.gov$/, "")
      .replace(/[^a-z0-9]/g, "")
      .replace(govKey, ""),
  );
export function pickHome(domains: string[], govKey: string): string {
  const rank = (d: string) => (departmentLabel(d, govKey) ? 1 : 0);
  return [...domains].sort((a, b) => rank(a) - rank(b) || a.length - b.length || (a < b ? -1 : a > b ? 1 : 0))[0]!;
}

export interface RegistryMatch {
  /** jurisdiction_id -> chosen home domain and its registry row */
  homes: Map<string, { j: JurisdictionIn; row: DotgovRow; domains: number }>;
  counts: Record<string, number>;
  unmatched: { row: DotgovRow; reason: string }[];
  /** jurisdiction_id -> every registry domain matched to the government (own hosts, scripts/build/own-hosts.ts) */
  domains: Map<string, string[]>;
}

export function matchRegistry(
  rows: DotgovRow[],
  jurisdictions: Iterable<JurisdictionIn>,
  isOffice?: (org: string, state: string) => boolean,
): RegistryMatch {
  const idx = new GovIndex(jurisdictions);
  const byGov = new Map<string, { j: JurisdictionIn; rows: DotgovRow[] }>();
  const counts: Record<string, number> = {};
  const inc = (k: string) => {
    counts[k] = (counts[k] ?? 0) + 1;
  };
  const unmatched: { row: DotgovRow; reason: string }[] = [];
  const sorted = [...rows].sort((a, b) => (a.domain < b.domain ? -1 : a.domain > b.domain ? 1 : 0));
  for (const row of sorted) {
    const t = row.type.toLowerCase();
    inc(`${t}_read`);
    const m = matchRow(idx, row, isOffice);
    if (!m.ok) {
      inc(`${t}_unmatched`);
      inc(`${t}_unmatched_${m.reason}`);
      unmatched.push({ row, reason: m.reason });
      continue;
    }
    inc(`${t}_matched`);
    const g = byGov.get(m.j.jurisdiction_id);
    if (g) g.rows.push(row);
    else byGov.set(m.j.jurisdiction_id, { j: m.j, rows: [row] });
  }
  const homes: RegistryMatch["homes"] = new Map();
  for (const [id, g] of [...byGov].sort((a, b) => a[0].localeCompare(b[0]))) {
    const key = g.j.type === "county" ? countyKey(g.j.name) : keyOf(nameTokens(placeBase(g.j.name).base));
    const home = pickHome(
      g.rows.map((r) => r.domain),
      key,
    );
    const t = g.j.type === "county" ? "county" : "city";
    // Only department-like domains (a police or fire department site): not the government's home page.
    if (departmentLabel(home, key)) {
      counts[`${t}_department_domain_only`] = (counts[`${t}_department_domain_only`] ?? 0) + 1;
      continue;
    }
    homes.set(id, { j: g.j, row: g.rows.find((r) => r.domain === home)!, domains: g.rows.length });
    counts[`${t}_governments`] = (counts[`${t}_governments`] ?? 0) + 1;
    counts[`${t}_extra_domains_ignored`] = (counts[`${t}_extra_domains_ignored`] ?? 0) + g.rows.length - 1;
  }
  const domains = new Map([...byGov].map(([id, g]) => [id, g.rows.map((r) => r.domain)]));
  return { homes, counts, unmatched, domains };
}
