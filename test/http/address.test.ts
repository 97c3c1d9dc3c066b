// Resolve by address over HTTP, with the Census geocoder replaced by its loopback double (127.0.0.1 only).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { call, PROBLEMS } from "../helpers/app";
import { fullApp } from "../helpers/directory-app";
import { startCensusDouble, type CensusDouble } from "../doubles/census-geocoder";
import type { App } from "../../src/http/app";

let double: CensusDouble;
const appWith = async (lookupPerMinute = 1000) =>
  (
    await fullApp({
      geocoder: { base_url: double.url, benchmark: "Public_AR_Current", cache_entries: 1000, cache_ttl_s: 86400 },
      timeouts: { geocoder_ms: 300, screening_ms: 300, request_ms: 5000 },
      limits: { ...(await fullApp()).deps.config.limits, lookup: { per_minute: lookupPerMinute, per_day: 100000 } },
    } as any)
  ).app;

beforeAll(async () => {
  double = await startCensusDouble();
  await appWith();
}, 600_000);
afterAll(() => double.stop());

const resolve = (app: App, address: string, headers: Record<string, string> = {}) =>
  call(app, `/v1/jurisdictions/resolve?address=${encodeURIComponent(address)}`, { headers });

describe("resolve by address", () => {
  test("one match → 200: the point's chain, match.by address, label = matchedAddress", async () => {
    const app = await appWith();
    const r = await resolve(app, "350 S 5th St, Minneapolis, MN 55415");
    expect(r.status).toBe(200);
    expect(r.json.data.match).toEqual({
      by: "address",
      label: "350 S 5TH ST, MINNEAPOLIS, MN, 55415",
      approximate: false,
    });
    expect(r.json.data.point.coordinates[1]).toBeCloseTo(44.977, 2);
    expect(r.json.data.jurisdictions.map((j: any) => j.jurisdiction_id)).toEqual([
      "state:27",
      "county:27053",
      "cousub:2705343000",
      "place:2743000",
    ]);
  });
  test("a street-only match is approximate", async () => {
    const app = await appWith();
    const r = await resolve(app, "street only");
    expect(r.status).toBe(200);
    expect(r.json.data.match).toEqual({ by: "address", label: "S 5TH ST, MINNEAPOLIS, MN, 55415", approximate: true });
  });
  test("several → 409 ambiguous with choices carrying label, lat and lon", async () => {
    const app = await appWith();
    const r = await resolve(app, "100 main st springfield");
    expect(r.status).toBe(409);
    expect(r.json.type).toBe(`${PROBLEMS}/ambiguous`);
    expect(r.json.choices.length).toBe(2);
    for (const c of r.json.choices) {
      expect(typeof c.label).toBe("string");
      expect(typeof c.lat).toBe("number");
      expect(typeof c.lon).toBe("number");
    }
  });
  test("none → 404 address-not-found", async () => {
    const app = await appWith();
    const r = await resolve(app, "1 nowhere lane");
    expect(r.status).toBe(404);
    expect(r.json.type).toBe(`${PROBLEMS}/address-not-found`);
  });
  test("geocoder down, slow, or garbage → 503 upstream-unavailable, never cached", async () => {
    const app = await appWith();
    for (const a of ["boom street", "slow street", "garbage street", "wrongshape street"]) {
      const before = double.calls();
      const r = await resolve(app, a);
      expect({ a, status: r.status, type: r.json.type }).toEqual({
        a,
        status: 503,
        type: `${PROBLEMS}/upstream-unavailable`,
      });
      expect(r.headers.get("cache-control")).toBe("no-store");
      await resolve(app, a);
      expect(double.calls()).toBe(before + 2); // asked again: the failure was not cached
    }
  });
  test("the geocoding is cached: the same (normalised) address asks the geocoder once", async () => {
    const app = await appWith();
    const before = double.calls();
    expect((await resolve(app, "350 S 5th St, Minneapolis, MN 55415")).status).toBe(200);
    expect((await resolve(app, "350  s 5th st minneapolis mn 55415")).status).toBe(200);
    expect(double.calls()).toBe(before + 1);
  });
  test("the same address already in flight shares one request", async () => {
    const app = await appWith();
    const before = double.calls();
    const rs = await Promise.all([1, 2, 3, 4].map(() => resolve(app, "350 S 5th St Minneapolis MN")));
    expect(rs.every((r) => r.status === 200)).toBe(true);
    expect(double.calls()).toBe(before + 1);
  });
  test("new outside lookups count against lookup-limit → 429 lookup-limit with Retry-After", async () => {
    const app = await appWith(2);
    expect((await resolve(app, "1 nowhere a")).status).toBe(404);
    expect((await resolve(app, "1 nowhere b")).status).toBe(404);
    const r = await resolve(app, "1 nowhere c");
    expect(r.status).toBe(429);
    expect(r.json.type).toBe(`${PROBLEMS}/lookup-limit`);
    expect(Number(r.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(r.headers.get("ratelimit")).toBeTruthy();
    // a cached address needs no new lookup
    expect((await resolve(app, "1 nowhere a")).status).toBe(404);
  });
});

describe("address search switched off (geocoder.enabled false, an air-gapped mirror)", () => {
  test("503 upstream-unavailable saying it is not offered here (no Retry-After, no call); points still resolve", async () => {
    const before = double.calls();
    const off = (
      await fullApp({
        geocoder: { enabled: false, base_url: double.url, benchmark: "x", cache_entries: 10, cache_ttl_s: 60 },
      } as any)
    ).app;
    const r = await resolve(off, "350 S 5th St, Minneapolis, MN 55415");
    expect(r.status).toBe(503);
    expect(r.json.type).toBe(`${PROBLEMS}/upstream-unavailable`);
    expect(r.json.detail).toContain("Address search is not available on this server");
    expect(r.json.detail).not.toMatch(/try again|temporarily/i);
    expect(r.headers.get("retry-after")).toBeNull();
    expect(double.calls()).toBe(before);
    expect((await resolve(off, "")).json.type).toBe(`${PROBLEMS}/bad-parameter`); // input is still checked first
    const p = await call(off, "/v1/jurisdictions/resolve?lat=44.9778&lon=-93.265");
    expect(p.status).toBe(200);
  });
  test("the same with base_url empty; the find page says so in its heading", async () => {
    const { fullWebApp } = await import("../helpers/web-app");
    const { app } = await fullWebApp({
      geocoder: { enabled: true, base_url: "", benchmark: "x", cache_entries: 10, cache_ttl_s: 60 },
    } as any);
    const page = await call(app, `/find?address=${encodeURIComponent("350 S 5th St, Minneapolis, MN")}`);
    expect(page.status).toBe(503);
    expect(page.text).toContain("<strong>Not available on this server.</strong>");
    expect(page.text).toContain("Address search is not available on this server");
    expect(page.text).not.toMatch(/Temporarily unavailable|try again/i);
  });
});
