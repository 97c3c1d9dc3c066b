// Coverage weighted by population, measured through the answers themselves (the domain code that serves requests).
// People: the Census Building Permits Survey's population figure of each permit office (table permit_survey; its
// vintage is not stated), each counted once where it lives: a place office's people at the place
// (resolve by its jurisdiction_id), a town office's at the county subdivision, a county's unincorporated area at the
// county alone (no place in the chain), other rows ("X County Part") at the county. Places and towns the data file
// does not hold are counted at their county. The total is close to the US population; the vintage is the survey's.
// Per function, two shares of those people:
//   office named    the answer's office_name is not null;
//   own page linked the answer links the office's own page: a page read on the office's site (data/pages) or the
//                   office's own domain (an Office with a url); for tax_collection the first link must be a
//                   property-tax payment page.
// The same two shares are given for the largest 150 counties (people summed by county) and 300 places (deduped by
// GEOID), over the jobs each covers: counties assessment, tax_collection, recording (and zoning and permits where
// the county issues permits for its unincorporated area); places zoning and permits. A job counts for a government
// only where its own answer names that government (New York's towns assess, not its counties; Maryland's state
// department assesses; a Texas county does not zone).
import { Database } from "bun:sqlite";
import { Directory } from "../../src/directory/directory";
import { contentFromStore } from "../../src/directory/content";
import { pageLinksFor } from "../../src/domain/page-links";
import { FUNCTIONS } from "../../src/domain/vocabulary";

type Entry = {
  jurisdiction_id: string | null;
  office_name: string | null;
  office: { url: string | null } | null;
  resources: { official: boolean; topics: string[]; source_kind?: string }[];
} | null;

export function ownPage(fn: string, e: Entry): boolean {
  if (!e?.jurisdiction_id) return false;
  if (fn === "tax_collection" && !e.resources[0]?.topics.includes("property_tax_payment")) return false;
  return !!e.office?.url || e.resources.some((r) => r.official && r.source_kind === "hand-added");
}

export interface PeopleCoverage {
  people: number;
  rows: { fn: string; named: number; linked: number }[];
  top: { counties: number; places: number; rows: { fn: string; n: number; named: number; linked: number }[] };
}

export function measurePeopleCoverage(file: string, topCounties = 150, topPlaces = 300): PeopleCoverage | null {
  const db = new Database(file, { readonly: true });
  try {
    if (!db.query("SELECT 1 FROM sqlite_master WHERE name = 'permit_survey'").get()) return null;
    const dir = new Directory(db, contentFromStore(db), pageLinksFor("http://localhost/v1"));
    const rows = db
      .query<{ jurisdiction_id: string; county_id: string; kind: string; population: number; held: number }, []>(
        "SELECT jurisdiction_id, county_id, kind, population, held FROM permit_survey ORDER BY bps_id",
      )
      .all();
    if (!rows.length) return null;
    const held = (id: string) => !!db.query("SELECT 1 FROM jurisdictions WHERE jurisdiction_id = ?").get(id);
    const memo = new Map<string, Record<string, Entry>>();
    const answer = (id: string) => {
      let f = memo.get(id);
      if (!f) {
        f = dir.resolveId(id).data.functions as Record<string, Entry>;
        memo.set(id, f);
      }
      return f;
    };
    const where = (r: (typeof rows)[number]) =>
      (r.kind === "place" || r.kind === "town") && r.held ? r.jurisdiction_id : r.county_id;
    let people = 0;
    const tally = FUNCTIONS.map((fn) => ({ fn, named: 0, linked: 0 }));
    const byCounty = new Map<string, number>();
    const byPlace = new Map<string, number>();
    for (const r of rows) {
      const id = where(r);
      if (!held(id)) continue;
      people += r.population;
      byCounty.set(r.county_id, (byCounty.get(r.county_id) ?? 0) + r.population);
      if (r.kind === "place") byPlace.set(r.jurisdiction_id, (byPlace.get(r.jurisdiction_id) ?? 0) + r.population);
      const f = answer(id);
      for (const t of tally) {
        const e = f[t.fn] ?? null;
        if (e?.office_name) t.named += r.population;
        if (ownPage(t.fn, e)) t.linked += r.population;
      }
    }
    const largest = (m: Map<string, number>, n: number) =>
      [...m]
        .filter(([id]) => held(id))
        .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
        .slice(0, n)
        .map(([id]) => id);
    const uninc = new Set(rows.filter((r) => r.kind === "county_unincorporated").map((r) => r.county_id));
    const topRows = FUNCTIONS.map((fn) => ({ fn, n: 0, named: 0, linked: 0 }));
    const count = (id: string, fns: string[]) => {
      const f = answer(id);
      for (const t of topRows)
        if (fns.includes(t.fn)) {
          const e = f[t.fn] ?? null;
          if (e?.jurisdiction_id !== id) continue; // a job the government does not do (towns assess in New York)
          t.n++;
          if (e?.office_name) t.named++;
          if (ownPage(t.fn, e)) t.linked++;
        }
    };
    const counties = largest(byCounty, topCounties),
      places = largest(byPlace, topPlaces);
    for (const c of counties)
      count(c, ["assessment", "tax_collection", "recording", ...(uninc.has(c) ? ["zoning", "permits"] : [])]);
    for (const p of places) count(p, ["zoning", "permits"]);
    return { people, rows: tally, top: { counties: counties.length, places: places.length, rows: topRows } };
  } finally {
    db.close();
  }
}

export function peopleCoverageTable(c: PeopleCoverage): string[] {
  const pct = (a: number, n: number) => (n ? `${((100 * a) / n).toFixed(1)} %` : "–");
  const lines = [
    `| function | people whose answer names the office | … and links that office's own page | largest ${c.top.counties} counties and ${c.top.places} places: office named | … own page linked |`,
    `|---|---|---|---|---|`,
  ];
  for (const r of c.rows) {
    const t = c.top.rows.find((x) => x.fn === r.fn)!;
    lines.push(
      `| ${r.fn} | ${pct(r.named, c.people)} | ${pct(r.linked, c.people)} | ${t.n ? `${pct(t.named, t.n)} of ${t.n}` : "–"} | ${t.n ? `${pct(t.linked, t.n)} of ${t.n}` : "–"} |`,
    );
  }
  lines.push(
    ``,
    `People: ${c.people.toLocaleString("en-US")} (the Census permit survey's population figures, each counted once where it lives; scripts/build/coverage-people.ts). tax_collection's own page counts only when the first link is a property-tax payment page.`,
  );
  return lines;
}

if (import.meta.main) {
  const c = measurePeopleCoverage(process.argv[2] ?? "directory.sqlite");
  if (!c) console.log("no permit survey in this data file");
  else for (const l of peopleCoverageTable(c)) console.log(l);
}
