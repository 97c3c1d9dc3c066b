// bench/cold-start.ts: cold start of the compiled executable, exec → first 200 of
// GET /v1/jurisdictions/resolve?lat=..&lon=.. (polled every 2 ms), N times, alternating with two baselines
// measured in the same run: the same executable's `help` (exec → exit: the runtime and the bundle's bytecode),
// and a bare Bun.serve compiled the same way (exec → first 200). Everything runs pinned to one core (taskset -c 0).
// Prints the median and minimum of each, the ratios app / bare server, and the app's RSS 300 ms after its first 200.
//   bun bench/cold-start.ts [data file] [--exe dist/directory] [--n 8] [--lat 44.97] [--lon -93.26] [--prev EXE]
// --prev EXE: also start an older executable (e.g. main's) in the same alternation, for before/after in one run.
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { $ } from "bun";
import { unlimitedEnv } from "./load";

const root = join(import.meta.dir, "..");
const args = process.argv.slice(2);
const opt = (name: string, dflt: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args.splice(i, 2)[1]! : dflt;
};
const exe = opt("--exe", join(root, "dist/directory"));
const prev = opt("--prev", "");
const n = Number(opt("--n", "8"));
const lat = opt("--lat", "44.97"),
  lon = opt("--lon", "-93.26"); // Minneapolis: a cousub-less city in a town state
const data = args[0] ?? join(root, "directory.sqlite");
for (const [what, f] of [
  ["data file", data],
  ["executable (npx bun run build)", exe],
  ...(prev ? [["--prev executable", prev]] : []),
]) {
  if (!existsSync(f!)) {
    console.error(`missing ${what}: ${f}`);
    process.exit(2);
  }
}
const CPU = "0";
const bareExe = `/tmp/cold-start-bare-${process.pid}`;
await $`${process.execPath} build --compile --bytecode --format=esm ${join(root, "bench/bare-server.ts")} --outfile ${bareExe}`.quiet();

const rssMb = (pid: number) => {
  try {
    const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
};

async function firstOk(url: string, until: number): Promise<void> {
  for (;;) {
    try {
      const r = await fetch(url);
      await r.arrayBuffer();
      if (r.status === 200) return;
    } catch {}
    if (performance.now() > until) throw new Error(`no 200 from ${url}`);
    await Bun.sleep(2);
  }
}

/** exec → first 200 of `path` (ms), and RSS 300 ms later (MB). */
async function startOnce(
  cmd: string[],
  port: number,
  path: string,
  env: Record<string, string>,
): Promise<{ ms: number; rss: number }> {
  const t0 = performance.now();
  const p = Bun.spawn(["taskset", "-c", CPU, ...cmd], { env, stdout: "ignore", stderr: "ignore" });
  try {
    await firstOk(`http://127.0.0.1:${port}${path}`, t0 + 30000);
    const ms = performance.now() - t0;
    await Bun.sleep(300);
    return { ms, rss: rssMb(p.pid) };
  } finally {
    p.kill();
    await p.exited;
  }
}

async function helpOnce(): Promise<number> {
  const t0 = performance.now();
  const p = Bun.spawn(["taskset", "-c", CPU, exe, "help"], { stdout: "ignore", stderr: "ignore" });
  await p.exited;
  return performance.now() - t0;
}

const path = `/v1/jurisdictions/resolve?lat=${lat}&lon=${lon}`;
const app: number[] = [],
  appRss: number[] = [],
  old: number[] = [],
  oldRss: number[] = [],
  bare: number[] = [],
  help: number[] = [];
let port = 36000 + Math.floor(Math.random() * 4000);
for (let i = 0; i < n; i++) {
  help.push(await helpOnce());
  port++;
  bare.push((await startOnce([bareExe, String(port)], port, "/", { PATH: process.env.PATH ?? "" })).ms);
  port++;
  const a = await startOnce([exe, "serve", "--data", data, "--port", String(port)], port, path, unlimitedEnv(port));
  app.push(a.ms);
  appRss.push(a.rss);
  if (prev) {
    port++;
    const o = await startOnce([prev, "serve", "--data", data, "--port", String(port)], port, path, unlimitedEnv(port));
    old.push(o.ms);
    oldRss.push(o.rss);
  }
  rmSync(`/tmp/bench-state-${port}.sqlite`, { force: true });
}
rmSync(bareExe, { force: true });

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const min = (xs: number[]) => Math.min(...xs);
const line = (what: string, xs: number[]) =>
  console.log(
    `${what.padEnd(44)} median ${median(xs).toFixed(0).padStart(5)} ms, min ${min(xs).toFixed(0).padStart(5)} ms, max ${Math.max(
      ...xs,
    )
      .toFixed(0)
      .padStart(5)} ms`,
  );
console.log(
  `cold start, ${n} starts each, alternating, pinned to core ${CPU}; load average ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}`,
);
line("baseline: executable `help` (exec → exit)", help);
line("baseline: bare Bun.serve (exec → first 200)", bare);
line(`app: ${exe.replace(root + "/", "")} serve → first 200 of resolve`, app);
if (prev) line(`before: ${prev} → first 200 of resolve`, old);
console.log(
  `ratio app / bare server: median ${(median(app) / median(bare)).toFixed(2)}, min ${(min(app) / min(bare)).toFixed(2)}`,
);
if (prev)
  console.log(
    `ratio before / bare server: median ${(median(old) / median(bare)).toFixed(2)}, min ${(min(old) / min(bare)).toFixed(2)}; after / before: median ${(median(app) / median(old)).toFixed(2)}`,
  );
console.log(
  `RSS 300 ms after the first 200: app ${min(appRss).toFixed(0)}–${Math.max(...appRss).toFixed(0)} MB${prev ? `, before ${min(oldRss).toFixed(0)}–${Math.max(...oldRss).toFixed(0)} MB` : ""}`,
);
