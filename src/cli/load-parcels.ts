// `directory load-parcels --county county:NNNNN --mapping FILE.yaml INPUT [--join TABLE] [--store FILE | --into URL]`:
// one county's parcels (with the table the mapping joins to its shapes) into the parcel store (config
// parcels.file), or with --into into a PostgreSQL/PostGIS database (served with parcels.source), with progress and
// a summary.
import type { Config } from "../config/config";
import { loadParcels, summaryLines } from "../parcels/load";
import { safeUrl } from "../domain/safe-url";
import { commandNamed, str, usageOf, type Parsed } from "./commands";

export async function runLoadParcels(cfg: Config, p: Parsed): Promise<number> {
  const county = str(p.values.county),
    mapping = str(p.values.mapping),
    input = p.positionals[0];
  if (!county || !mapping || !input) {
    console.error(
      `error: load-parcels: needs --county, --mapping and INPUT\n${usageOf(commandNamed("load-parcels")!)}`,
    );
    return 2;
  }
  const store = str(p.values.store) ?? cfg.parcels.file;
  const into = str(p.values.into);
  if (into && str(p.values.store)) {
    console.error("error: load-parcels: give --store FILE or --into URL, not both");
    return 2;
  }
  const t0 = performance.now();
  const s = await loadParcels({ county, mappingFile: mapping, input, store, into, join: str(p.values.join) });
  for (const l of summaryLines(s)) console.log(l);
  console.log(`  into ${into ? safeUrl(into) : store} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return 0;
}
