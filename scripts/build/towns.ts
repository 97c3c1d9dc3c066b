// Town (county subdivision) boundaries for Connecticut, Massachusetts, Maine, New Hampshire, Rhode Island and New
// Jersey (../shared/data/cousub/, SOURCES.md "New England and New Jersey towns"). Each file's caveats:
// - CT: Census cb 2020 GEOIDs carry the old county codes 001-015 (kept: they are the OCD ids); county_id is the
//   2022 planning region found by ctRegions() below.
// - MA: 5 towns became "Town city" in 2020 with new codes (Amherst, Bridgewater, Framingham, North Attleborough,
//   Randolph): the new code is added and made same_as the OCD record of the old code (same county, same base name).
//   Maine's Sanford (town -> city, 2013) is the same case.
// - NH: derived GEOIDs; each is checked against the crosswalk TSV; the 3 grants without a GEOID are rejected.
// - RI: 1997 RIGIS geometry (coastline differs from TIGER), GEOIDs joined by name.
// - NJ: the GEOID is the `census2010` field (Princeton carries its post-2013 code 3402160900).
// Every feature is matched to the existing cousub record by GEOID; a GEOID the OCD list lacks becomes a new record
// whose source is the file (cities and boroughs that OCD lists only as places; Maine unorganized territories and
// reservations; Coos County NH unincorporated places). A new record that is the same government as an incorporated
// place (same code and base name, or else the only place of that base name in the state) is made same_as it.
import type { Inputs } from "./inputs";
import { parseCsv } from "./csv";
import { baseName, legalWord } from "./legal";
import { BoxIndex, bboxOf, pointInGeometry, type Geometry } from "./geom";
import { CT_REGION_OLD_COUNTIES } from "./radon";
import { newRow, offerBoundary, type JRow, type Stats } from "./model";

type Props = Record<string, any>;
interface TownFile {
  source: string;
  state: string;
  fips: string;
  vintage: string;
  geoid: (p: Props) => string | null;
  name: (p: Props) => string;
  legal: (p: Props) => string | null;
  funcstat?: (p: Props) => string | null;
}

const ME_LSAD: Record<string, string> = {
  "25": "city",
  "43": "town",
  "39": "plantation",
  "46": "unorganized territory",
  "31": "gore",
  "86": "reservation",
};

export const TOWN_FILES: TownFile[] = [
  {
    source: "census-cb2020-ct-towns",
    state: "CT",
    fips: "09",
    vintage: "2020",
    geoid: (p) => p.GEOID,
    name: (p) => p.name,
    legal: (p) => legalWord(p.name),
  },
  {
    source: "massgis-ma-towns-2020",
    state: "MA",
    fips: "25",
    vintage: "2020",
    geoid: (p) => p.GEOID20,
    name: (p) => p.NAMELSAD20,
    legal: (p) => legalWord(p.NAMELSAD20),
    funcstat: (p) => p.FUNCSTAT20 ?? null,
  },
  {
    source: "census-tiger-2019-me-cousub",
    state: "ME",
    fips: "23",
    vintage: "2019",
    geoid: (p) => p.GEOID,
    name: (p) => p.NAMELSAD,
    legal: (p) => ME_LSAD[p.LSAD] ?? legalWord(p.NAMELSAD),
    funcstat: (p) => p.FUNCSTAT ?? null,
  },
  // the 21 Coos County places coded from the precinct-cleaning script are unincorporated (grants, purchases,
  // locations, unorganized townships): no town government, so FUNCSTAT N (nonfunctioning) as Census codes them
  {
    source: "mggg-nh-towns-2020-derived",
    state: "NH",
    fips: "33",
    vintage: "2020",
    geoid: (p) => p.GEOID,
    name: (p) => p.TOWN,
    legal: (p) => legalWord(p.TOWN),
    funcstat: (p) => (p.GEOID_METHOD === "medsl_coos" ? "N" : null),
  },
  {
    source: "rigis-ri-municipalities-1997",
    state: "RI",
    fips: "44",
    vintage: "1997",
    geoid: (p) => p.GEOID,
    name: (p) => p.NAMELSAD_CENSUS ?? p.NAME,
    legal: (p) => legalWord(p.NAMELSAD_CENSUS ?? ""),
  },
  {
    source: "njogis-nj-municipalities-2021",
    state: "NJ",
    fips: "34",
    vintage: "2021",
    geoid: (p) => p.census2010,
    name: (p) => p.name,
    legal: (p) => legalWord(String(p.mun_type ?? "")),
  },
];
export const NH_CROSSWALK = "mggg-nh-towns-geoid-crosswalk";

/** Base name for twin matching: legal words stripped until none is left, the word "and" / "&" dropped (so
 * "Peapack-Gladstone" = "Peapack and Gladstone"), letters and digits only. */
