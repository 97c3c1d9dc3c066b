// GET /v1/county-data: every bad parameter (400 bad-parameter) and every way the parcel store fails to answer
// (503 upstream-unavailable or busy, never cached); a server with no parcel store at all answers no_data.
import { expectProblem } from "../helpers/problem";
import { describe, expect, test, beforeAll } from "bun:test";
import { Database } from "bun:sqlite";
import { copyFileSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parcelsApp } from "../helpers/parcels-app";
import { call } from "../helpers/app";
import { parcelSourceFor } from "../../src/parcels/open";
import { GuardedParcelSource } from "../../src/parcels/guard";
import { SqliteParcelSource } from "../../src/parcels/sqlite-source";
import type { ParcelSource } from "../../src/parcels/source";

let P: Awaited<ReturnType<typeof parcelsApp>>;
beforeAll(async () => {
  P = await parcelsApp();
}, 600_000);
const tmp = mkdtempSync(join(tmpdir(), "parcels-err-"));
const PROBLEMS = "http://api.test/problems";

describe("bad parameters → 400 bad-parameter", () => {
  const cases: [string, string][] = [
    ["neither q nor jurisdiction_id", "op=top"],
    ["q too short", "q=a"],
    ["q too long", `q=${"x".repeat(201)}`],
    ["jurisdiction_id not a county", "jurisdiction_id=state:53"],
    ["jurisdiction_id malformed", "jurisdiction_id=county:5303"],
    ["op unknown", "jurisdiction_id=county:53033&op=sum"],
    ["field unknown", "jurisdiction_id=county:53033&field=owner"],
    ["min not a number", "jurisdiction_id=county:53033&min=five"],
    ["max not a number", "jurisdiction_id=county:53033&max=1e"],
    ["min greater than max", "jurisdiction_id=county:53033&min=5&max=1"],
    ["min on sale_date", "jurisdiction_id=county:53033&field=sale_date&min=1"],
    ["since malformed", "jurisdiction_id=county:53033&since=2015"],
    ["since not a calendar date", "jurisdiction_id=county:53033&since=2015-02-30"],
    ["until with month 13 (was a 500)", "jurisdiction_id=county:53033&until=2015-13-01"],
    ["since with month 00 (was a 500)", "jurisdiction_id=county:53033&since=2015-00-10"],
    ["since with day 00", "jurisdiction_id=county:53033&since=2015-01-00"],
    ["since after until", "jurisdiction_id=county:53033&since=2015-02-01&until=2015-01-01"],
    ["limit 0", "jurisdiction_id=county:53033&limit=0"],
    ["limit 51", "jurisdiction_id=county:53033&limit=51"],
    ["offset 1001", "jurisdiction_id=county:53033&offset=1001"],
    ["offset negative", "jurisdiction_id=county:53033&offset=-1"],
    ["q with a plan", "q=biggest%20parcel&jurisdiction_id=county:53033&op=top"],
    [
      "q naming another county than jurisdiction_id",
      "q=biggest%20parcel%20in%20county:39095&jurisdiction_id=county:53033",
    ],
  ];
  for (const [name, qs] of cases) test(name, () => expectProblem(P.app, `/v1/county-data?${qs}`, 400, "bad-parameter"));
});

