// bench/front-door.ts: the front door on a small VM, measured with the compiled executable and a data file.
// The server is pinned to one core and wrk (Debian's, with a Lua script drawing random points inside covered
// states) to the other, 32 connections. The baseline, measured in the same run with the same wrk: a bare
// Bun.serve answering the same resolve body (~8.7 KB) with the same headers. Prints per run: cold start (exec →
// first 200 of resolve), RSS after start and under load, req/s, p99, CPU µs per request, and the ratios.
//   bun bench/front-door.ts [data file] [--exe dist/directory] [--seconds 8] [--runs 2]
//     [--windows N [--window-seconds 2] [--compare OTHER_EXE] [--floor]] [--front bun|node]
// With --windows, after the warm-up the load alternates between the targets in N rounds of short windows (app,
// bare, and with --compare a second executable on the same data file, e.g. the previous commit's): slow drifts of a
// shared VM then hit every target alike. Totals are summed over the windows; p50/p90/p99 are the medians of the
// windows' figures. --floor adds bench/bare-floor.ts to the windows: a bare server doing only the work no resolve
// server can skip for random points (bodies recorded from the app for 1,000 points, the point and a request id put
// in, an ETag digested), so the report shows how much of the gap to the same-bytes baseline is the app's own work.
// --front node runs the app (not --compare's executable) with DIRECTORY_FRONT=node: with --compare pointing at the
// same executable, the windows then compare the two fronts.
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { unlimitedEnv } from "./load";
import { resolvablePoints, wrkPathsScript } from "./points";

const root = join(import.meta.dir, "..");
const args = process.argv.slice(2);
const opt = (name: string, dflt: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args.splice(i, 2)[1]! : dflt;
};
const exe = opt("--exe", join(root, "dist/directory"));
const seconds = Number(opt("--seconds", "8"));
const runs = Number(opt("--runs", "2"));
const windows = Number(opt("--windows", "0"));
const windowSeconds = Number(opt("--window-seconds", "2"));
const compare = opt("--compare", "");
const front = opt("--front", "bun");
const floor = args.includes("--floor") ? (args.splice(args.indexOf("--floor"), 1), true) : false;
const data = args[0] ?? join(root, "directory.sqlite");
for (const [what, f] of [
  ["data file", data],
  ["executable (npx bun run build)", exe],
  ["wrk", "/usr/bin/wrk"],
]) {
  if (!existsSync(f!)) {
    console.error(`missing ${what}: ${f}`);
    process.exit(2);
  }
}
const CPU_SERVER = "0",
  CPU_LOAD = "1";
const tmp = `/tmp/front-door-${process.pid}`;

const points = resolvablePoints(data, 4000, 20261122);
const paths = points.map(([lon, lat]) => `/v1/jurisdictions/resolve?lat=${lat.toFixed(5)}&lon=${lon.toFixed(5)}`);
writeFileSync(`${tmp}.lua`, wrkPathsScript(paths));

const rssMb = (pid: number) => {
  try {
    const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
};
const cpuTicks = (pid: number) => {
  const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return Number(f[11]) + Number(f[12]);
};

async function wrk(url: string, script: string | null, pid: number, secs = seconds) {
  const t0 = cpuTicks(pid);
  let peak = 0;
  const timer = setInterval(() => {
    peak = Math.max(peak, rssMb(pid));
  }, 200);
  const p = Bun.spawn(
    [
      "taskset",
      "-c",
      CPU_LOAD,
      "wrk",
      "-t1",
      "-c32",
      `-d${secs}s`,
      "--latency",
      ...(script ? ["-s", script] : []),
      url,
    ],
    { stdout: "pipe", stderr: "pipe" },
  );
  const out = await new Response(p.stdout).text();
  await p.exited;
  clearInterval(timer);
  const ticks = cpuTicks(pid) - t0;
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN);
  const n = Number(/(\d+) requests in/.exec(out)?.[1] ?? NaN);
  const pct = (p: number) => {
    const m = new RegExp(`\\s${p}%\\s+([\\d.]+)(us|ms|s)`).exec(out);
    return m ? Number(m[1]) * (m[2] === "us" ? 0.001 : m[2] === "s" ? 1000 : 1) : NaN;
  };
  const p50 = pct(50),
    p90 = pct(90),
    p99 = pct(99);
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
  const secsTaken = /requests in ([\d.]+)(ms|s)/.exec(out);
  const wall = secsTaken ? Number(secsTaken[1]) * (secsTaken[2] === "ms" ? 0.001 : 1) : secs;
  return { rps, p50, p90, p99, n, non2xx, cpuUs: (ticks * 10_000) / n, peak, ticks, wall };
}

async function firstOk(url: string, until: number): Promise<Response> {
  for (;;) {
    try {
      const r = await fetch(url);
      if (r.status === 200) return r;
      await r.arrayBuffer();
    } catch {}
    if (performance.now() > until) throw new Error(`no 200 from ${url}`);
    await Bun.sleep(2);
  }
}

