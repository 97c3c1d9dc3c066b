// The compiled executable: `bun run build` makes ONE file that serves the API given a data file.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { $ } from "bun";
import { ROOT } from "../helpers/app";
import { atlasDataFile } from "../helpers/data-file";
import { rawRequest } from "../helpers/raw-http";
import { COMMANDS } from "../../src/cli/commands";
import pkg from "../../package.json" with { type: "json" };

const work = mkdtempSync(join(tmpdir(), "directory-exe-"));
const exe = join(work, "directory");
let proc: ReturnType<typeof Bun.spawn> | null = null;
let port = 0;

async function waitFor(url: string, ms: number) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      const r = await fetch(url);
      if (r.status < 500) return;
    } catch {}
    await Bun.sleep(100);
  }
  throw new Error(`no answer from ${url}`);
}

beforeAll(async () => {
  const data = await atlasDataFile();
  await $`${process.execPath} ${join(ROOT, "scripts/compile.ts")} ${exe}`.cwd(ROOT).quiet();
  port = 20000 + Math.floor(Math.random() * 20000);
  proc = Bun.spawn([exe, "serve", "--data", data, "--host", "127.0.0.1", "--port", String(port)], {
    cwd: work,
    env: {
      PATH: process.env.PATH ?? "",
      DIRECTORY_STATE_FILE: join(work, "state.sqlite"),
      DIRECTORY_BASE_URL: `http://127.0.0.1:${port}/v1`,
    },
    stdout: "pipe",
    stderr: "pipe",
  });
  await waitFor(`http://127.0.0.1:${port}/v1/topics`, 20000);
}, 600_000);

afterAll(() => {
  proc?.kill();
});

describe("one executable", () => {
  test("serves /v1/topics from the data file", async () => {
    const r = await fetch(`http://127.0.0.1:${port}/v1/topics`);
    expect(r.status).toBe(200);
    const body = (await r.json()) as any;
    expect(body.data.topics.length).toBe(17);
    expect(r.headers.get("etag")).toMatch(/^W\/"[0-9a-f]{32}"$/);
    expect(r.headers.get("ratelimit-policy")).toBe('"minute";q=10;w=60, "day";q=300;w=86400');
  });
  test("serves the web pages and their stylesheet on the same port", async () => {
    const home = await fetch(`http://127.0.0.1:${port}/`);
    expect(home.status).toBe(200);
    expect(home.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const text = await home.text();
    const css = await fetch(`http://127.0.0.1:${port}${text.match(/href="(\/style\.css[^"]*)"/)![1]}`);
    expect(css.status).toBe(200);
    expect(await css.text()).toContain("@media print");
    expect((await fetch(`http://127.0.0.1:${port}/places/county:27053`)).status).toBe(200);
  });
  test("front node: the executable carries the node front (unknown method → 405 problem document)", async () => {
    const data = await atlasDataFile();
    const p2 = 20000 + Math.floor(Math.random() * 20000);
    const node = Bun.spawn([exe, "serve", "--data", data, "--host", "127.0.0.1", "--port", String(p2)], {
      cwd: work,
      env: {
        PATH: process.env.PATH ?? "",
        DIRECTORY_FRONT: "node",
        DIRECTORY_STATE_FILE: join(work, "state3.sqlite"),
        DIRECTORY_BASE_URL: `http://127.0.0.1:${p2}/v1`,
      },
      stdout: "pipe",
      stderr: "pipe",
    });
    try {
      await waitFor(`http://127.0.0.1:${p2}/v1/topics`, 20000);
      const r = await rawRequest(p2, "FOO /v1/topics HTTP/1.1\r\nHost: a\r\n\r\n");
      expect(r.status).toBe(405);
      expect(r.headers.allow).toBe("GET, HEAD, OPTIONS");
      expect(JSON.parse(r.body).type).toBe(`http://127.0.0.1:${p2}/problems/method-not-allowed`);
      expect((await fetch(`http://127.0.0.1:${p2}/v1/topics`)).status).toBe(200);
    } finally {
      node.kill();
      await node.exited;
    }
  });
  test("refuses a tampered data file with a one-line error", async () => {
    const data = await atlasDataFile();
    const bad = join(work, "tampered.sqlite");
    const bytes = new Uint8Array(await Bun.file(data).arrayBuffer());
    const at = Math.floor(bytes.length * 0.6);
    bytes[at] = bytes[at]! ^ 0xff;
    await Bun.write(bad, bytes);
    const p = Bun.spawnSync([exe, "serve", "--data", bad, "--port", "0"], {
      cwd: work,
      env: { PATH: process.env.PATH ?? "", DIRECTORY_STATE_FILE: join(work, "state2.sqlite") },
    });
    expect(p.exitCode).not.toBe(0);
    const err = p.stderr.toString().trim();
    expect(err.split("\n").length).toBe(1);
    expect(err).toMatch(/refused|data file/i);
  });
  test("build-data through the same executable gives the same content as the script", async () => {
    const out = join(work, "exe-atlas.sqlite");
    const p = Bun.spawnSync([exe, "build-data", "--sources", "none", "--out", out], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? "" },
    });
    expect(p.exitCode).toBe(0);
    const { Database } = await import("bun:sqlite");
    const hash = (f: string) => {
      const db = new Database(f, { readonly: true });
      const h = (db.query("SELECT value FROM manifest WHERE key = 'content_sha256'").get() as any).value;
      db.close();
      return h;
    };
    expect(hash(out)).toBe(hash(await atlasDataFile()));
  });
  test("keys create / list / revoke through the same executable", () => {
    const env = { PATH: process.env.PATH ?? "", DIRECTORY_STATE_FILE: join(work, "keys.sqlite") };
    const c = Bun.spawnSync([exe, "keys", "create", "--tier", "standard", "--label", "agency mirror"], { env });
    expect(c.exitCode).toBe(0);
    const out = c.stdout.toString();
    const key = out.match(/pld_[A-Za-z0-9_-]{32}/)![0];
    const id = out.match(/key_id ([0-9a-f]{12})/)![1]!;
    const l = Bun.spawnSync([exe, "keys", "list"], { env }).stdout.toString();
    expect(l).toContain(id);
    expect(l).not.toContain(key);
    expect(Bun.spawnSync([exe, "keys", "revoke", id], { env }).exitCode).toBe(0);
    expect(Bun.spawnSync([exe, "keys", "list"], { env }).stdout.toString()).toContain("revoked");
  });
});

