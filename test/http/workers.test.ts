// Past one process (issue 24): `serve --workers N` runs N real processes on one port, counts the limits in a
// store they share (exactly q per window for one address, whichever worker answers), starts a killed worker again
// and stops them all on SIGTERM (exit 0); `memory` with more than one worker is refused; an unrelated serve on the
// same port still fails. Two separate servers (replicas) sharing a real Redis admit at most q per window for one
// address between them; Redis stopped mid-run → every request still answered within the timeout, from each
// process's own counters, and the log says so.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { ROOT } from "../helpers/app";
import { atlasDataFile } from "../helpers/data-file";
import { freePort, startRedis, type Running } from "../helpers/services";

const work = mkdtempSync(join(tmpdir(), "directory-workers-"));
const MAIN = join(ROOT, "src/cli/main.ts");
let redis: Running;
beforeAll(async () => {
  await atlasDataFile();
  redis = await startRedis();
}, 240_000);
afterAll(async () => {
  await redis?.stop();
});

function env(extra: Record<string, string>): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "",
    DIRECTORY_STATE_FILE: join(work, `state-${Math.random().toString(36).slice(2)}.sqlite`),
    DIRECTORY_GEOCODER__ENABLED: "false",
    DIRECTORY_TOWNS__ENABLED: "false",
    ...extra,
  };
}

/** A serve process, and its standard output and error as they come (read on demand). */
async function serve(args: string[], extra: Record<string, string>) {
  const port = freePort();
  const p = Bun.spawn(
    [process.execPath, MAIN, "serve", "--data", await atlasDataFile(), "--port", String(port), ...args],
    {
      cwd: work,
      env: env(extra),
      stdout: "pipe",
      stderr: "pipe",
    },
  );
  let err = "",
    out = "";
  const drain = async (stream: ReadableStream<Uint8Array>, add: (s: string) => void) => {
    const reader = stream.getReader();
    const text = new TextDecoder();
    for (let r = await reader.read(); !r.done; r = await reader.read()) add(text.decode(r.value, { stream: true }));
  };
  void drain(p.stderr, (x) => (err += x));
  void drain(p.stdout, (x) => (out += x));
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 400; i++) {
    try {
      await (await fetch(`${base}/v1/openapi.json`)).arrayBuffer();
      break;
    } catch {
      await Bun.sleep(50);
    }
  }
  return { p, base, port, stderr: () => err, stdout: () => out };
}

const status = async (url: string) => {
  const r = await fetch(url, { headers: { connection: "close" } });
  await r.arrayBuffer();
  return r.status;
};

describe("serve --workers", () => {
  test("2 workers with the file store: exactly q per minute for one address; a killed worker comes back; SIGTERM stops all, exit 0", async () => {
    const s = await serve(["--workers", "2"], {
      DIRECTORY_LIMITS_STORE: "file",
      DIRECTORY_LIMITS_FILE: join(work, "limits-a.sqlite"),
    });
    // new connections each time, so the kernel spreads them over both workers
    const codes: number[] = [];
    for (let i = 0; i < 24; i++) codes.push(await status(`${s.base}/v1/topics`));
    expect(codes.filter((c) => c === 200)).toHaveLength(10); // anon_address: q = 10 a minute
    expect(codes.filter((c) => c === 429)).toHaveLength(14);
    expect(s.stderr()).toMatch(/serve: 2 workers on port \d+ \(pids \d+, \d+\)/);
    const pids = /pids (\d+), (\d+)/.exec(s.stderr())!.slice(1).map(Number);
    process.kill(pids[0]!, "SIGKILL");
    const until = Date.now() + 15_000;
    while (!/worker 0 \(pid \d+\) ended/.test(s.stderr()) && Date.now() < until) await Bun.sleep(50);
    expect(s.stderr()).toContain(`worker 0 (pid ${pids[0]}) ended (SIGKILL); starting it again in 1 s`);
    // the other worker answers meanwhile (the limit still counted: 429 for this address)
    expect(await status(`${s.base}/v1/topics`)).toBe(429);
    while ((s.stdout().match(/worker 0: serving/g) ?? []).length < 2 && Date.now() < until) await Bun.sleep(50);
    expect((s.stdout().match(/worker 0: serving/g) ?? []).length).toBe(2);
    s.p.kill("SIGTERM");
    expect(await s.p.exited).toBe(0);
    expect(s.stderr()).toContain("SIGTERM: stopping 2 worker(s)");
    // every worker is gone: the port is free
    await expect(fetch(`${s.base}/v1/topics`)).rejects.toThrow();
  }, 90_000);

  test("more than one worker with the memory store is refused in one line (exit 2)", async () => {
    const p = Bun.spawnSync([process.execPath, MAIN, "serve", "--data", await atlasDataFile(), "--workers", "2"], {
      cwd: work,
      env: env({}),
      stderr: "pipe",
    });
    expect(p.exitCode).toBe(2);
    const lines = p.stderr.toString().trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("workers 2 with limits_store memory would let every worker admit the whole quota");
  }, 30_000);

  test("an unrelated serve on the workers' port fails (exit 1, port in use), with one worker or several", async () => {
    const s = await serve(["--workers", "2"], {
      DIRECTORY_LIMITS_STORE: "file",
      DIRECTORY_LIMITS_FILE: join(work, "limits-b.sqlite"),
    });
    for (const more of [[], ["--workers", "2"]]) {
      const p = Bun.spawnSync(
        [process.execPath, MAIN, "serve", "--data", await atlasDataFile(), "--port", String(s.port), ...more],
        { cwd: work, env: env({ DIRECTORY_LIMITS_STORE: "file" }), stderr: "pipe", timeout: 30_000 },
      );
      expect(p.exitCode).toBe(1);
      expect(p.stderr.toString()).toContain(`port ${s.port} in use`);
    }
    s.p.kill("SIGTERM");
    expect(await s.p.exited).toBe(0);
  }, 90_000);
});

describe("replicas sharing Redis", () => {
  test("two servers, hit alternately: at most q per minute for one address between them; Redis stopped → answered within the timeout, logged", async () => {
    const shared = { DIRECTORY_LIMITS_STORE: redis.url, DIRECTORY_LIMITS_STORE_TIMEOUT_MS: "300" };
    const [a, b] = await Promise.all([serve([], shared), serve([], shared)]);
    const codes: number[] = [];
    for (let i = 0; i < 30; i++) codes.push(await status(`${(i % 2 ? a : b).base}/v1/topics`));
    expect(codes.filter((c) => c === 200)).toHaveLength(10);
    // both replicas admitted some and refused some: one count, not two
    expect(codes.filter((c, i) => c === 200 && i % 2 === 1).length).toBeGreaterThan(0);
    expect(codes.filter((c, i) => c === 200 && i % 2 === 0).length).toBeGreaterThan(0);
    await redis.stop();
    const t0 = performance.now();
    const after = [await status(`${a.base}/v1/topics`), await status(`${b.base}/v1/topics`)];
    expect(performance.now() - t0).toBeLessThan(5_000);
    // each process now counts in its own memory: a fresh count there, so answered (fail-open, documented)
    expect(after).toEqual([200, 200]);
    expect(a.stderr() + b.stderr()).toContain("the redis limits store failed");
    a.p.kill("SIGTERM");
    b.p.kill("SIGTERM");
    await Promise.all([a.p.exited, b.p.exited]);
    redis = await startRedis(); // for afterAll
  }, 90_000);
});