const fmt = (x: number, d = 0) => x.toFixed(d);
/** The app's response headers, for the baselines to send (the runtime adds Date and Content-Length itself). */
function recordedHeaders(res: Response): Record<string, string> {
  const headers: Record<string, string> = {};
  res.headers.forEach((v, k) => {
    if (k !== "date" && k !== "content-length") headers[k] = v;
  });
  return headers;
}
/** The servers' state files (with -wal and -shm) go after each run; the scratch files (the wrk script, the recorded
 * bodies) once every run is done. */
const removeTmp = (match: (f: string) => boolean) => {
  for (const f of readdirSync("/tmp")) if (match(f)) rmSync(`/tmp/${f}`, { force: true });
};
for (let run = 1; run <= runs; run++) {
  const port = 35000 + Math.floor(Math.random() * 5000),
    barePort = port + 1;
  const env = unlimitedEnv(port);
  const t0 = performance.now();
  const app = Bun.spawn(["taskset", "-c", CPU_SERVER, exe, "serve", "--data", data, "--port", String(port)], {
    env: { ...env, DIRECTORY_FRONT: front },
    stdout: "ignore",
    stderr: "inherit",
  });
  try {
    const sample = await firstOk(`http://127.0.0.1:${port}${paths[0]}`, t0 + 30000);
    const cold = (performance.now() - t0) / 1000;
    const body = await sample.text();
    await Bun.sleep(300);
    const rssStart = rssMb(app.pid);
    // the baseline answers the same bytes with the same headers
    writeFileSync(`${tmp}.json`, JSON.stringify({ body, headers: recordedHeaders(sample) }));
    const bare = Bun.spawn(
      [
        "taskset",
        "-c",
        CPU_SERVER,
        process.execPath,
        join(root, "bench/bare-same-bytes.ts"),
        `${tmp}.json`,
        String(barePort),
      ],
      { stdout: "ignore", stderr: "inherit" },
    );
    try {
      await firstOk(`http://127.0.0.1:${barePort}/`, performance.now() + 10000);
      await wrk(`http://127.0.0.1:${port}`, `${tmp}.lua`, app.pid); // warm-up (JIT, chain memo)
      if (windows > 0) {
        await alternateWindows(run, cold, rssStart, body.length, app.pid, port, bare.pid, barePort, env);
        continue;
      }
      const a = await wrk(`http://127.0.0.1:${port}`, `${tmp}.lua`, app.pid);
      const b = await wrk(`http://127.0.0.1:${barePort}/`, null, bare.pid);
      console.log(
        `run ${run}: cold start ${fmt(cold, 2)} s; RSS after start ${fmt(rssStart)} MB, under load (peak) ${fmt(a.peak)} MB; body ${body.length} B`,
      );
      console.log(
        `  resolve by random points: ${fmt(a.rps)} req/s, p50/p90/p99 ${fmt(a.p50, 2)}/${fmt(a.p90, 2)}/${fmt(a.p99, 2)} ms, ${fmt(a.cpuUs, 1)} µs CPU/req, ${a.non2xx} non-2xx of ${a.n}`,
      );
      console.log(
        `  bare Bun.serve same bytes: ${fmt(b.rps)} req/s, p50/p90/p99 ${fmt(b.p50, 2)}/${fmt(b.p90, 2)}/${fmt(b.p99, 2)} ms, ${fmt(b.cpuUs, 1)} µs CPU/req`,
      );
      console.log(
        `  ratio req/s ${(a.rps / b.rps).toFixed(3)}; ratio CPU/req (bare/app) ${(b.cpuUs / a.cpuUs).toFixed(3)}`,
      );
    } finally {
      bare.kill();
      await bare.exited;
    }
  } finally {
    app.kill();
    await app.exited;
    removeTmp((f) => f.startsWith(`bench-state-${port}.sqlite`) || f.startsWith(`bench-state-${port + 2}.sqlite`));
  }
}
removeTmp((f) => f.startsWith(`front-door-${process.pid}`));

type Figures = Awaited<ReturnType<typeof wrk>>;
function median(xs: number[]) {
  const v = [...xs].sort((a, b) => a - b);
  return v.length ? (v[(v.length - 1) >> 1]! + v[v.length >> 1]!) / 2 : NaN;
}

/** Sum of windows: req/s over the summed wall time, CPU per request over the summed ticks, medians of percentiles. */
function total(ws: Figures[]) {
  const n = ws.reduce((a, w) => a + w.n, 0),
    wall = ws.reduce((a, w) => a + w.wall, 0),
    ticks = ws.reduce((a, w) => a + w.ticks, 0);
  return {
    rps: n / wall,
    cpuUs: (ticks * 10_000) / n,
    p50: median(ws.map((w) => w.p50)),
    p90: median(ws.map((w) => w.p90)),
    p99: median(ws.map((w) => w.p99)),
    non2xx: ws.reduce((a, w) => a + w.non2xx, 0),
    n,
    peak: Math.max(...ws.map((w) => w.peak)),
  };
}

