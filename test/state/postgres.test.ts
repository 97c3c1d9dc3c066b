// Keys, link results and the link checker's lease shared through a REAL PostgreSQL (started here on 127.0.0.1 by
// test/helpers/services.ts, never a mock): two replicas (two apps built from two configs naming the same
// database) and the CLI as an operator runs it. A key made through one authenticates on the other at once; a
// revoke on one is refused on the other; a link result written by one shows in the other's answers; of two
// concurrent link checks only one checks; PostgreSQL hung or stopped → 503 upstream-unavailable for a key not yet
// known (within the store's timeout), while a known key keeps working.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { buildDeps } from "../../src/cli/compose";
import { contentFromStore } from "../../src/directory/content";
import { createApp, type App } from "../../src/http/app";
import type { Deps } from "../../src/http/deps";
import { checkUnderLease, LINK_CHECK_LEASE } from "../../src/links/leased";
import type { ProbeResult } from "../../src/links/probe";
import { PostgresStateStore } from "../../src/state/postgres";
import { MAX_KEY_LOOKUPS, STORE_RETRY_AFTER_S, STORE_TIMEOUT_MS } from "../../src/state/postgres-connection";
import { startLinkDouble, testResolver, type LinkDouble } from "../doubles/links";
import { call, PROBLEMS, ROOT, liftedLimits, testConfig } from "../helpers/app";
import { fixtureDataFile } from "../helpers/data-file";
import { startPostgres } from "../helpers/services";

type Pg = Awaited<ReturnType<typeof startPostgres>>;
let pg: Pg;
let url: string;
let dataFile: string;
let db: Database;
const logs: string[] = [];

interface Replica {
  app: App;
  deps: Deps;
  store: PostgresStateStore;
}
let a: Replica, b: Replica;

function replica(name: string): Replica {
  const cfg = testConfig({ state_store: url, limits: liftedLimits() });
  const deps = buildDeps(
    cfg,
    { db, manifest: { as_of: "2026-11-22T00:00:00Z", content_sha256: "pg" }, content: contentFromStore(db) },
    (l) => logs.push(`${name}: ${l}`),
  );
  return { app: createApp(deps), deps, store: deps.state as PostgresStateStore };
}