export const townKey = (name: string) => {
  let n = name,
    prev = "";
  while (n !== prev) {
    prev = n;
    n = baseName(n);
  }
  return n
    .toLowerCase()
    .replace(/&|\band\b/g, " ")
    .replace(/[^a-z0-9]/g, "");
};

export interface TownsResult {
  pairs: [string, string, string][];
  perState: Record<string, { read: number; matched: number; added: number; rejected: Record<string, number> }>;
}

export async function loadTowns(inputs: Inputs, rows: Map<string, JRow>, stats: Stats): Promise<TownsResult> {
  const out: TownsResult = { pairs: [], perState: {} };
  const nhWant = inputs.has(NH_CROSSWALK)
    ? new Map(parseCsv(await inputs.text(NH_CROSSWALK), "\t").map((r) => [`${r.TOWN}|${r.COUNTYFP}`, r.GEOID ?? ""]))
    : null;
  for (const tf of TOWN_FILES) {
    if (!inputs.has(tf.source)) {
      stats.note(`towns ${tf.state}: ${tf.source} not present, skipped`);
      continue;
    }
    const s = { read: 0, matched: 0, added: 0, rejected: {} as Record<string, number> };
    out.perState[tf.state] = s;
    const reject = (why: string) => {
      s.rejected[why] = (s.rejected[why] ?? 0) + 1;
    };
    const added: JRow[] = [],
      seen = new Set<string>();
    for (const f of (await inputs.json(tf.source)).features) {
      s.read++;
      const p = f.properties as Props;
      const geoid = tf.geoid(p) ? String(tf.geoid(p)) : null;
      if (!geoid) {
        reject("no GEOID (New Hampshire grant the staging could not match)");
        continue;
      }
      if (!new RegExp(`^${tf.fips}\\d{8}$`).test(geoid)) {
        reject(`GEOID ${geoid} is not a 10-digit ${tf.state} county subdivision code`);
        continue;
      }
      if (nhWant && tf.state === "NH") {
        const want = nhWant.get(`${p.TOWN}|${String(p.COUNTYFP).padStart(3, "0")}`);
        if (want !== geoid) {
          reject("GEOID differs from the NH crosswalk");
          continue;
        }
      }
      if (seen.has(geoid)) {
        reject("duplicate GEOID in the file");
        continue;
      }
      seen.add(geoid);
      const id = `cousub:${geoid}`;
      let r = rows.get(id);
      if (r && r.type !== "cousub") {
        reject("id held by a record of another type");
        continue;
      }
      const isNew = !r;
      if (!r) {
        const county = `county:${geoid.slice(0, 5)}`;
        r = newRow({
          jurisdiction_id: id,
          type: "cousub",
          name: tf.name(p),
          legal_type: tf.legal(p),
          state: tf.state,
          state_fips: tf.fips,
          county_id: rows.get(county)?.type === "county" ? county : null,
          source_id: tf.source,
        });
      }
      if (!offerBoundary(r, f.geometry as Geometry, tf.source, "full")) {
        reject("boundary already held at equal or better precision");
        continue;
      }
      r.tiger_vintage = tf.vintage;
      r.funcstat = tf.funcstat?.(p) ?? r.funcstat;
      if (isNew) {
        rows.set(id, r);
        added.push(r);
        s.added++;
      } else s.matched++;
    }
    const rej = Object.entries(s.rejected)
      .map(([k, v]) => `${v} ${k}`)
      .join("; ");
    stats.note(
      `towns ${tf.state} (${tf.source}): read ${s.read}, matched to a record ${s.matched}, added ${s.added}, rejected ${rej || "0"}`,
    );
    out.pairs.push(...twins(tf, rows, added, seen, stats));
    const without = [...rows.values()]
      .filter((r) => r.type === "cousub" && r.state_fips === tf.fips && !r.geom)
      .map((r) => r.name);
    if (without.length)
      stats.note(
        `towns ${tf.state}: ${without.length} cousub record(s) with no boundary in the file: ${without.slice(0, 6).join(", ")}${without.length > 6 ? " ..." : ""}`,
      );
  }
  if (out.perState.CT) ctRegions(rows, stats);
  return out;
}