async function alternateWindows(
  run: number,
  cold: number,
  rssStart: number,
  bodyLength: number,
  appPid: number,
  port: number,
  barePid: number,
  barePort: number,
  env: Record<string, string>,
) {
  let other: ReturnType<typeof Bun.spawn> | null = null,
    floorProc: ReturnType<typeof Bun.spawn> | null = null;
  const otherPort = port + 2,
    floorPort = port + 3;
  try {
    if (compare) {
      other = Bun.spawn(["taskset", "-c", CPU_SERVER, compare, "serve", "--data", data, "--port", String(otherPort)], {
        env: {
          ...env,
          DIRECTORY_BASE_URL: `http://127.0.0.1:${otherPort}/v1`,
          DIRECTORY_STATE_FILE: `/tmp/bench-state-${otherPort}.sqlite`,
        },
        stdout: "ignore",
        stderr: "ignore",
      });
      await firstOk(`http://127.0.0.1:${otherPort}${paths[0]}`, performance.now() + 30000);
      await wrk(`http://127.0.0.1:${otherPort}`, `${tmp}.lua`, other.pid); // warm-up
    }
    if (floor) {
      const bodies: string[] = [];
      for (const p of paths.slice(0, 1000)) bodies.push(await (await fetch(`http://127.0.0.1:${port}${p}`)).text());
      writeFileSync(
        `${tmp}-floor.json`,
        JSON.stringify({ bodies, headers: recordedHeaders(await fetch(`http://127.0.0.1:${port}${paths[0]}`)) }),
      );
      floorProc = Bun.spawn(
        [
          "taskset",
          "-c",
          CPU_SERVER,
          process.execPath,
          join(root, "bench/bare-floor.ts"),
          `${tmp}-floor.json`,
          String(floorPort),
        ],
        { stdout: "ignore", stderr: "inherit" },
      );
      await firstOk(`http://127.0.0.1:${floorPort}${paths[0]}`, performance.now() + 10000);
      await wrk(`http://127.0.0.1:${floorPort}`, `${tmp}.lua`, floorProc.pid); // warm-up
    }
    const a: Figures[] = [],
      b: Figures[] = [],
      c: Figures[] = [],
      f: Figures[] = [];
    for (let i = 0; i < windows; i++) {
      a.push(await wrk(`http://127.0.0.1:${port}`, `${tmp}.lua`, appPid, windowSeconds));
      b.push(await wrk(`http://127.0.0.1:${barePort}/`, null, barePid, windowSeconds));
      if (other) c.push(await wrk(`http://127.0.0.1:${otherPort}`, `${tmp}.lua`, other.pid, windowSeconds));
      if (floorProc) f.push(await wrk(`http://127.0.0.1:${floorPort}`, `${tmp}.lua`, floorProc.pid, windowSeconds));
    }
    const A = total(a),
      B = total(b);
    const line = (what: string, f: ReturnType<typeof total>) =>
      `  ${what}: ${fmt(f.rps)} req/s, p50/p90/p99 ${fmt(f.p50, 2)}/${fmt(f.p90, 2)}/${fmt(f.p99, 2)} ms, ${fmt(f.cpuUs, 1)} µs CPU/req, ${f.non2xx} non-2xx of ${f.n}`;
    console.log(
      `run ${run}: cold start ${fmt(cold, 2)} s; RSS after start ${fmt(rssStart)} MB, under load (peak) ${fmt(A.peak)} MB; body ${bodyLength} B; ${windows} rounds of ${windowSeconds} s windows; front ${front}`,
    );
    console.log(line("resolve by random points", A));
    console.log(line("bare Bun.serve same bytes", B));
    console.log(
      `  ratio req/s ${(A.rps / B.rps).toFixed(3)}; ratio CPU/req (bare/app) ${(B.cpuUs / A.cpuUs).toFixed(3)}`,
    );
    if (other) {
      const C = total(c);
      console.log(line(`--compare ${compare}`, C));
      console.log(
        `  ratio req/s ${(C.rps / B.rps).toFixed(3)}; ratio CPU/req (bare/other) ${(B.cpuUs / C.cpuUs).toFixed(3)}; this / other req/s ${(A.rps / C.rps).toFixed(3)}`,
      );
    }
    if (floorProc) {
      const F = total(f);
      console.log(line("bare floor (bench/bare-floor.ts)", F));
      console.log(
        `  ratio req/s floor / bare ${(F.rps / B.rps).toFixed(3)}; this / floor ${(A.rps / F.rps).toFixed(3)}; CPU/req beyond the floor: this ${fmt(A.cpuUs - F.cpuUs, 1)} µs`,
      );
    }
  } finally {
    if (other) {
      other.kill();
      await other.exited;
    }
    if (floorProc) {
      floorProc.kill();
      await floorProc.exited;
    }
  }
}
