// The staged parcel inputs (../shared/data/parcels, see its SOURCES.md) and the mapping of each, shipped in
// data/parcels/. `npx bun run start` loads them into parcels.sqlite when it is missing; tests load them too.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { loadParcels, summaryLines, type LoadSummary } from "./load";
import { createEmptyStore } from "./schema";

export const STAGED = [
  {
    county: "county:53033",
    mapping: "king-county-wa-53033.yaml",
    input: "parcels/king_county_wa_house_sales_2014_2015.csv",
  },
  {
    county: "county:39095",
    mapping: "lucas-county-oh-39095.yaml",
    input: "parcels/house_lucas_county_oh_1993_1998.csv",
  },
  {
    county: "county:21067",
    mapping: "lexington-fayette-ky-21067.yaml",
    input: "parcels/lexington_fayette_ky_parcels_sample.geojson",
  },
  // the City of Cambridge's roll: polygons joined to the assessor's table named in the mapping (beside them)
  {
    county: "county:25017",
    mapping: "cambridge-ma-25017.yaml",
    input: "cambridge-ma/assessing_ParcelsFY2014.topojson",
  },
];

/** Load every staged input found under `sharedData` into `store`; with none, an empty store (no_data everywhere). */
export async function loadStaged(o: {
  projectRoot: string;
  sharedData: string;
  store: string;
  progress?: boolean;
  log?: (s: string) => void;
}): Promise<LoadSummary[]> {
  const log = o.log ?? ((s: string) => console.log(s));
  const found = STAGED.filter((s) => existsSync(join(o.sharedData, s.input)));
  if (!found.length) {
    createEmptyStore(o.store);
    log(
      `no staged parcel inputs in ${join(o.sharedData, "parcels")}: serving with no parcel data (county-data answers no_data; load a county with \`directory load-parcels\`)`,
    );
    return [];
  }
  const out: LoadSummary[] = [];
  for (const s of found) {
    const sum = await loadParcels({
      county: s.county,
      mappingFile: join(o.projectRoot, "data/parcels", s.mapping),
      input: join(o.sharedData, s.input),
      store: o.store,
      progress: o.progress,
      log: o.log,
    });
    for (const l of summaryLines(sum)) log(l);
    out.push(sum);
  }
  return out;
}
