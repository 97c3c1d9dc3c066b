// `directory load-parcels --county county:NNNNN --mapping FILE.yaml INPUT [--store FILE]`: one county's parcels
// into the parcel store (config parcels.file), with progress and a summary.
import type { Config } from "../config/config";
import { loadParcels, summaryLines } from "../parcels/load";

export async function runLoadParcels(
  cfg: Config,
  args: string[],
  flag: (a: string[], n: string) => string | undefined,
): Promise<number> {
  const county = flag(args, "county"),
    mapping = flag(args, "mapping");
  const valued = new Set(["--county", "--mapping", "--store", "--config"]);
  const input = args.find((a, i) => !a.startsWith("--") && !valued.has(args[i - 1] ?? ""));
  if (!county || !mapping || !input) {
    console.error(
      "usage: directory load-parcels --county county:NNNNN --mapping FILE.yaml [--store FILE] INPUT(.csv|.geojson|.gpkg|.shp)",
    );
    return 2;
  }
  const store = flag(args, "store") ?? cfg.parcels.file;
  const t0 = performance.now();
  const s = await loadParcels({ county, mappingFile: mapping, input, store });
  for (const l of summaryLines(s)) console.log(l);
  console.log(`  into ${store} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return 0;
}
