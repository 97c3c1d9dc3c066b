// Coverage of the built data file, per function, measured through the same domain code that answers requests:
//   counties: the 3,144 counties (and equivalents) of the 50 states and DC, each resolved by its jurisdiction_id;
//             where the state rule puts a job at town or city level, the county counts when the answer of EVERY
//             county subdivision held for it names a body (office, link) — no town held, no count;
//   larger places: no population is held in the data file, so "places over 50,000 people" is approximated by
//             incorporated places whose held boundary covers at least 50 km² (geodesic area, mod_spatialite).
// A function "has a named body" when jurisdiction_id is not null, "a named office" when office_name is not null,
// "an official link" when its office has a URL or one of its resources is official.
import { Database } from "bun:sqlite";
import { townLevelState } from "../../src/directory/town-at-point";
import { Directory } from "../../src/directory/directory";
import { contentFromStore } from "../../src/directory/content";
import { pageLinksFor } from "../../src/domain/page-links";
import { FUNCTIONS } from "../../src/domain/vocabulary";

const STATES_AND_DC = (fips: string) => Number(fips) <= 56; // 01–56: the 50 states and DC (territories are 60+)
const PLACE_MIN_AREA_M2 = 50e6;

type Entry = {
  jurisdiction_id: string | null;
  office_name: string | null;
  office: { url: string | null } | null;
  resources: { official: boolean }[];
} | null;
interface Tally {
  n: number;
  body: number;
  office: number;
  link: number;
}
const hasLink = (e: Entry) => !!e && (!!e.office?.url || e.resources.some((r) => r.official));

export interface Coverage {
  counties: number;
  places: number;
  rows: { fn: string; county: Tally; place: Tally }[];
  homePages: { counties: number; places: number };
  /** counties of states where a job falls to towns or townships: their town named from the data file's own
   *  boundaries, or only from a loaded county-subdivision file or the online Census service (src/lookups/towns) */
  towns: { builtIn: number; outside: number; outsideStates: string[] };
}

export function measureCoverage(file: string): Coverage {
  const db = new Database(file, { readonly: true });
  const dir = new Directory(db, contentFromStore(db), pageLinksFor("http://localhost/v1"));
  const ids = (sql: string) =>
    db
      .query<{ id: string }, []>(sql)
      .all()
      .map((r) => r.id);
  const counties = ids(
    "SELECT jurisdiction_id AS id FROM jurisdictions WHERE type = 'county' AND documented = 1 ORDER BY 1",
  ).filter((id) => STATES_AND_DC(id.slice(7, 9)));
  const cousubsOf = new Map<string, string[]>();
  for (const r of db
    .query<{ id: string; c: string }, []>(
      "SELECT jurisdiction_id AS id, county_id AS c FROM jurisdictions WHERE type = 'cousub' AND geom IS NOT NULL AND county_id IS NOT NULL AND documented = 1",
    )
    .all()) {
    const l = cousubsOf.get(r.c);
    if (l) l.push(r.id);
    else cousubsOf.set(r.c, [r.id]);
  }
  let places: string[] = [];
  try {
    db.loadExtension("mod_spatialite");
    places =
      ids(`SELECT jurisdiction_id AS id FROM jurisdictions WHERE type = 'place' AND incorporated = 1 AND documented = 1 AND geom IS NOT NULL
      AND CAST(substr(jurisdiction_id, 7, 2) AS INTEGER) <= 56 AND ST_Area(geom, 1) >= ${PLACE_MIN_AREA_M2} ORDER BY 1`);
  } catch {
    /* without mod_spatialite the places half is left empty */
  }
  const functionsOf = (id: string) => dir.resolveId(id).data.functions as Record<string, Entry>;
  const rows = FUNCTIONS.map((fn) => ({
    fn,
    county: { n: 0, body: 0, office: 0, link: 0 },
    place: { n: 0, body: 0, office: 0, link: 0 },
  }));
  const add = (t: Tally, ok: [boolean, boolean, boolean]) => {
    t.n++;
    if (ok[0]) t.body++;
    if (ok[1]) t.office++;
    if (ok[2]) t.link++;
  };
  const judge = (e: Entry): [boolean, boolean, boolean] => [!!e?.jurisdiction_id, !!e?.office_name, hasLink(e)];
  for (const id of counties) {
    const f = functionsOf(id);
    const towns = cousubsOf.get(id) ?? [];
    const townFns = towns.length ? towns.map(functionsOf) : [];
    for (const row of rows) {
      const e = f[row.fn] ?? null;
      if (e?.jurisdiction_id || !townFns.length) {
        add(row.county, judge(e));
        continue;
      }
      const all = townFns.map((tf) => judge(tf[row.fn] ?? null));
      add(row.county, [all.every((x) => x[0]), all.every((x) => x[1]), all.every((x) => x[2])]);
    }
  }
  for (const id of places) {
    const f = functionsOf(id);
    for (const row of rows) add(row.place, judge(f[row.fn] ?? null));
  }
  const home = (list: string[]) => {
    const q = db.query<{ n: number }, [string]>(
      "SELECT count(*) AS n FROM resources WHERE jurisdiction_id = ? AND documented = 1 AND official = 1 AND topics LIKE '%property_records_general%'",
    );
    return list.filter((id) => q.get(id)!.n > 0).length;
  };
  const out = {
    counties: counties.length,
    places: places.length,
    rows,
    homePages: { counties: home(counties), places: home(places) },
    towns: townCounties(dir, counties),
  };
  db.close();
  return out;
}

