// /find?address=: the page over the in-process resolve call, with the Census geocoder replaced by its loopback
// double (127.0.0.1 only): a match, an approximate match, several (409 with links that resolve), none, the
// geocoder down, and the lookup limit.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { call } from "../helpers/app";
import { fullWebApp } from "../helpers/web-app";
import { startCensusDouble, type CensusDouble } from "../doubles/census-geocoder";

let double: CensusDouble;
const appWith = async (lookupPerMinute = 1000) =>
  (
    await fullWebApp({
      geocoder: { base_url: double.url, benchmark: "Public_AR_Current", cache_entries: 1000, cache_ttl_s: 86400 },
      timeouts: { geocoder_ms: 300, screening_ms: 300, request_ms: 5000 },
      limits: { ...(await fullWebApp()).deps.config.limits, lookup: { per_minute: lookupPerMinute, per_day: 100000 } },
    } as any)
  ).app;
const find = (app: Awaited<ReturnType<typeof appWith>>, address: string) =>
  call(app, `/find?address=${encodeURIComponent(address)}&state=`);

beforeAll(async () => {
  double = await startCensusDouble();
  await appWith();
}, 600_000);
afterAll(() => double.stop());

describe("find by address", () => {
  test("one match: the chain and who does each job, with the matched address", async () => {
    const r = await find(await appWith(), "350 S 5th St, Minneapolis, MN 55415");
    expect(r.status).toBe(200);
    expect(r.text).toContain("Matched address: 350 S 5TH ST, MINNEAPOLIS, MN, 55415");
    expect(r.text).toContain('href="/places/place:2743000"');
    expect(r.text).toContain("Who does each job");
    expect(r.text).toMatch(
      /href="\/screening\?lat=44\.97\d*&amp;lon=-93\.\d+"|href="\/screening\?lat=44\.97\d*&lon=-93\.\d+"/,
    );
  });
  test("a street-only match says it is approximate", async () => {
    const r = await find(await appWith(), "street only");
    expect(r.status).toBe(200);
    expect(r.text).toContain("approximate: only a street or area matched");
  });
  test("several: 409 with one link per candidate, each of which resolves", async () => {
    const app = await appWith();
    const r = await find(app, "100 main st springfield");
    expect(r.status).toBe(409);
    const links = [...r.text.matchAll(/href="(\/find\?lat=[^"]+)"/g)].map((m) => m[1]!.replaceAll("&amp;", "&"));
    expect(links.length).toBe(2);
    for (const l of links) expect((await call(app, l)).status).toBe(200);
  });
  test("none → 404 page; geocoder down → 503 page; neither cached", async () => {
    const app = await appWith();
    const none = await find(app, "1 nowhere lane");
    expect(none.status).toBe(404);
    expect(none.text).toContain("Nothing found");
    const down = await find(app, "boom street");
    expect(down.status).toBe(503);
    expect(down.headers.get("cache-control")).toBe("no-store");
  });
  test("the lookup limit → 429 page with Retry-After", async () => {
    const app = await appWith(1);
    expect((await find(app, "1 nowhere x")).status).toBe(404);
    const r = await find(app, "1 nowhere y");
    expect(r.status).toBe(429);
    expect(Number(r.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(r.headers.get("content-type")).toBe("text/html; charset=utf-8");
  });
});
