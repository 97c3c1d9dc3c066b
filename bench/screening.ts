// bench/screening.ts: (1) with every screening double answering after 100 ms, the median time of a fresh
// /v1/screening answer (all outside calls run in parallel: the target is ≤ 1.3 × 100 ms); (2) the throughput of
// cached screening answers as a ratio to resolve-by-point, same points, same server, same load generator, same run.
//   bun bench/screening.ts [data file] [seconds per HTTP run]
// The appliance runs in its own process; the doubles run here, on 127.0.0.1 only.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { startScreeningDoubles, screeningConfigFor } from "../test/doubles/screening-services";
import { load, unlimitedEnv, waitReady } from "./load";

const root = join(import.meta.dir, "..");
const data = process.argv[2] ?? join(root, "directory.sqlite");
const seconds = Number(process.argv[3] ?? 5);
const DELAY = 100;
if (!existsSync(data)) {
  console.error(`no data file at ${data}; build one with: npx bun run build-data`);
  process.exit(2);
}

const d = startScreeningDoubles();
const sc = screeningConfigFor(d, 2000);
const env = unlimitedEnv(0);
const port = 35000 + Math.floor(Math.random() * 1000);
Object.assign(env, unlimitedEnv(port), {
  DIRECTORY_LAYERS_FILE: "/nonexistent/layers.sqlite",
  DIRECTORY_LIMITS__LOOKUP__PER_MINUTE: "1000000000",
  DIRECTORY_LIMITS__LOOKUP__PER_DAY: "1000000000",
  DIRECTORY_SCREENING__MAX_CONCURRENT: "100000",
  DIRECTORY_SCREENING__CACHE_ENTRIES: "200000",
});
for (const s of ["flood", "wetlands", "soils", "elevation", "shoreland"] as const) {
  env[`DIRECTORY_SCREENING__${s.toUpperCase()}__BASE_URL`] = (sc as any)[s].base_url;
  env[`DIRECTORY_SCREENING__${s.toUpperCase()}__ENABLED`] = "true";
}
env.DIRECTORY_SCREENING__SHORELAND__WATERCOURSES_URL = sc.shoreland.watercourses_url;

let s = 20261122;
const rnd = () => {
  s = (s + 0x6d2b79f5) | 0;
  let t = Math.imul(s ^ (s >>> 15), 1 | s);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
// points well inside Minnesota (every fact, shoreland included, is asked; elevation known, so every fact caches)
const points = Array.from({ length: 600 }, () => [-95.5 + rnd() * 2, 45.0 + rnd() * 2] as [number, number]); // north of the doubles' no-elevation area
const base = `http://127.0.0.1:${port}/v1`;
const screenUrl = ([lon, lat]: [number, number]) => `${base}/screening?lat=${lat.toFixed(6)}&lon=${lon.toFixed(6)}`;

const server = Bun.spawn(
  [process.execPath, join(root, "src/cli/main.ts"), "serve", "--data", data, "--port", String(port)],
  { cwd: root, env, stdout: "ignore", stderr: "inherit" },
);
try {
  await waitReady(`${base}/topics`, 60000);
  // (1) fresh answers, one at a time, every double waiting DELAY ms
  for (const x of d.all) x.delayMs = DELAY;
  const times: number[] = [];
  for (let i = 0; i < 60; i++) {
    const t = performance.now();
    const r = await fetch(screenUrl(points[i]!));
    const body = (await r.json()) as any;
    times.push(performance.now() - t);
    if (
      r.status !== 200 ||
      Object.values<any>(body.data.facts).some((f) => f.status === "unknown" && f.detail?.includes("did not answer"))
    )
      throw new Error(`unexpected answer ${r.status}`);
  }
  times.sort((a, b) => a - b);
  const med = times[times.length >> 1]!,
    p90 = times[Math.floor(times.length * 0.9)]!;
  console.log(
    `fresh screening answers (5 services, ${d.all.reduce((n, x) => n + x.calls, 0)} outside calls for ${times.length} answers, each double +${DELAY} ms)`,
  );
  console.log(
    `  median ${med.toFixed(1)} ms, p90 ${p90.toFixed(1)} ms  →  median / ${DELAY} ms = ${(med / DELAY).toFixed(2)} (target ≤ 1.30)`,
  );
  // (2) cached answers vs resolve-by-point on the same points
  for (const x of d.all) x.delayMs = 0;
  const warm = points.slice(0, 500);
  for (let i = 0; i < warm.length; i += 20)
    await Promise.all(warm.slice(i, i + 20).map((p) => fetch(screenUrl(p)).then((r) => r.arrayBuffer())));
  const before = d.all.reduce((n, x) => n + x.calls, 0);
  const screenUrls = warm.map(screenUrl);
  const resolveUrls = warm.map(
    ([lon, lat]) => `${base}/jurisdictions/resolve?lat=${lat.toFixed(6)}&lon=${lon.toFixed(6)}`,
  );
  await load(screenUrls, 1);
  await load(resolveUrls, 1);
  // alternate one-second windows so that other load on the machine falls on both alike
  const a = { rps: 0, n: 0, errors: 0 },
    b = { rps: 0, n: 0, errors: 0 };
  for (let i = 0; i < seconds; i++) {
    for (const [acc, urls] of [
      [a, screenUrls],
      [b, resolveUrls],
    ] as const) {
      const r = await load(urls, 1);
      acc.n += r.n;
      acc.errors += r.errors;
      acc.rps += r.rps / seconds;
    }
  }
  const after = d.all.reduce((n, x) => n + x.calls, 0);
  console.log(
    `cached /screening          ${a.rps.toFixed(0).padStart(8)} req/s (${a.n} requests, ${a.errors} non-200, ${after - before} outside calls)`,
  );
  console.log(
    `/jurisdictions/resolve     ${b.rps.toFixed(0).padStart(8)} req/s (${b.n} requests, ${b.errors} non-200)`,
  );
  console.log(`ratio cached screening : resolve-by-point = ${(a.rps / b.rps).toFixed(3)}`);
} finally {
  server.kill();
  await server.exited;
  d.stop();
}
