// Screening under faults and load: each failure mode of each service (down, slow, garbage, HTML, empty, ArcGIS
// error inside a 200, oversized, truncated), the H3 cache (never the answer of another point), single-flight,
// busy, lookup-limit and air-gapped mode. Loopback doubles only; short timeouts (200 ms).
import type { Limiter } from "../../src/http/limits";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { latLngToCell } from "h3-js";
import { call, PROBLEMS } from "../helpers/app";
import { screeningApp } from "../helpers/screening-app";
import { startScreeningDoubles, type Mode, type ScreeningDoubles } from "../doubles/screening-services";
import * as W from "../doubles/screening-world";
import type { App } from "../../src/http/app";

let d: ScreeningDoubles;
beforeAll(async () => {
  d = startScreeningDoubles();
  await screeningApp(d);
}, 600_000);
afterAll(() => d.stop());
beforeEach(() => d.reset());

const ask = (app: App, p: { lon: number; lat: number }, headers: Record<string, string> = {}) =>
  call(app, `/v1/screening?lat=${p.lat}&lon=${p.lon}`, { headers });
const calls = () => d.all.reduce((n, x) => n + x.calls, 0);
let k = 0;
/** A fresh point in Minneapolis (its own H3 cell, never asked before in this file). */
const fresh = () => ({ lon: W.C.lon + 0.02 + (k % 20) * 0.003, lat: W.C.lat + 0.02 + Math.floor(k++ / 20) * 0.003 });

describe("failure modes → unknown with a reason, the answer still 200, never cached", () => {
  const cases: [Mode, RegExp][] = [
    ["down", /HTTP 500 \(down\)/],
    ["slow", /did not answer within 200 ms \(slow\)/],
    ["garbage", /not JSON/],
    ["html", /not JSON/],
    ["empty", /not JSON/],
    ["huge", /larger than 1048576 bytes/],
  ];
  for (const [mode, why] of cases) {
    test(`every service ${mode} → each fact unknown (${why.source})`, async () => {
      // (a generous timeout where the failure is not slowness, so a loaded machine cannot turn it into "slow")
      const { app } = await screeningApp(d, { timeoutMs: mode === "slow" ? 200 : 2000 });
      for (const x of d.all) x.mode = mode;
      const p = fresh();
      const r = await ask(app, p);
      expect(r.status).toBe(200);
      for (const f of ["flood", "wetlands", "soils", "elevation", "shoreland"]) {
        expect({ f, status: r.json.data.facts[f].status }).toEqual({ f, status: "unknown" });
        expect(r.json.data.facts[f].detail).toMatch(why);
        expect(r.json.data.facts[f].summary).toBe("Could not be checked right now; try again later."); // it failed
      }
      expect(r.json.data.facts.radon.status).toBe("zone_1");
      d.reset();
      const again = await ask(app, p); // not cached: asked again, now answered
      expect(again.json.data.facts.flood.status).not.toBe("unknown");
      expect(d.fema.calls).toBeGreaterThan(0);
    });
  }
  test("ArcGIS error inside an HTTP 200 → unknown naming the service's error", async () => {
    const { app } = await screeningApp(d);
    d.fema.mode = "arcgis-error";
    d.nwi.mode = "arcgis-error";
    d.dnr.mode = "arcgis-error";
    const f = (await ask(app, fresh())).json.data.facts;
    for (const k of ["flood", "wetlands", "shoreland"])
      expect(f[k].detail).toContain("error 500: Error performing query operation");
    expect(f.soils.status).not.toBe("unknown"); // the others are not affected
    expect(f.elevation.status).toBe("ok");
  });
  test("a wrong shape (SDA Table without mukey, EPQS without value) → unknown, unexpected shape", async () => {
    const { parseSdaReply } = await import("../../src/lookups/screening/soils");
    const { parseEpqs } = await import("../../src/lookups/screening/elevation");
    expect(() => parseSdaReply({ Table: [["x"], ["1"]] })).toThrow(/mukey/);
    expect(() => parseSdaReply({ rows: [] })).toThrow(/no Table/);
    expect(parseSdaReply({})).toEqual([]);
    expect(() => parseEpqs({ location: {} })).toThrow(/no value/);
    expect(parseEpqs({ value: "-1000000", resolution: 1 }).feet).toBeNull();
    expect(parseEpqs({ value: 12.5 }).feet).toBe(12.5);
  });
  test("an area reply cut short (exceededTransferLimit) → the exact point is asked instead, answer still right", async () => {
    const { app } = await screeningApp(d);
    d.fema.mode = "exceeded-area";
    const r = await ask(app, W.FLOOD_POINTS.moderate);
    expect(r.json.data.facts.flood.status).toBe("moderate");
    expect(d.fema.log.some((l) => l.includes("esriGeometryPoint"))).toBe(true);
  });
  test("a point reply cut short too → unknown (incomplete)", async () => {
    const { app } = await screeningApp(d);
    d.fema.mode = "exceeded";
    const r = await ask(app, fresh());
    expect(r.json.data.facts.flood.status).toBe("unknown");
    expect(r.json.data.facts.flood.detail).toContain("exceededTransferLimit");
  });
  test("one slow service does not hold the others: the answer takes about one timeout, not the sum", async () => {
    // every service silent far past its 500 ms timeout: run together the answer takes about 500 ms, one after
    // another 2,500 ms; the bound between leaves a wide margin for a loaded machine
    const timeoutMs = 500;
    const { app } = await screeningApp(d, { timeoutMs });
    for (const x of d.all) x.delayMs = 10_000;
    const t = performance.now();
    const r = await ask(app, fresh());
    const ms = performance.now() - t;
    expect(r.json.data.facts.flood.status).toBe("unknown");
    expect(ms).toBeLessThan(d.all.length * timeoutMs); // five services × 500 ms if they ran one after another
  });
});