function townCounties(dir: Directory, counties: string[]): Coverage["towns"] {
  const withTowns = dir.index.cousubStates();
  const records = new Set(dir.store.cousubRecordStates()); // states whose towns or townships are governments
  const out = { builtIn: 0, outside: 0, outsideStates: new Set<string>() };
  for (const id of counties) {
    const st = dir.store.jurisdiction(`state:${id.slice(7, 9)}`)?.state;
    if (!st || !records.has(id.slice(7, 9)) || !townLevelState(dir.content, st)) continue;
    if (withTowns.has(id.slice(7, 9))) out.builtIn++;
    else {
      out.outside++;
      out.outsideStates.add(st);
    }
  }
  return { builtIn: out.builtIn, outside: out.outside, outsideStates: [...out.outsideStates].sort() };
}

export function coverageTable(c: Coverage): string[] {
  const pct = (a: number, n: number) => (n ? `${a} (${Math.round((100 * a) / n)}%)` : "0");
  const lines = [
    `| function | counties with a named body | with a named office | with an official link | larger places with a named body | with a named office | with an official link |`,
    `|---|---|---|---|---|---|---|`,
  ];
  for (const r of c.rows) {
    lines.push(
      `| ${r.fn} | ${pct(r.county.body, c.counties)} | ${pct(r.county.office, c.counties)} | ${pct(r.county.link, c.counties)} | ${pct(r.place.body, c.places)} | ${pct(r.place.office, c.places)} | ${pct(r.place.link, c.places)} |`,
    );
  }
  lines.push(
    `| official home page | ${pct(c.homePages.counties, c.counties)} | | | ${pct(c.homePages.places, c.places)} | | |`,
  );
  lines.push(
    ``,
    `Counties: ${c.counties} (50 states and DC). Larger places: ${c.places} incorporated places with at least 50 km² of land and water inside their held boundary (no population is held).`,
    `Counties where a job falls to towns or townships: ${c.towns.builtIn} name the town from the data file's own boundaries; ${c.towns.outside} (${c.towns.outsideStates.join(", ")}) only from a loaded county-subdivision file (\`load-boundaries\`) or the Census Bureau's online service (config \`towns\`), whose polygons are kept in the layers file.`,
  );
  return lines;
}

if (import.meta.main) {
  const file = process.argv[2] ?? "directory.sqlite";
  for (const l of coverageTable(measureCoverage(file))) console.log(l);
}
