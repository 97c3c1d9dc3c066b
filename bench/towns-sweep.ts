// Town lookups saved by kept polygons: N random points inside Vermont's box, asked of the town finder backed by a
// loopback TIGERweb double serving the staged Vermont towns (246 real polygons, ../shared/data/cousub/); prints the
// outside calls made and saved, against the baseline of one call per point (no keeping).
// npx bun bench/towns-sweep.ts [--points 1000] [--seed 1]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TownFinder } from "../src/lookups/towns/finder";
import { TownStore } from "../src/lookups/towns/store";
import { stagedTowns, startTigerweb } from "../test/doubles/tigerweb";

const arg = (n: string, d: number) => {
  const i = process.argv.indexOf(`--${n}`);
  return i >= 0 ? Number(process.argv[i + 1]) : d;
};
const N = arg("points", 1000);
let seed = arg("seed", 1);
const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const towns = stagedTowns(
  join(import.meta.dir, "../../shared/data/cousub/vt_cousub_2010_towns.geojson"),
  (p) => p.GEOID10,
  (p) => p.NAMELSAD10,
);
const d = startTigerweb(towns);
const dir = mkdtempSync(join(tmpdir(), "towns-sweep-"));
const store = new TownStore(join(dir, "layers.sqlite"));
const f = new TownFinder({
  store,
  service: { enabled: true, base_url: d.url, timeout_ms: 5000, max_bytes: 4 * 1024 * 1024 },
  takeLookup: () => ({ ok: true, retryAfter: 0 }),
});
let hits = 0,
  kept = 0;
const t0 = performance.now();
for (let i = 0; i < N; i++) {
  const r = await f.find(-73.44 + rnd() * 1.57, 42.73 + rnd() * 2.29, "50");
  if ("hit" in r) {
    hits++;
    if (r.hit.kept) kept++;
  }
}
const ms = performance.now() - t0;
console.log(
  `towns sweep: ${N} random points in Vermont's box, ${towns.length} staged town polygons; ${hits} in a town`,
);
console.log(
  `  outside calls ${d.calls} (baseline without keeping: ${N}); saved ${N - d.calls} (${((100 * (N - d.calls)) / N).toFixed(1)} %); answered from kept polygons ${kept}; ${(ms / N).toFixed(2)} ms a point`,
);
d.stop();
store.close();
rmSync(dir, { recursive: true, force: true });
