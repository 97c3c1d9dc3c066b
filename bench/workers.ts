// bench/workers.ts (issue 24): (a) resolve throughput with `serve --workers 2` against `--workers 1`, and (c) the
// cost per request of the shared limits stores (file, Redis) against `memory`, all in the same run, with a bare
// Bun.serve hello world as the baseline. On a 2-core machine the load generator (wrk, 2 threads, 64 connections,
// random points inside covered states) runs on the SAME two cores as the server: a second worker then competes with
// wrk for CPU, so the gain shown is a floor of what a machine with spare cores gets. A real Redis server is started
// here on 127.0.0.1. The limits are lifted (the bench measures work, not 429s) but still counted in the store.
//   bun bench/workers.ts [data file] [--seconds 6] [--ops 20000]
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Limiter, type Caller, type Limits } from "../src/http/limits";
import { SharedLimiter } from "../src/http/limit-stores/limiter";
import { FileLimitStore } from "../src/http/limit-stores/file";
import { RedisLimitStore } from "../src/http/limit-stores/redis";
import { loadConfig } from "../src/config/config";
import { startRedis, freePort } from "../test/helpers/services";
import { unlimitedEnv, waitReady } from "./load";
import { resolvablePoints, wrkPathsScript } from "./points";

const root = join(import.meta.dir, "..");
const args = process.argv.slice(2);
const opt = (name: string, dflt: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args.splice(i, 2)[1]! : dflt;
};
const seconds = Number(opt("--seconds", "6"));
const ops = Number(opt("--ops", "20000"));
const data = args[0] ?? join(root, "directory.sqlite");
if (!existsSync(data) || !existsSync("/usr/bin/wrk")) {
  console.error(`need a data file (${data}) and wrk (/usr/bin/wrk)`);
  process.exit(2);
}
const tmp = `/tmp/bench-workers-${process.pid}`;
const redis = await startRedis();

// ---- (c) in process: one limiter check (an anonymous API call: two buckets) per request, random addresses
const cfg = loadConfig(null, {});
const limiters: [string, () => Limits][] = [
  ["memory", () => new Limiter(cfg.limits, cfg.limit_memory)],
  [
    "file",
    () => new SharedLimiter(new Limiter(cfg.limits, 1000), new FileLimitStore(`${tmp}-limits.sqlite`, 250), 250),
  ],
  ["redis", () => new SharedLimiter(new Limiter(cfg.limits, 1000), new RedisLimitStore(redis.url, 250), 250)],
];
console.log(`(c) one limit check in process (anonymous call: 2 buckets; ${ops} checks, 1,000 addresses)`);
const perCheck: Record<string, number> = {};
for (const [name, make] of limiters) {
  const l = make();
  const callers: Caller[] = Array.from({ length: 1000 }, (_, i) => ({
    kind: "anonymous",
    address: `10.${i >> 8}.${i & 255}.1`,
  }));
  for (let i = 0; i < 500; i++) await l.check(callers[i % 1000]!, "call");
  const t = performance.now();
  for (let i = 0; i < ops; i++) await l.check(callers[i % 1000]!, "call");
  perCheck[name] = ((performance.now() - t) * 1000) / ops;
  if (l instanceof SharedLimiter && l.fellBack) console.log(`  ${name}: ${l.fellBack} checks fell back to memory`);
  if (l instanceof SharedLimiter) await l.close();
}
for (const [name] of limiters)
  console.log(
    `  ${name.padEnd(8)} ${perCheck[name]!.toFixed(2).padStart(8)} µs per check  (${(perCheck[name]! / perCheck.memory!).toFixed(1)}× memory)`,
  );

// ---- (a) and (c) over HTTP: resolve by point with wrk
const paths = resolvablePoints(data, 4000, 20261124).map(
  ([lon, lat]) => `/v1/jurisdictions/resolve?lat=${lat.toFixed(5)}&lon=${lon.toFixed(5)}`,
);
writeFileSync(`${tmp}.lua`, wrkPathsScript(paths));

async function wrk(url: string, script: string | null) {
  const p = Bun.spawn(["wrk", "-t2", "-c64", `-d${seconds}s`, ...(script ? ["-s", script] : []), url], {
    stdout: "pipe",
    stderr: "pipe",
  });
  const out = await new Response(p.stdout).text();
  await p.exited;
  return {
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN),
    non2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0),
  };
}

async function run(label: string, cmd: string[], env: Record<string, string>, port: number, script: string | null) {
  const p = Bun.spawn(cmd, { cwd: root, env, stdout: "ignore", stderr: "ignore" });
  try {
    const base = `http://127.0.0.1:${port}`;
    await waitReady(`${base}${script ? "/v1/topics" : "/"}`, 60_000);
    await wrk(`${base}/`, script); // warm-up
    const r = await wrk(`${base}/`, script);
    return { label, ...r };
  } finally {
    p.kill("SIGTERM");
    await p.exited;
  }
}

const bun = process.execPath;
const main = join(root, "src/cli/main.ts");
const rows: { label: string; rps: number; non2xx: number }[] = [];
{
  const port = freePort();
  rows.push(
    await run("bare Bun.serve (hello world)", [bun, join(root, "bench/bare-server.ts"), String(port)], {}, port, null),
  );
}
const configs: [string, number, Record<string, string>][] = [
  ["resolve, 1 worker, limits memory", 1, {}],
  ["resolve, 1 worker, limits file", 1, { DIRECTORY_LIMITS_STORE: "file" }],
  ["resolve, 1 worker, limits redis", 1, { DIRECTORY_LIMITS_STORE: redis.url }],
  ["resolve, 2 workers, limits file", 2, { DIRECTORY_LIMITS_STORE: "file" }],
  ["resolve, 2 workers, limits redis", 2, { DIRECTORY_LIMITS_STORE: redis.url }],
];
for (const [label, n, extra] of configs) {
  const port = freePort();
  const file = `${tmp}-${port}-limits.sqlite`;
  rows.push(
    await run(
      label,
      [bun, main, "serve", "--data", data, "--port", String(port), "--workers", String(n)],
      unlimitedEnv(port, { DIRECTORY_LIMITS_FILE: file, ...extra }),
      port,
      `${tmp}.lua`,
    ),
  );
  rmSync(file, { force: true });
}
const bare = rows[0]!.rps,
  one = rows[1]!.rps;
console.log(
  `\n(a)+(c) HTTP, wrk -t2 -c64 ${seconds}s on the same 2 cores as the server (${navigator.hardwareConcurrency} cores)`,
);
for (const r of rows)
  console.log(
    `  ${r.label.padEnd(36)} ${r.rps.toFixed(0).padStart(8)} req/s  ${(r.rps / bare).toFixed(2)}× bare  ${(r.rps / one).toFixed(2)}× 1 worker memory${r.non2xx ? `  (${r.non2xx} non-2xx)` : ""}`,
  );
await redis.stop();
rmSync(`${tmp}.lua`, { force: true });
rmSync(`${tmp}-limits.sqlite`, { force: true });
