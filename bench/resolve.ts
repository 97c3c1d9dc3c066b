// bench/resolve.ts: (1) point lookups per second in-process (boundary index alone, and the whole resolve answer
// with functions) over random points inside covered states; (2) HTTP throughput of resolve-by-point as a ratio
// to a bare Bun.serve hello world, measured in the same run with the same load generator.
//   bun bench/resolve.ts [data file] [seconds per HTTP run]
import { Database } from "bun:sqlite";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { Directory } from "../src/directory/directory";
import { contentFromStore } from "../src/directory/content";
import { pageLinksFor } from "../src/domain/page-links";
import { load, unlimitedEnv, waitReady } from "./load";
import { resolvablePoints } from "./points";

const root = join(import.meta.dir, "..");
const data = process.argv[2] ?? join(root, "directory.sqlite");
const seconds = Number(process.argv[3] ?? 5);
if (!existsSync(data)) {
  console.error(`no data file at ${data}; build one with: npx bun run build-data`);
  process.exit(2);
}

const db = new Database(data, { readonly: true });
const t0 = performance.now();
const dir = new Directory(db, contentFromStore(db), pageLinksFor("http://127.0.0.1/v1"));
console.log(
  `load: ${(performance.now() - t0).toFixed(0)} ms, RSS ${(process.memoryUsage().rss / 1048576).toFixed(0)} MB`,
);

const points = resolvablePoints(data, 20000, 20261122);

function rate(label: string, fn: (p: [number, number]) => unknown, n: number) {
  for (let i = 0; i < 2000; i++) fn(points[i % points.length]!);
  const t = performance.now();
  for (let i = 0; i < n; i++) fn(points[i % points.length]!);
  const r = n / ((performance.now() - t) / 1000);
  console.log(`${label.padEnd(40)} ${r.toFixed(0).padStart(10)} /s`);
  return r;
}
rate("in-process boundary lookups", (p) => dir.index.lookup(p[0], p[1]), 400_000);
rate("in-process resolve answers (chain+functions)", (p) => dir.resolvePoint(p[0], p[1]), 40_000);
db.close();

const bun = process.execPath;
async function measure(label: string, cmd: string[], env: Record<string, string>, urls: string[]) {
  const p = Bun.spawn(cmd, { cwd: root, env, stdout: "ignore", stderr: "inherit" });
  try {
    await waitReady(urls[0]!, 60000);
    await load(urls, 1);
    const r = await load(urls, seconds);
    console.log(`${label.padEnd(40)} ${r.rps.toFixed(0).padStart(10)} req/s (${r.n} requests, ${r.errors} non-200)`);
    return r.rps;
  } finally {
    p.kill();
    await p.exited;
  }
}
const p1 = 33000 + Math.floor(Math.random() * 1000),
  p2 = p1 + 1000;
const bare = await measure(
  "HTTP bare Bun.serve",
  [bun, join(root, "bench/bare-server.ts"), String(p1)],
  { PATH: process.env.PATH ?? "" },
  [`http://127.0.0.1:${p1}/`],
);
const urls = points
  .slice(0, 2000)
  .map(([lon, lat]) => `http://127.0.0.1:${p2}/v1/jurisdictions/resolve?lat=${lat.toFixed(5)}&lon=${lon.toFixed(5)}`);
const app = await measure(
  "HTTP GET /v1/jurisdictions/resolve?lat&lon",
  [bun, join(root, "src/cli/main.ts"), "serve", "--data", data, "--port", String(p2)],
  unlimitedEnv(p2),
  urls,
);
console.log(`ratio resolve-by-point : bare = ${(app / bare).toFixed(3)}`);