describe("the command line of the executable (issue 22)", () => {
  const run = (args: string[], cwd = work) =>
    Bun.spawnSync([exe, ...args], {
      cwd,
      env: { PATH: process.env.PATH ?? "", DIRECTORY_STATE_FILE: join(work, "cli-state.sqlite") },
      timeout: 15_000, // a command that started serving instead of printing its usage would be killed here
    });
  test("--help and -h on every command print its usage with every option and run nothing (exit 0)", () => {
    for (const c of COMMANDS)
      for (const h of ["--help", "-h"]) {
        const p = run([c.name, h]);
        expect([c.name, h, p.exitCode]).toEqual([c.name, h, 0]);
        const out = p.stdout.toString();
        expect(out.startsWith(`usage: directory ${c.name}`)).toBe(true);
        for (const o of Object.keys(c.options)) expect(out).toContain(`--${o}`);
      }
    // --help after other options, and after a subcommand, still only prints the usage
    expect(run(["check-links", "--config", "links.yaml", "--help"]).exitCode).toBe(0);
    const keys = run(["keys", "list", "--help"]);
    expect(keys.exitCode).toBe(0);
    expect(keys.stdout.toString()).toStartWith("usage: directory keys");
    expect(run(["mcp", "--help"]).stdout.toString()).toContain("--parcels FILE");
    expect(run(["--help"]).stdout.toString()).toContain("load-boundaries");
  });
  test("--version prints the package's version", () => {
    for (const args of [["--version"], ["serve", "--version"]]) {
      const p = run(args);
      expect(p.exitCode).toBe(0);
      expect(p.stdout.toString().trim()).toBe(`directory ${pkg.version}`);
    }
  });
  test("an unknown option, a missing or bad value, an unknown command: exit 2 naming it", () => {
    const cases: [string[], string][] = [
      [["serve", "--prot", "8304"], "unknown option --prot"],
      [["serve", "--port", "abc"], '--port must be a port number from 0 to 65535 (0: any free port) (got "abc")'],
      [["serve", "--port", "99999"], '(got "99999")'],
      [["serve", "--port"], "--port needs a value"],
      [["serve", "stray"], 'unexpected argument "stray"'],
      [["mcp", "--http=yes"], "--http takes no value"],
      [["check-links", "--limit", "0"], "--limit must be a positive integer"],
      [["keys", "create", "--tier", "gold"], "--tier must be one of standard, partner"],
      [["keys", "rotate"], 'unknown keys command "rotate"'],
      [["load-parcels", "--county", "17031", "--mapping", "m.yaml", "x.csv"], "--county must be county:NNNNN"],
      [["load-layer", "--kind", "fire", "x.gpkg"], "--kind must be one of flood, wetlands, shoreland, soils"],
      [["frobnicate"], 'unknown command "frobnicate"'],
    ];
    for (const [args, msg] of cases) {
      const p = run(args);
      expect([args, p.exitCode]).toEqual([args, 2]);
      expect(p.stderr.toString()).toContain(msg);
    }
    for (const c of COMMANDS) {
      const p = run([c.name, "--no-such-option"]);
      expect([c.name, p.exitCode]).toEqual([c.name, 2]);
      expect(p.stderr.toString()).toContain("unknown option --no-such-option");
    }
  });
  test("a second server on the port this executable serves: one line, exit 1", async () => {
    const p = Bun.spawnSync(
      [exe, "serve", "--data", await atlasDataFile(), "--host", "127.0.0.1", "--port", String(port)],
      {
        cwd: work,
        env: { PATH: process.env.PATH ?? "", DIRECTORY_STATE_FILE: join(work, "cli-state2.sqlite") },
        timeout: 30_000,
      },
    );
    expect(p.exitCode).toBe(1);
    const err = p.stderr.toString().trim().split("\n");
    expect(err).toHaveLength(1);
    expect(err[0]).toContain(`port ${port} in use`);
    expect((await fetch(`http://127.0.0.1:${port}/v1/topics`)).status).toBe(200); // the first one still serves
  });
  test("a wildcard host without base_url is refused in one line (exit 2); with base_url, OpenAPI servers and page links use it", async () => {
    const data = await atlasDataFile();
    const p = Bun.spawnSync([exe, "serve", "--data", data, "--host", "0.0.0.0", "--port", "0"], {
      cwd: work,
      env: { PATH: process.env.PATH ?? "", DIRECTORY_STATE_FILE: join(work, "wild.sqlite") },
      timeout: 15_000,
    });
    expect(p.exitCode).toBe(2);
    const err = p.stderr.toString().trim().split("\n");
    expect(err).toHaveLength(1);
    expect(err[0]).toContain("set base_url (DIRECTORY_BASE_URL)");
    const p4 = 20000 + Math.floor(Math.random() * 20000);
    const base = `http://mirror.example.gov:${p4}/v1`;
    const srv = Bun.spawn([exe, "serve", "--data", data, "--host", "0.0.0.0", "--port", String(p4)], {
      cwd: work,
      env: { PATH: process.env.PATH ?? "", DIRECTORY_STATE_FILE: join(work, "wild2.sqlite"), DIRECTORY_BASE_URL: base },
      stdout: "pipe",
      stderr: "pipe",
    });
    try {
      await waitFor(`http://127.0.0.1:${p4}/v1/topics`, 20000);
      const doc = (await (await fetch(`http://127.0.0.1:${p4}/v1/openapi.json`)).json()) as any;
      expect(doc.servers[0].url).toBe(base);
      const c = (await (await fetch(`http://127.0.0.1:${p4}/v1/places/county:27053`)).json()) as any;
      expect(c.data.jurisdiction.page_url).toBe(`http://mirror.example.gov:${p4}/places/county:27053`);
      // the container's health check: the executable asks the running server
      const ok = Bun.spawnSync([exe, "health", "--url", `http://127.0.0.1:${p4}/v1`], { timeout: 15_000 });
      expect(ok.exitCode).toBe(0);
    } finally {
      srv.kill();
      await srv.exited;
    }
    const down = Bun.spawnSync([exe, "health", "--url", `http://127.0.0.1:${p4}/v1`, "--timeout-ms", "2000"], {
      timeout: 15_000,
    });
    expect(down.exitCode).toBe(1);
    expect(down.stderr.toString()).toContain("unhealthy");
  }, 60_000); // it waits up to 20 s for the server and 15 s for each command: far past the default 5 s
  test("build-data outside a checkout says in one line where it runs (exit 1)", () => {
    const empty = mkdtempSync(join(tmpdir(), "directory-empty-"));
    const p = run(["build-data", "--out", join(empty, "x.sqlite")], empty);
    expect(p.exitCode).toBe(1);
    const err = p.stderr.toString().trim().split("\n");
    expect(err).toHaveLength(1);
    expect(err[0]).toContain("build-data runs from a checkout of the project");
  });
});