describe("the parcel store does not answer → 503, never cached", () => {
  const withSource = (s: ParcelSource) => {
    P.deps.parcels = s;
  };
  const restore = () => {
    P.deps.parcels = parcelSourceFor(P.deps.config, () => {}, P.file.path);
  };
  const Q = "/v1/county-data?jurisdiction_id=county:53033&op=count";

  test("no store at all (no file, or parcels.file empty, or none given): a server without parcel data, not a 503", async () => {
    for (const s of [
      parcelSourceFor(P.deps.config, () => {}, join(tmp, "nope.sqlite")),
      parcelSourceFor(P.deps.config, () => {}, ""),
      null,
    ]) {
      P.deps.parcels = s;
      for (const q of [Q, "/v1/county-data?q=biggest%20parcel%20in%20King%20County%2C%20WA"]) {
        const r = await call(P.app, q);
        expect(r.status).toBe(200);
        expect(r.json.data.state).toBe("no_data");
        expect(r.json.data.answer).toContain("This server holds no parcel data");
        expect(r.json.data.answer).not.toMatch(/retry|try again/i);
      }
    }
    restore();
  });

  test("file corrupt (not a database), and a database that is not a parcel store", async () => {
    const bad = join(tmp, "corrupt.sqlite");
    writeFileSync(bad, Buffer.alloc(8192, 0x5a));
    withSource(parcelSourceFor(P.deps.config, () => {}, bad));
    await expectProblem(P.app, Q, 503, "upstream-unavailable");
    const other = join(tmp, "other.sqlite");
    new Database(other, { create: true }).run("CREATE TABLE t (x)");
    withSource(parcelSourceFor(P.deps.config, () => {}, other));
    await expectProblem(P.app, Q, 503, "upstream-unavailable");
    restore();
  });

  test("file locked by a writer: 503 busy at once with Retry-After; the server stays responsive (issue 19, item 1)", async () => {
    const locked = join(tmp, "locked.sqlite");
    copyFileSync(P.file.path, locked);
    const writer = new Database(locked);
    writer.run("PRAGMA locking_mode = EXCLUSIVE");
    writer.run("BEGIN EXCLUSIVE");
    writer.run("DELETE FROM counties WHERE 0"); // take the write lock now
    withSource(parcelSourceFor(P.deps.config, () => {}, locked)); // query_timeout_ms as shipped (2000)
    // six county-data requests in flight and /v1/topics beside them: topics answers within 50 ms
    const inFlight = Array.from({ length: 6 }, () => call(P.app, Q));
    const t0 = performance.now();
    const topics = await call(P.app, "/v1/topics");
    const ms = performance.now() - t0;
    expect(topics.status).toBe(200);
    expect(ms).toBeLessThan(50);
    for (const r of await Promise.all(inFlight)) {
      expect(r.status).toBe(503);
      expect(r.json.type).toMatch(/\/busy$/);
      expect(Number(r.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    }
    writer.run("ROLLBACK");
    writer.close();
    // the lock gone, the same source answers again (the handle is reopened after a failure)
    expect((await call(P.app, Q)).status).toBe(200);
    restore();
  });

  test("a store replaced on disk is read from the new file; a deleted store is not answered from the old one", async () => {
    const live = join(tmp, "live.sqlite");
    copyFileSync(P.file.path, live);
    withSource(parcelSourceFor(P.deps.config, () => {}, live));
    const before = await call(P.app, Q);
    expect(before.status).toBe(200);
    // a new file renamed over it (as load-parcels does): an empty store, so King County now has no data
    const fresh = join(tmp, "fresh.sqlite");
    const { createEmptyStore } = await import("../../src/parcels/schema");
    createEmptyStore(fresh);
    renameSync(fresh, live);
    const after = await call(P.app, Q);
    expect(after.status).toBe(200);
    expect(after.json.data.state).toBe("no_data");
    rmSync(live);
    const gone = await call(P.app, Q); // no file any more: no parcel data here (never the old file's answer)
    expect(gone.status).toBe(200);
    expect(gone.json.data.state).toBe("no_data");
    expect(gone.json.data.answer).toContain("This server holds no parcel data");
    restore();
  });

  const slow = (ms: number, sync = false): ParcelSource => {
    const real = new SqliteParcelSource(P.file.path);
    const wait = async () => {
      if (sync) Bun.sleepSync(ms);
      else await Bun.sleep(ms);
    };
    return {
      counties: async () => {
        await wait();
        return real.counties();
      },
      county: async (id) => {
        await wait();
        return real.county(id);
      },
      rows: async (p) => {
        await wait();
        return real.rows(p);
      },
      aggregate: async (p) => {
        await wait();
        return real.aggregate(p);
      },
      parcel: async (c, a) => {
        await wait();
        return real.parcel(c, a);
      },
      near: async (x, y, m) => {
        await wait();
        return real.near(x, y, m);
      },
    };
  };

  test("a query past its timeout (an async source, and a synchronous one whose late answer is not used)", async () => {
    withSource(new GuardedParcelSource(slow(300), { timeoutMs: 50, maxConcurrent: 4, retryAfterS: 2 }));
    await expectProblem(P.app, Q, 503, "upstream-unavailable");
    withSource(new GuardedParcelSource(slow(80, true), { timeoutMs: 30, maxConcurrent: 4, retryAfterS: 2 }));
    await expectProblem(P.app, Q, 503, "upstream-unavailable");
    restore();
  });

  test("too many county-data queries at once → 503 busy with Retry-After", async () => {
    withSource(new GuardedParcelSource(slow(150), { timeoutMs: 5000, maxConcurrent: 2, retryAfterS: 3 }));
    const all = await Promise.all([0, 1, 2, 3].map(() => call(P.app, Q)));
    const busy = all.filter((r) => r.status === 503);
    expect(all.filter((r) => r.status === 200)).toHaveLength(2);
    expect(busy).toHaveLength(2);
    for (const r of busy) {
      expect(r.json.type).toBe(`${PROBLEMS}/busy`);
      expect(r.headers.get("retry-after")).toBe("3");
      expect(r.headers.get("cache-control")).toBe("no-store");
    }
    restore();
  });
});

test("OpenAPI covers /county-data from the schemas; CountyData and its Row admit no additional fields", async () => {
  const doc = (await call(P.app, "/v1/openapi.json")).json;
  const op = doc.paths["/v1/county-data"]?.get ?? doc.paths["/county-data"]?.get;
  expect(op).toBeDefined();
  const names = op.parameters
    .filter((p: any) => p.in === "query")
    .map((p: any) => p.name)
    .sort();
  expect(names).toEqual(["field", "jurisdiction_id", "limit", "max", "min", "offset", "op", "q", "since", "until"]);
  expect(Object.keys(op.responses).sort()).toEqual(["200", "304", "400", "401", "429", "503"]);
  const text = JSON.stringify(doc);
  expect(text).not.toMatch(/owner_name|"owner"|taxpayer/i);
  const find = (o: any): any => {
    if (!o || typeof o !== "object") return null;
    if (o.properties?.question && o.properties?.rows) return o;
    for (const v of Object.values(o)) {
      const f = find(v);
      if (f) return f;
    }
    return null;
  };
  const cd = find(doc);
  expect(cd.additionalProperties).toBe(false);
  const row = cd.properties.rows.items.$ref ? null : cd.properties.rows.items;
  if (row) expect(row.additionalProperties).toBe(false);
  expect(cd.properties.rows.maxItems).toBe(50);
});