/** same_as pairs [a, b, reason] for the records a file added. */
function twins(
  tf: TownFile,
  rows: Map<string, JRow>,
  added: JRow[],
  seen: Set<string>,
  stats: Stats,
): [string, string, string][] {
  const pairs: [string, string, string][] = [];
  const placesByKey = new Map<string, JRow[]>();
  for (const r of rows.values())
    if (r.type === "place" && r.state_fips === tf.fips && r.incorporated === 1) {
      const k = townKey(r.name);
      placesByKey.set(k, [...(placesByKey.get(k) ?? []), r]);
    }
  // OCD records of the state that the file does not carry (renamed / recoded towns)
  const stale = [...rows.values()].filter(
    (r) =>
      r.type === "cousub" &&
      r.state_fips === tf.fips &&
      !seen.has(r.jurisdiction_id.slice(7)) &&
      r.source_id !== tf.source,
  );
  let byCode = 0,
    byName = 0,
    none: string[] = [],
    recoded: string[] = [];
  for (const r of added) {
    const geoid = r.jurisdiction_id.slice(7),
      key = townKey(r.name);
    const same = rows.get(`place:${tf.fips}${geoid.slice(5)}`);
    const named = placesByKey.get(key) ?? [];
    if (same && same.incorporated === 1 && townKey(same.name) === key) {
      pairs.push([r.jurisdiction_id, same.jurisdiction_id, "town cousub = place (same code and name)"]);
      byCode++;
    } else if (named.length === 1) {
      pairs.push([
        r.jurisdiction_id,
        named[0]!.jurisdiction_id,
        "town cousub = place (same name, only one in the state)",
      ]);
      byName++;
    } else none.push(r.name);
    const old = stale.filter((o) => o.jurisdiction_id.slice(7, 12) === geoid.slice(0, 5) && townKey(o.name) === key);
    if (old.length === 1) {
      pairs.push([r.jurisdiction_id, old[0]!.jurisdiction_id, "town recoded since the OCD list"]);
      recoded.push(`${old[0]!.name} ${old[0]!.jurisdiction_id.slice(7)} -> ${r.name} ${geoid}`);
    }
  }
  stats.note(
    `towns ${tf.state}: added records same_as a place: ${byCode} by code and name, ${byName} by name only; ${none.length} without a place twin${none.length ? ` (${none.slice(0, 5).join(", ")}${none.length > 5 ? " ..." : ""})` : ""}`,
  );
  if (recoded.length)
    stats.note(`towns ${tf.state}: recoded since the OCD list (same_as the old record): ${recoded.join("; ")}`);
  return pairs;
}

/** Connecticut towns -> 2022 planning region (county_id). Method: the candidate regions are those whose member
 * towns lie in the town's old county (CT_REGION_OLD_COUNTIES, from the 2022 region membership); among them, the
 * region of the 2023 atlas (1:10m) that holds most of a 9x9 grid of sample points inside the town's own polygon
 * (ties: the smaller code). A town with a single candidate region needs no geometry. */
export function ctRegions(rows: Map<string, JRow>, stats: Stats) {
  const regions = [...rows.values()].filter((r) => r.type === "county" && r.state_fips === "09" && r.geom);
  const idx = new BoxIndex<JRow>();
  for (const r of regions) idx.add(bboxOf(r.geom), r);
  let single = 0,
    unanimous = 0,
    majority: string[] = [],
    unassigned: string[] = [];
  for (const t of rows.values()) {
    if (t.type !== "cousub" || t.state_fips !== "09") continue;
    const old = t.jurisdiction_id.slice(7, 12);
    const cands = Object.entries(CT_REGION_OLD_COUNTIES)
      .filter(([, olds]) => olds.includes(old))
      .map(([c]) => `county:${c}`)
      .filter((c) => rows.has(c));
    if (cands.length === 1) {
      t.county_id = cands[0]!;
      single++;
      continue;
    }
    const votes = new Map<string, number>();
    let n = 0;
    const b = t.geom ? bboxOf(t.geom) : null;
    if (b)
      for (let i = 0; i < 9; i++)
        for (let j = 0; j < 9; j++) {
          const x = b[0] + ((i + 0.5) / 9) * (b[2] - b[0]),
            y = b[1] + ((j + 0.5) / 9) * (b[3] - b[1]);
          if (!pointInGeometry(x, y, t.geom)) continue;
          n++;
          const c = idx
            .candidates(x, y)
            .find((c) => cands.includes(c.jurisdiction_id) && pointInGeometry(x, y, c.geom));
          if (c) votes.set(c.jurisdiction_id, (votes.get(c.jurisdiction_id) ?? 0) + 1);
        }
    const best = [...votes].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0];
    if (!best) {
      t.county_id = null;
      unassigned.push(t.name);
      continue;
    }
    t.county_id = best[0];
    if (best[1] === n) unanimous++;
    else majority.push(`${t.name} ${best[0].slice(7)} ${best[1]}/${n}`);
  }
  stats.note(
    `towns CT planning regions (county_id): ${single} by old county alone, ${unanimous} by all sample points, ${majority.length} by a majority of sample points${majority.length ? ` (${majority.join(", ")})` : ""}, ${unassigned.length} unassigned${unassigned.length ? ` (${unassigned.join(", ")})` : ""}`,
  );
}