describe("the H3 cache", () => {
  test("two points of ONE cell on either side of a zone edge get their own answers, with one outside lookup", async () => {
    const { app } = await screeningApp(d);
    const west = { lon: W.C.lon - 0.00001, lat: W.C.lat },
      east = { lon: W.C.lon + 0.00001, lat: W.C.lat };
    expect(latLngToCell(west.lat, west.lon, W.RES)).toBe(latLngToCell(east.lat, east.lon, W.RES));
    const a = await ask(app, west);
    const femaCalls = d.fema.calls;
    const b = await ask(app, east);
    expect(a.json.data.facts.flood.status).toBe("sfha");
    expect(b.json.data.facts.flood.status).toBe("moderate");
    expect(d.fema.calls).toBe(femaCalls); // the second point was answered from the cell's cached features
  });
  test("a cached point costs no lookup token; a new one does", async () => {
    const { app, deps } = await screeningApp(d, { lookupPerMinute: 2 });
    const p = fresh();
    expect((await ask(app, p)).status).toBe(200);
    const left = (deps.limiter as Limiter).buckets.lookup.peek("*").remaining[0];
    expect((await ask(app, p)).status).toBe(200);
    expect((deps.limiter as Limiter).buckets.lookup.peek("*").remaining[0]).toBe(left);
  });
});

describe("single-flight, busy, lookup-limit", () => {
  test("identical lookups in flight share one call per service", async () => {
    const { app } = await screeningApp(d);
    for (const x of d.all) x.delayMs = 80;
    const p = fresh();
    const rs = await Promise.all([ask(app, p), ask(app, p), ask(app, p)]);
    for (const r of rs) expect(r.status).toBe(200);
    expect(d.sda.calls).toBe(1);
    expect(d.epqs.calls).toBe(1);
    expect(d.fema.calls).toBe(2); // hazard + panel layer, once
  });
  test("more outside lookups than max_concurrent → 503 busy with Retry-After", async () => {
    const { app } = await screeningApp(d, { screening: { max_concurrent: 8 } });
    for (const x of d.all) x.delayMs = 150;
    const first = ask(app, fresh());
    await Bun.sleep(40);
    const second = await ask(app, fresh());
    expect([second.status, second.json.type]).toEqual([503, `${PROBLEMS}/busy`]);
    expect(Number(second.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(second.headers.get("cache-control")).toBe("no-store");
    expect((await first).status).toBe(200);
  });
  test("lookup limit used up → 429 lookup-limit with Retry-After and the lookup bucket's RateLimit; cached points still answer", async () => {
    const { app } = await screeningApp(d, { lookupPerMinute: 1 });
    const p = fresh();
    expect((await ask(app, p)).status).toBe(200);
    const r = await ask(app, fresh());
    expect([r.status, r.json.type]).toEqual([429, `${PROBLEMS}/lookup-limit`]);
    expect(Number(r.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(r.headers.get("ratelimit-policy")).toBe('"minute";q=1;w=60, "day";q=1000000000;w=86400');
    expect(r.headers.get("ratelimit")).toMatch(/^"minute";r=0;t=\d+, "day";r=\d+;t=\d+$/);
    expect((await ask(app, p)).status).toBe(200);
  });
});

describe("air-gapped mode", () => {
  test("services switched off → unknown 'not available on this server' (never 'try again later'), no outside call, radon answers", async () => {
    const off = { enabled: false, base_url: "", timeout_ms: 200 };
    const { app } = await screeningApp(d, {
      screening: { flood: off, wetlands: off, soils: off, elevation: off, shoreland: { ...off, watercourses_url: "" } },
    });
    const before = calls();
    const r = await ask(app, fresh());
    expect(r.status).toBe(200);
    for (const f of ["flood", "wetlands", "soils", "elevation", "shoreland"]) {
      expect(r.json.data.facts[f].status).toBe("unknown");
      expect(r.json.data.facts[f].summary).toBe("Not available on this server.");
      expect(r.json.data.facts[f].detail).toContain("switched off on this server");
      expect(JSON.stringify(r.json.data.facts[f])).not.toContain("try again");
    }
    expect(r.json.data.facts.radon.status).toBe("zone_1");
    expect(calls()).toBe(before);
  });
  test("no lookup token is spent when nothing needs the network", async () => {
    const off = { enabled: false, base_url: "", timeout_ms: 200 };
    const { app } = await screeningApp(d, {
      lookupPerMinute: 1,
      screening: { flood: off, wetlands: off, soils: off, elevation: off, shoreland: { ...off, watercourses_url: "" } },
    });
    for (let i = 0; i < 3; i++) expect((await ask(app, fresh())).status).toBe(200);
  });
});
