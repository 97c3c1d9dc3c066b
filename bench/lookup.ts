// Point -> jurisdiction lookup benchmark on the real data file.
//
//   bun bench/lookup.ts [path/to/directory.sqlite] [--n=200000] [--seed=1] [--cell=0.25] [--in=state|place]
//
// Path: argv, else $BENCH_DB, else ./directory.sqlite. Points: a state picked uniformly (seeded mulberry32), a
// point uniform in that state's bbox, retried until the index resolves it (so every measured lookup hits data).
// --in=place draws from place bboxes instead (city-heavy traffic, more boundary work).
// Prints load time, heap / RSS after load, lookups/s, and a baseline (top-grid cell ids only) with the ratio.
import { Database } from "bun:sqlite";
import { existsSync } from "node:fs";
import { BoundaryIndex } from "../src/directory/boundaries";

const args = process.argv.slice(2);
const opt = (name: string, def: number) => {
  const a = args.find((x) => x.startsWith(`--${name}=`));
  return a ? Number(a.slice(name.length + 3)) : def;
};
const path = args.find((a) => !a.startsWith("--")) ?? process.env.BENCH_DB ?? "./directory.sqlite";
const N = opt("n", 200_000);
const seed = opt("seed", 1);
const cellSize = opt("cell", 0.25);
const boxType = args.includes("--in=place") ? "place" : "state";
if (!existsSync(path)) {
  console.error(`bench/lookup: data file not found: ${path}`);
  process.exit(2);
}

function mulberry32(s: number) {
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const mb = (b: number) => `${(b / 1048576).toFixed(1)} MB`;

Bun.gc(true);
const mem0 = process.memoryUsage();
const db = new Database(path, { readonly: true });
const t0 = performance.now();
const idx = BoundaryIndex.fromDatabase(db, { cellSize });
const loadMs = performance.now() - t0;
db.close();
Bun.gc(true);
const mem1 = process.memoryUsage();
const st = idx.stats();
console.log(`data file        ${path}`);
console.log(`load             ${loadMs.toFixed(0)} ms`);
console.log(
  `features         ${st.features} (state ${st.featuresByType.state}, county ${st.featuresByType.county}, cousub ${st.featuresByType.cousub}, place ${st.featuresByType.place})`,
);
console.log(
  `polygons         ${st.polygons}, vertices ${st.vertices}, band entries ${st.bandEntries}, sub-grid cells ${st.gridCells}`,
);
console.log(`top grid         ${st.topCells} cells of ${cellSize} deg, ${st.topEntries} entries`);
console.log(`typed arrays     ${mb(st.typedArrayBytes)}`);
console.log(
  `heap after load  ${mb(mem1.heapUsed)} (before ${mb(mem0.heapUsed)}), RSS ${mb(mem1.rss)} (before ${mb(mem0.rss)})`,
);

// ---- points
const rnd = mulberry32(seed);
const boxes = idx.featureBoxes(boxType);
const xs = new Float64Array(N);
const ys = new Float64Array(N);
let tries = 0;
for (let i = 0; i < N;) {
  const [, x0, y0, x1, y1] = boxes[Math.floor(rnd() * boxes.length)]!;
  for (let k = 0; k < 200; k++) {
    const x = x0 + rnd() * (x1 - x0);
    const y = y0 + rnd() * (y1 - y0);
    tries++;
    if (idx.lookup(x, y) !== null) {
      xs[i] = x;
      ys[i] = y;
      i++;
      break;
    }
  }
}
console.log(`points           ${N} resolved points (${tries} drawn), seed ${seed}, ${boxes.length} ${boxType} boxes`);

// ---- measure
let sink = 0;
function runLookups(): number {
  const t = performance.now();
  for (let i = 0; i < N; i++) {
    const c = idx.lookup(xs[i]!, ys[i]!);
    if (c !== null && c.place !== null) sink++;
  }
  return performance.now() - t;
}
function runBaseline(): number {
  const t = performance.now();
  for (let i = 0; i < N; i++) sink += idx.cellOf(xs[i]!, ys[i]!) & 1;
  return performance.now() - t;
}
runLookups();
runBaseline();
const lk: number[] = [];
const bl: number[] = [];
for (let r = 0; r < 5; r++) {
  lk.push(runLookups());
  bl.push(runBaseline());
}
const median = (a: number[]): number => [...a].sort((p, q) => p - q)[a.length >> 1]!;
const lkMs = median(lk);
const blMs = median(bl);
let counts = { cousub: 0, place: 0, county: 0 };
for (let i = 0; i < N; i++) {
  const c = idx.lookup(xs[i]!, ys[i]!)!;
  if (c.cousub) counts.cousub++;
  if (c.place) counts.place++;
  if (c.county) counts.county++;
}
console.log(`answers          cousub ${counts.cousub}, place ${counts.place}, county ${counts.county} of ${N}`);
console.log(
  `lookups/s        ${Math.round((N / lkMs) * 1000).toLocaleString("en-US")} (median of 5 runs, ${((lkMs * 1000) / N).toFixed(2)} us/lookup)`,
);
console.log(
  `baseline/s       ${Math.round((N / blMs) * 1000).toLocaleString("en-US")} (cell id only, ${((blMs * 1000) / N).toFixed(3)} us/point)`,
);
console.log(`ratio            lookup costs ${(lkMs / blMs).toFixed(1)}x the baseline`);
if (sink === -1) console.log("");