/** `directory <args>` in its own process with state_store = the test database. */
async function cli(args: string[], stateStore = url) {
  const p = Bun.spawn([process.execPath, join(ROOT, "src/cli/main.ts"), ...args], {
    cwd: ROOT,
    env: { ...process.env, DIRECTORY_STATE_STORE: stateStore, DIRECTORY_LINKS__CONTACT: "ops@example.gov" },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { out, err, code };
}

const bearer = (key: string) => ({ headers: { Authorization: `Bearer ${key}` } });
const randomKey = () => `pld_${Buffer.from(crypto.getRandomValues(new Uint8Array(24))).toString("base64url")}`;

async function until<T>(what: string, f: () => Promise<T> | T, ok: (v: T) => boolean, ms = 3000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms (last: ${JSON.stringify(v)})`);
    await Bun.sleep(20);
  }
}

beforeAll(async () => {
  [pg, dataFile] = await Promise.all([startPostgres(), fixtureDataFile()]);
  url = await pg.database("state");
  db = new Database(dataFile, { readonly: true });
  a = replica("a");
  b = replica("b");
  await Promise.all([a.store.loaded, b.store.loaded]);
}, 60_000);

afterAll(async () => {
  await Promise.all([a?.store.close(), b?.store.close()]);
  await pg?.stop().catch(() => {});
});

describe("keys shared through PostgreSQL", () => {
  test("keys create (CLI) → the key works on both replicas at once; list shows it; known keys need no round trip", async () => {
    const made = await cli(["keys", "create", "--tier", "standard", "--label", "county mirror"]);
    expect(made.code).toBe(0);
    const key = made.out.split("\n")[1]!;
    const keyId = /^key_id ([0-9a-f]{12}) \(standard\)/.exec(made.out)![1]!;
    for (const r of [b, a]) {
      const res = await call(r.app, "/v1/topics", bearer(key));
      expect(res.status).toBe(200);
      expect(res.headers.get("ratelimit-policy")).toBe('"minute";q=120;w=60, "day";q=20000;w=86400');
    }
    // now in memory: answered without a Promise (no round trip)
    expect(b.deps.keys.lookup(key)).toEqual({ tier: "standard", keyId });
    const listed = await cli(["keys", "list"]);
    expect(listed.code).toBe(0);
    expect(listed.out).toMatch(new RegExp(`^${keyId}\\tstandard\\tlive\\t\\S+\\tcounty mirror$`, "m"));
  }, 20_000);

  test("revoke (CLI) → refused on the replica that used it, promptly (NOTIFY), and on the other", async () => {
    const { key, key_id } = await a.deps.keys.create("partner", "to revoke");
    expect((await call(b.app, "/v1/topics", bearer(key))).status).toBe(200); // b knows it now
    const revoked = await cli(["keys", "revoke", key_id]);
    expect(revoked.code).toBe(0);
    expect(revoked.out.trim()).toBe(`revoked ${key_id}`);
    for (const r of [b, a]) {
      const res = await until(
        "refused",
        () => call(r.app, "/v1/topics", bearer(key)),
        (x) => x.status !== 200,
        2000,
      );
      expect(res.status).toBe(401);
      expect(res.json.type).toBe(`${PROBLEMS}/invalid-key`);
    }
    expect((await cli(["keys", "revoke", key_id])).code).toBe(1); // no live key with that id
  }, 20_000);

  test("an unknown key is asked once, then refused from the negative cache; random keys cannot flood the store", async () => {
    const k = randomKey();
    const first = await call(b.app, "/v1/topics", bearer(k));
    expect(first.status).toBe(401);
    expect(first.json.type).toBe(`${PROBLEMS}/invalid-key`);
    expect(b.deps.keys.lookup(k)).toBeNull(); // negative cache: no Promise, no round trip
    // many unknown keys at once: MAX_KEY_LOOKUPS are asked, the rest are told to come back (503 busy, Retry-After 1)
    const n = MAX_KEY_LOOKUPS + 40;
    const all = await Promise.all(Array.from({ length: n }, () => call(b.app, "/v1/topics", bearer(randomKey()))));
    const by = (s: number) => all.filter((r) => r.status === s);
    expect({ 401: by(401).length, 503: by(503).length }).toEqual({ 401: MAX_KEY_LOOKUPS, 503: n - MAX_KEY_LOOKUPS });
    expect(new Set(by(503).map((r) => r.json.type))).toEqual(new Set([`${PROBLEMS}/busy`]));
    expect(by(503)[0]!.headers.get("retry-after")).toBe("1");
  }, 20_000);
});

describe("link results shared through PostgreSQL", () => {
  test("a result recorded by one replica shows in the other's answers; version and ETag follow", async () => {
    const target = "https://example.gov/many/000";
    const path = "/v1/resources?jurisdiction_id=county:27053&limit=100";
    const shown = async () => {
      const r = await call(b.app, path);
      expect(r.status).toBe(200);
      const x = r.json.data.resources.find((y: any) => y.url === target);
      return { s: x.verified_status, at: x.verified_at, m: x.verification_method, etag: r.headers.get("etag") };
    };
    const before = await shown();
    expect(before.s).toBe("not_yet_verified");
    const version = b.store.view.version;
    const ok: ProbeResult = {
      kind: "ok",
      status: 200,
      finalUrl: target,
      method: "HEAD",
      redirects: 0,
      reason: null,
      detail: "",
    };
    const row = await a.store.results.record(target, ok, new Date("2026-11-20T10:00:00Z"), { failures: 3, days: 7 });
    a.store.view.set(row);
    const after = await until("shown on b", shown, (x) => x.s === "verified");
    expect(after).toMatchObject({ s: "verified", at: "2026-11-20", m: "automated" });
    expect(after.etag).not.toBe(before.etag);
    expect(b.store.view.version).toBeGreaterThan(version);
    // a replica that missed the notice reads it at its next refresh (links.reload_s): a third replica at start
    const c = replica("c");
    await c.store.loaded;
    expect(c.store.view.get(target)).toMatchObject({ verified_status: "verified", verified_at: "2026-11-20" });
    await c.store.close();
  }, 20_000);

  test("check-links (CLI) writes through the same rule into PostgreSQL; every replica sees the row", async () => {
    const r = await cli(["check-links", "--data", dataFile, "--url", "http://127.0.0.1:9/ok"]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/checked 1 links on 1 hosts .*ok 0, failed 1, skipped 0/);
    expect(r.out).toContain(`results in PostgreSQL 127.0.0.1:${pg.port}/state`);
    const row = await b.store.results.get("http://127.0.0.1:9/ok");
    expect(row).toMatchObject({ outcome: "failed", reason: "refused-address", consecutive_failures: 1 });
    await until(
      "heard on a",
      () => a.store.view.get("http://127.0.0.1:9/ok"),
      (f) => !!f,
    );
  }, 20_000);
});

describe("the link checker's lease", () => {
  let d: LinkDouble;
  beforeAll(() => {
    d = startLinkDouble({ latencyMs: 150 });
  });
  afterAll(() => d.stop());
  const opts = () => ({
    cfg: { ...testConfig().links, contact: "ops@example.gov", per_host_delay_ms: 0, timeout_ms: 2000 },
    allowLoopback: true,
    resolver: testResolver(),
  });

  test("two concurrent runs on two replicas: one checks, the other finds the lease taken and says so", async () => {
    const urls = ["one", "two", "three"].map((h) => d.url(`${h}.test`, "/ok"));
    const lines: string[] = [];
    const [x, y] = await Promise.all([
      checkUnderLease(a.store, urls, opts(), (l) => lines.push(`a ${l}`)),
      checkUnderLease(b.store, urls, opts(), (l) => lines.push(`b ${l}`)),
    ]);
    const ran = [x, y].filter((s) => s !== null);
    expect(ran.length).toBe(1);
    expect(ran[0]!.checked).toBe(3);
    expect(lines.length).toBe(1);
    expect(lines[0]).toMatch(
      /^[ab] link check: skipped: another run holds the lease \(.+:\d+:[0-9a-f]{8}, until \d{4}-/,
    );
    for (const h of ["one.test", "two.test", "three.test"])
      expect(d.seen.filter((s) => s.host === h && s.path === "/ok" && s.method === "HEAD").length).toBe(1);
    // released at the end: the next run takes it
    expect(await checkUnderLease(b.store, urls.slice(0, 1), opts(), () => {})).not.toBeNull();
  }, 20_000);

  test("a lease left by a run that died is taken once it has expired", async () => {
    expect(await a.store.takeLease(LINK_CHECK_LEASE, "ghost:1:deadbeef", 200)).toEqual({ taken: true });
    const lines: string[] = [];
    expect(await checkUnderLease(b.store, [], opts(), (l) => lines.push(l))).toBeNull();
    expect(lines[0]).toContain("(ghost:1:deadbeef, until ");
    await Bun.sleep(250);
    expect(await checkUnderLease(b.store, [], opts(), () => {})).not.toBeNull();
  }, 20_000);
});

describe("PostgreSQL not answering", () => {
  test("hung (every server process stopped with SIGSTOP): 503 upstream-unavailable after STORE_TIMEOUT_MS, never a hang; a known key is answered at once", async () => {
    const { key } = await a.deps.keys.create("standard", "known before the hang");
    expect((await call(b.app, "/v1/topics", bearer(key))).status).toBe(200);
    const postmaster = Number((await Bun.file(join(pg.dir, "data/postmaster.pid")).text()).split("\n")[0]);
    const children = (await Bun.$`pgrep -P ${postmaster}`.nothrow().text()).trim().split("\n").filter(Boolean);
    const pids = [postmaster, ...children.map(Number)];
    for (const p of pids) process.kill(p, "SIGSTOP");
    try {
      const t0 = performance.now();
      const r = await call(b.app, "/v1/topics", bearer(randomKey()));
      const ms = performance.now() - t0;
      expect(ms).toBeGreaterThanOrEqual(STORE_TIMEOUT_MS - 50);
      expect(ms).toBeLessThan(STORE_TIMEOUT_MS + 1000);
      expect([r.status, r.json.type, r.headers.get("retry-after")]).toEqual([
        503,
        `${PROBLEMS}/upstream-unavailable`,
        String(STORE_RETRY_AFTER_S),
      ]);
      const t1 = performance.now();
      expect((await call(b.app, "/v1/topics", bearer(key))).status).toBe(200);
      expect(performance.now() - t1).toBeLessThan(STORE_TIMEOUT_MS / 2); // never waits for the hung store
    } finally {
      for (const p of pids) process.kill(p, "SIGCONT");
    }
    // answering again: an unknown key is a plain 401 once more
    const again = await until(
      "answering again",
      () => call(b.app, "/v1/topics", bearer(randomKey())),
      (x) => x.status === 401,
      5000,
    );
    expect(again.json.type).toBe(`${PROBLEMS}/invalid-key`);
  }, 20_000);

  test("stopped: a known key keeps working; any other key → 503 upstream-unavailable with Retry-After, within 3 s; the CLI says so", async () => {
    const { key } = await a.deps.keys.create("standard", "known before the outage");
    expect((await call(b.app, "/v1/topics", bearer(key))).status).toBe(200);
    const fresh = (await a.deps.keys.create("standard", "made just before the outage")).key;
    await pg.stop();
    const t0 = performance.now();
    const r = await call(b.app, "/v1/topics", bearer(randomKey()));
    expect(performance.now() - t0).toBeLessThan(3000);
    expect(r.status).toBe(503);
    expect(r.json.type).toBe(`${PROBLEMS}/upstream-unavailable`);
    expect(r.headers.get("retry-after")).toBe(String(STORE_RETRY_AFTER_S));
    expect(r.headers.get("content-type")).toBe("application/problem+json");
    // a key this replica never saw may exist: 503, never 401
    const f = await call(b.app, "/v1/topics", bearer(fresh));
    expect([f.status, f.json.type]).toEqual([503, `${PROBLEMS}/upstream-unavailable`]);
    // known key and anonymous callers are answered as before
    expect((await call(b.app, "/v1/topics", bearer(key))).status).toBe(200);
    expect((await call(b.app, "/v1/topics")).status).toBe(200);
    const t1 = performance.now();
    const listed = await cli(["keys", "list"]);
    expect(performance.now() - t1).toBeLessThan(8000);
    expect(listed.code).toBe(1);
    expect(listed.err).toMatch(/^error: PostgreSQL 127\.0\.0\.1:\d+\/state: /);
  }, 30_000);
});