describe("air-gapped: the executable in an empty folder with only its data file (issue 22)", () => {
  test("every outside service off: nothing says 'try again' for a service that is off; nothing says 'no' for data not loaded", async () => {
    const dir = mkdtempSync(join(tmpdir(), "directory-airgap-"));
    const data = join(dir, "directory.sqlite");
    await Bun.write(data, Bun.file(await atlasDataFile())); // the atlas-only file: no places, no radon table
    const p3 = 20000 + Math.floor(Math.random() * 20000);
    await Bun.write(
      join(dir, "airgap.yaml"),
      [
        "geocoder: { enabled: false }",
        "towns: { enabled: false }",
        "screening:",
        ...["flood", "wetlands", "soils", "elevation", "shoreland"].map((s) => `  ${s}: { enabled: false }`),
      ].join("\n"),
    );
    const server = Bun.spawn(
      [exe, "serve", "--config", "airgap.yaml", "--data", "directory.sqlite", "--port", String(p3)],
      {
        cwd: dir,
        env: { PATH: process.env.PATH ?? "" },
        stdout: "pipe",
        stderr: "pipe",
      },
    );
    try {
      const base = `http://127.0.0.1:${p3}`;
      await waitFor(`${base}/v1/topics`, 20000);
      const chicago = "lat=41.8781&lon=-87.6298";
      const s = (await (await fetch(`${base}/v1/screening?${chicago}`)).json()) as any;
      for (const [k, f] of Object.entries<any>(s.data.facts)) {
        expect([k, f.status]).toEqual([k, "unknown"]);
        expect(f.summary).toMatch(/^Not available on this server/);
        expect(JSON.stringify(f)).not.toMatch(/try again/i);
      }
      expect(s.data.facts.radon.summary).toContain("EPA Map of Radon Zones is not loaded"); // never "not on the map"
      const page = await (await fetch(`${base}/screening?${chicago}`)).text();
      expect(page).not.toMatch(/try again|not on the EPA Map/i);
      const addr = await fetch(
        `${base}/v1/jurisdictions/resolve?address=${encodeURIComponent("1 Main St, Chicago, IL")}`,
      );
      expect(addr.status).toBe(503);
      const a = (await addr.json()) as any;
      expect(a.type).toBe(`${base}/problems/upstream-unavailable`);
      expect(a.detail).toContain("Address search is not available on this server");
      const cd = await fetch(`${base}/v1/county-data?jurisdiction_id=county:17031&op=count`);
      expect(cd.status).toBe(200);
      const c = (await cd.json()) as any;
      expect(c.data.state).toBe("no_data");
      expect(c.data.answer).toContain("This server holds no parcel data");
      const point = (await (await fetch(`${base}/v1/jurisdictions/resolve?${chicago}`)).json()) as any;
      expect(JSON.stringify(point)).not.toMatch(/try again/i);
      // no city boundaries in this file: a city-level job is not handed to Cook County (Chicago zones and permits)
      for (const fn of ["zoning", "permits"]) {
        expect(point.data.functions[fn].jurisdiction_id).toBeNull();
        expect(point.data.functions[fn].basis).toContain("this data file holds no city, village or borough boundaries");
      }
      expect(point.data.functions.assessment.jurisdiction_id).toBe("county:17031"); // a county job still answers
    } finally {
      server.kill();
      await server.exited;
    }
  }, 60_000);
});
