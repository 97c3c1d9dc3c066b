// Fault 5: SIGTERM and SIGINT stop the real server process gracefully: it stops accepting, finishes the request
// in flight (a slow outside lookup) within timeouts.shutdown_grace_ms, then exits 0.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { ROOT } from "../helpers/app";
import { atlasDataFile } from "../helpers/data-file";
import { startCensusDouble, SLOW_MS } from "../doubles/census-geocoder";

const work = mkdtempSync(join(tmpdir(), "directory-stop-"));
const doubles: { stop(): void }[] = [];
afterAll(() => {
  for (const d of doubles) d.stop();
});
beforeAll(async () => {
  await atlasDataFile();
}, 240_000);

async function serve(extraEnv: Record<string, string> = {}) {
  const data = await atlasDataFile();
  const census = await startCensusDouble();
  doubles.push(census);
  const port = 20000 + Math.floor(Math.random() * 20000);
  const p = Bun.spawn(
    [process.execPath, join(ROOT, "src/cli/main.ts"), "serve", "--data", data, "--port", String(port)],
    {
      cwd: work,
      stdout: "pipe",
      stderr: "pipe",
      env: {
        PATH: process.env.PATH ?? "",
        DIRECTORY_STATE_FILE: join(work, `s-${port}.sqlite`),
        DIRECTORY_GEOCODER__BASE_URL: census.url,
        DIRECTORY_SERVICE_CALLERS: "127.0.0.1",
        ...extraEnv,
      },
    },
  );
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    try {
      await (await fetch(`${base}/v1/topics`)).arrayBuffer();
      break;
    } catch {
      await Bun.sleep(50);
    }
  }
  return { p, base };
}

describe("graceful stop (fault 5)", () => {
  for (const [signal, front] of [
    ["SIGTERM", "bun"],
    ["SIGINT", "bun"],
    ["SIGTERM", "node"],
  ] as const) {
    test(`${signal}, front ${front}: the request in flight is answered, new connections are refused, exit code 0`, async () => {
      const { p, base } = await serve({ DIRECTORY_FRONT: front });
      const t0 = performance.now();
      const inFlight = fetch(
        `${base}/v1/jurisdictions/resolve?address=${encodeURIComponent("1 slow st, Minneapolis, MN")}`,
      ).then(async (r) => ({ status: r.status, body: await r.text() }));
      await Bun.sleep(300);
      p.kill(signal);
      await Bun.sleep(200);
      const refused = await fetch(`${base}/v1/topics`).then(
        () => false,
        () => true,
      );
      const r = await inFlight;
      expect(r.status).toBeLessThan(500); // answered by the app, not cut
      expect(JSON.parse(r.body)).toBeTruthy();
      expect(performance.now() - t0).toBeGreaterThanOrEqual(SLOW_MS - 100);
      expect(refused).toBe(true);
      expect(await p.exited).toBe(0);
    }, 60_000);
  }
  for (const front of ["bun", "node"])
    test(`past the grace period the rest is cut and the process still exits 0, front ${front}`, async () => {
      const { p, base } = await serve({ DIRECTORY_TIMEOUTS__SHUTDOWN_GRACE_MS: "200", DIRECTORY_FRONT: front });
      const inFlight = fetch(
        `${base}/v1/jurisdictions/resolve?address=${encodeURIComponent("1 slow st, Minneapolis, MN")}`,
      ).then(
        () => "answered",
        () => "cut",
      );
      await Bun.sleep(300);
      const t0 = performance.now();
      p.kill("SIGTERM");
      expect(await p.exited).toBe(0);
      expect(performance.now() - t0).toBeLessThan(SLOW_MS);
      expect(await inFlight).toBe("cut");
    }, 60_000);
});

describe("the port (issue 22)", () => {
  test("a second server on a port in use is a one-line error and exit 1; the start line gives the pages' address", async () => {
    const { p, base } = await serve();
    const port = new URL(base).port;
    const second = Bun.spawnSync(
      [process.execPath, join(ROOT, "src/cli/main.ts"), "serve", "--data", await atlasDataFile(), "--port", port],
      {
        cwd: work,
        env: { PATH: process.env.PATH ?? "", DIRECTORY_STATE_FILE: join(work, `s2-${port}.sqlite`) },
        stdout: "pipe",
        stderr: "pipe",
        timeout: 30_000,
      },
    );
    p.kill("SIGTERM");
    await p.exited;
    const first = await new Response(p.stdout).text();
    expect(first).toContain(`pages at http://127.0.0.1:${port}/`);
    expect(second.exitCode).toBe(1);
    const err = second.stderr.toString().trim().split("\n");
    expect(err).toHaveLength(1);
    expect(err[0]).toContain(`port ${port} in use`);
  }, 60_000);
});
