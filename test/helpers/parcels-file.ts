// The parcel store for tests: the three staged inputs (../shared/data/parcels) loaded once per test process
// into a temp file with the mappings shipped in data/parcels/.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadParcels, type LoadSummary } from "../../src/parcels/load";
import { ROOT } from "./app";
import { SHARED_DATA } from "./data-file";

export const STAGED = [
  { county: "county:53033", mapping: "king-county-wa-53033.yaml", input: "king_county_wa_house_sales_2014_2015.csv" },
  { county: "county:39095", mapping: "lucas-county-oh-39095.yaml", input: "house_lucas_county_oh_1993_1998.csv" },
  { county: "county:21067", mapping: "lexington-fayette-ky-21067.yaml", input: "lexington_fayette_ky_parcels_sample.geojson" },
];

let built: Promise<{ path: string; summaries: LoadSummary[]; log: string[] }> | null = null;

export function stagedParcelsFile() {
  built ??= (async () => {
    const path = join(mkdtempSync(join(tmpdir(), "parcels-test-")), "parcels.sqlite");
    const summaries: LoadSummary[] = [];
    const log: string[] = [];
    for (const s of STAGED) {
      summaries.push(await loadParcels({ county: s.county, mappingFile: join(ROOT, "data/parcels", s.mapping), input: join(SHARED_DATA, "parcels", s.input), store: path, progress: false, log: (l) => log.push(l) }));
    }
    return { path, summaries, log };
  })();
  return built;
}
