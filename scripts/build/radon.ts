// EPA Map of Radon Zones (1993), one zone per county of the 2023 atlas.
//
// Rules for counties the 1993 table does not know:
// - Connecticut planning regions (09110-09190, used by Census since 2022): EPA zoned the 8 old counties. A
//   planning region gets the zone of the old counties its towns belong to when they all agree; otherwise
//   'not_listed' with a note naming the old counties and their zones. Old counties per region are from the
//   member towns of each region (CT OPM planning regions, 2022) and the towns' old county (OCD cousub GEOIDs).
// - Alaska areas created after 1993: the zone of the predecessor area when the predecessors have one zone,
//   otherwise 'not_listed'; the note names the predecessors.
// - Oglala Lakota SD (46102) is Shannon County (46113) renamed in 2015.
// - Every other atlas county without an EPA row (DC, territories) is 'not_listed'.
import type { Inputs } from "./inputs";
import { parseCsv } from "./csv";
import type { JRow, Stats } from "./model";

export const RADON = "epa-radon-zones-1993";
export const RADON_TABLE = "epa-radon-zones-1993-table";
export const RADON_EDITION = "EPA Map of Radon Zones, 1993";

/** Planning region -> old counties its member towns lie in. */
export const CT_REGION_OLD_COUNTIES: Record<string, string[]> = {
  "09110": ["09003", "09013"], // Capitol: Hartford + Tolland towns
  "09120": ["09001"], // Greater Bridgeport: Fairfield towns
  "09130": ["09007", "09011"], // Lower Connecticut River Valley: Middlesex + Lyme, Old Lyme
  "09140": ["09009", "09005", "09003", "09001"], // Naugatuck Valley: New Haven + Litchfield + Bristol + Shelton
  "09150": ["09015", "09013", "09011"], // Northeastern: Windham + Union + Voluntown
  "09160": ["09005", "09003"], // Northwest Hills: Litchfield + Burlington, Hartland
  "09170": ["09009"], // South Central: New Haven towns
  "09180": ["09011", "09015"], // Southeastern: New London + Windham town
  "09190": ["09001", "09005"], // Western: Fairfield + Bridgewater, New Milford
};

/** New Alaska area -> predecessor areas of the 1993 map (02232 is keyed 02230 in the FIPS table). */
export const AK_PREDECESSORS: Record<string, string[]> = {
  "02105": ["02232", "02231"],
  "02195": ["02280"],
  "02198": ["02201", "02280"],
  "02275": ["02280"],
  "02063": ["02261"],
  "02066": ["02261"],
  "02158": ["02270"],
  "46102": ["46113"],
};

export interface RadonRow {
  county_id: string;
  zone: string;
  edition: string;
  note: string | null;
  source_id: string;
}

export async function buildRadon(inputs: Inputs, rows: Map<string, JRow>, stats: Stats): Promise<RadonRow[]> {
  if (!inputs.has(RADON)) {
    stats.note("radon: file not present, skipped");
    return [];
  }
  const st = stats.layer("epa radon zones by county FIPS");
  const zone = new Map<string, number>();
  const name = new Map<string, string>();
  for (const r of parseCsv(await inputs.text(RADON))) {
    st.read();
    const z = Number(r.epa_zone);
    if (![1, 2, 3].includes(z)) {
      st.reject("no zone");
      continue;
    }
    zone.set(r.fips, z);
    name.set(r.fips, `${r.county_name}, ${r.state_abbr}`);
    st.kept();
  }
  st.done();
  // 02232 Skagway-Hoonah-Angoon is keyed 02230 in the FIPS table; 02280 and 02201 are only in the published table.
  if (zone.has("02230")) {
    zone.set("02232", zone.get("02230")!);
    name.set("02232", "Skagway-Hoonah-Angoon, AK");
  }
  if (inputs.has(RADON_TABLE)) {
    const t = stats.layer("epa radon published table (old Alaska areas only)");
    const want: Record<string, string> = {
      "Wrangell-Petersburg, AK": "02280",
      "Prince of Wales-Outer Ketchikan, AK": "02201",
    };
    for (const r of parseCsv(await inputs.text(RADON_TABLE), "\t")) {
      t.read();
      const fips = want[r["County,State"]];
      if (!fips) {
        t.reject("not needed");
        continue;
      }
      zone.set(fips, Number(r.Zone));
      name.set(fips, r["County,State"]);
      t.kept();
    }
    t.done();
  }
  const out: RadonRow[] = [];
  const counts: Record<string, number> = {};
  const derived = stats.layer("radon zones per atlas county");
  const counties = [...rows.values()]
    .filter((r) => r.type === "county")
    .map((r) => r.jurisdiction_id.slice(7))
    .sort();
  let ruled = 0;
  for (const fips of counties) {
    derived.read();
    let z: string,
      note: string | null = null;
    if (zone.has(fips)) z = `zone_${zone.get(fips)}`;
    else if (CT_REGION_OLD_COUNTIES[fips]) {
      const olds = CT_REGION_OLD_COUNTIES[fips];
      const zs = new Set(olds.map((o) => zone.get(o)));
      const list = olds.map((o) => `${name.get(o) ?? o} zone ${zone.get(o) ?? "?"}`).join("; ");
      if (zs.size === 1 && !zs.has(undefined)) {
        z = `zone_${[...zs][0]}`;
        note = `Connecticut planning region (2022): EPA zoned the old counties; all old counties of its towns agree (${list}).`;
      } else {
        z = "not_listed";
        note = `Connecticut planning region (2022): EPA zoned the old counties and those of its towns differ (${list}); check the town's old county.`;
      }
    } else if (AK_PREDECESSORS[fips]) {
      const preds = AK_PREDECESSORS[fips].filter((p) => zone.has(p));
      const zs = new Set(preds.map((p) => zone.get(p)));
      const list = preds.map((p) => `${name.get(p)} (${p}) zone ${zone.get(p)}`).join("; ");
      if (zs.size === 1) {
        z = `zone_${[...zs][0]}`;
        note = `Area created or renamed after 1993; zone of its predecessor: ${list}.`;
      } else {
        z = "not_listed";
        note = `Area created after 1993; predecessors ${list || "unknown"} do not give one zone.`;
      }
    } else z = "not_listed";
    counts[z] = (counts[z] ?? 0) + 1;
    if (note) ruled++;
    out.push({ county_id: `county:${fips}`, zone: z, edition: RADON_EDITION, note, source_id: RADON });
    derived.kept();
  }
  derived.done();
  stats.note(`radon zones derived by the Connecticut / Alaska rules: ${ruled}`);
  stats.note(
    `radon zone counts: ${Object.entries(counts)
      .sort()
      .map(([k, v]) => `${k} ${v}`)
      .join(", ")}`,
  );
  return out;
}
