import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { DomainError } from "../../src/domain/errors.ts";
import { CensusGeocoder, isApproximate, leadingHouseNumber } from "../../src/lookups/geocoder/census.ts";
import { AddressLookup } from "../../src/lookups/geocoder/service.ts";
import { TtlCache, h3Key, normaliseAddress } from "../../src/lookups/cache.ts";
import { singleFlight } from "../../src/lookups/single-flight.ts";
import { UpstreamError, getJson } from "../../src/lookups/http-client.ts";
import { SLOW_MS, startCensusDouble, type CensusDouble } from "../doubles/census-geocoder.ts";

let double: CensusDouble;
beforeAll(async () => {
  double = await startCensusDouble();
});
afterAll(() => double.stop());

function limiter(budget = Infinity, retryAfter = 30) {
  let taken = 0;
  return {
    take: () => {
      if (taken >= budget) return { ok: false, retryAfter };
      taken++;
      return { ok: true, retryAfter: 0 };
    },
    taken: () => taken,
  };
}

function setup(opts: { budget?: number; retryAfter?: number; timeoutMs?: number } = {}) {
  const lim = limiter(opts.budget, opts.retryAfter);
  const client = new CensusGeocoder({ baseUrl: double.url, timeoutMs: opts.timeoutMs ?? 200 });
  const lookup = new AddressLookup({ client, ttlMs: 60_000, maxEntries: 100, takeLookup: lim.take });
  return { lookup, lim, client };
}

async function domainError(p: Promise<unknown>): Promise<DomainError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(DomainError);
    return err as DomainError;
  }
  throw new Error("expected a DomainError");
}

describe("AddressLookup over the Census double", () => {
  test("one match", async () => {
    const { lookup } = setup();
    const r = await lookup.geocode("350 S 5th St, Minneapolis, MN 55415");
    expect(r).toEqual({
      kind: "match",
      label: "350 S 5TH ST, MINNEAPOLIS, MN, 55415",
      lon: -93.26477,
      lat: 44.97708,
      approximate: false,
    });
  });

  test("several matches → ambiguous with choices", async () => {
    const { lookup } = setup();
    const e = await domainError(lookup.geocode("100 Main St Springfield"));
    expect(e.suffix).toBe("ambiguous");
    expect(e.extra.choices).toEqual([
      { label: "100 MAIN ST, SPRINGFIELD, IL, 62701", lat: 39.7817, lon: -89.6501 },
      { label: "100 MAIN ST, SPRINGFIELD, MA, 01103", lat: 42.1015, lon: -72.5898 },
    ]);
  });

  test("ambiguous answer is cached", async () => {
    const { lookup, lim } = setup();
    const before = double.calls();
    expect((await domainError(lookup.geocode("1 main st springfield"))).suffix).toBe("ambiguous");
    expect((await domainError(lookup.geocode("1 Main St. Springfield"))).suffix).toBe("ambiguous");
    expect(double.calls() - before).toBe(1);
    expect(lim.taken()).toBe(1);
  });

  test("identical candidates are merged into one match", async () => {
    const { lookup } = setup();
    const r = await lookup.geocode("350 dupes st");
    expect(r.label).toBe("350 S 5TH ST, MINNEAPOLIS, MN, 55415");
  });

  test("none → address-not-found, and the negative answer is cached", async () => {
    const { lookup, lim } = setup();
    const before = double.calls();
    expect((await domainError(lookup.geocode("12 Nowhere Lane"))).suffix).toBe("address-not-found");
    expect((await domainError(lookup.geocode("12 nowhere lane"))).suffix).toBe("address-not-found");
    expect(double.calls() - before).toBe(1);
    expect(lim.taken()).toBe(1);
  });

  test("street-only match is approximate", async () => {
    const { lookup } = setup();
    const r = await lookup.geocode("street only S 5th St Minneapolis");
    expect(r.approximate).toBe(true);
    expect(r.label).toBe("S 5TH ST, MINNEAPOLIS, MN, 55415");
  });

  for (const [name, text, reason] of [
    ["HTTP 500", "1 boom st", "http-status"],
    ["garbage (non-JSON)", "1 garbage st", "bad-json"],
    ["wrong shape", "1 wrongshape st", "bad-reply"],
    ["coordinates out of range", "1 badcoords st", "bad-reply"],
    ["reply over 1 MiB", "1 huge st", "too-large"],
  ] as const) {
    test(`${name} → upstream-unavailable`, async () => {
      const { lookup } = setup();
      const e = await domainError(lookup.geocode(text));
      expect(e.suffix).toBe("upstream-unavailable");
      expect(((e as Error).cause as UpstreamError).reason).toBe(reason);
    });
  }

  test("slow upstream → upstream-unavailable within the timeout", async () => {
    const { lookup } = setup({ timeoutMs: 200 });
    const t0 = performance.now();
    const e = await domainError(lookup.geocode("1 slow st"));
    const took = performance.now() - t0;
    expect(e.suffix).toBe("upstream-unavailable");
    expect(took).toBeLessThan(SLOW_MS); // given up at the 200 ms timeout, never waiting for the slow reply
  });

  test("network failure (nothing listening) → upstream-unavailable", async () => {
    const dead = await startCensusDouble();
    const url = dead.url;
    dead.stop();
    const lookup = new AddressLookup({
      client: new CensusGeocoder({ baseUrl: url, timeoutMs: 500 }),
      maxEntries: 10,
      takeLookup: () => ({ ok: true, retryAfter: 0 }),
    });
    expect((await domainError(lookup.geocode("350 s 5th st"))).suffix).toBe("upstream-unavailable");
  });

  test("failure is not cached: a second call asks again", async () => {
    const { lookup, lim } = setup();
    const before = double.calls();
    expect((await domainError(lookup.geocode("2 boom st"))).suffix).toBe("upstream-unavailable");
    expect((await domainError(lookup.geocode("2 boom st"))).suffix).toBe("upstream-unavailable");
    expect(double.calls() - before).toBe(2);
    expect(lim.taken()).toBe(2);
  });

  test("success is cached: no request and no limiter charge the second time", async () => {
    const { lookup, lim } = setup();
    const before = double.calls();
    const a = await lookup.geocode("350 s 5th st minneapolis");
    const b = await lookup.geocode("350 s 5th st minneapolis");
    expect(b).toEqual(a);
    expect(double.calls() - before).toBe(1);
    expect(lim.taken()).toBe(1);
  });

  test("concurrent identical calls → one upstream request, one charge", async () => {
    const { lookup, lim } = setup();
    const before = double.calls();
    const results = await Promise.all(Array.from({ length: 8 }, () => lookup.geocode("350 S 5th St Mpls")));
    expect(double.calls() - before).toBe(1);
    expect(lim.taken()).toBe(1);
    for (const r of results) expect(r.label).toBe("350 S 5TH ST, MINNEAPOLIS, MN, 55415");
  });

  test("concurrent identical failing calls share the one failure", async () => {
    const { lookup } = setup();
    const before = double.calls();
    const settled = await Promise.allSettled(Array.from({ length: 5 }, () => lookup.geocode("3 boom st")));
    expect(double.calls() - before).toBe(1);
    for (const s of settled) {
      expect(s.status).toBe("rejected");
      expect(((s as PromiseRejectedResult).reason as DomainError).suffix).toBe("upstream-unavailable");
    }
  });

  test("lookup limit exhausted → lookup-limit with retryAfter ≥ 1, no request", async () => {
    const { lookup } = setup({ budget: 1, retryAfter: 0.2 });
    await lookup.geocode("350 s 5th st");
    const before = double.calls();
    const e = await domainError(lookup.geocode("4 nowhere lane"));
    expect(e.suffix).toBe("lookup-limit");
    expect(e.extra.retryAfter).toBeGreaterThanOrEqual(1);
    expect(double.calls()).toBe(before);
    // a cached answer is still served when the limit is exhausted
    expect((await lookup.geocode("350 S 5th St")).lat).toBe(44.97708);
  });

  test("normalised keys share one entry", async () => {
    const { lookup, lim } = setup();
    const before = double.calls();
    await lookup.geocode("350  S 5th St.");
    await lookup.geocode("350 s 5th st");
    expect(double.calls() - before).toBe(1);
    expect(lim.taken()).toBe(1);
  });

  test("empty address → bad-parameter without a charge", async () => {
    const { lookup, lim } = setup();
    expect((await domainError(lookup.geocode("  ,. "))).suffix).toBe("bad-parameter");
    expect(lim.taken()).toBe(0);
  });

  test("the double saw the documented query parameters", () => {
    expect(double.addresses()).toContain("350 s 5th st");
  });
});

describe("helpers", () => {
  test("normaliseAddress", () => {
    expect(normaliseAddress("350  S 5th St.")).toBe("350 s 5th st");
    expect(normaliseAddress("  12-34 Main St., Apt #5, Queens, NY 11375-1234 ")).toBe(
      "12-34 main st apt #5 queens ny 11375-1234",
    );
    expect(normaliseAddress("O'Brien Rd - North")).toBe("obrien rd north");
  });

  test("approximate rule", () => {
    expect(leadingHouseNumber("350 S 5th St")).toBe("350");
    expect(leadingHouseNumber("350A S 5th St")).toBe("350");
    expect(leadingHouseNumber("5th St")).toBeNull();
    expect(isApproximate("350", "300", "398")).toBe(false);
    expect(isApproximate("350", "398", "300")).toBe(false);
    expect(isApproximate("500", "300", "398")).toBe(true);
    expect(isApproximate(null, "300", "398")).toBe(true);
    expect(isApproximate("350", "", "")).toBe(true);
  });

  test("h3Key", () => {
    const k = h3Key(44.97708, -93.26477, 9);
    expect(k).toMatch(/^[0-9a-f]{15}$/);
    expect(h3Key(44.97708, -93.26477, 9)).toBe(k);
    expect(() => h3Key(95, 0, 9)).toThrow(RangeError);
  });

  test("TtlCache expires entries", async () => {
    const c = new TtlCache<string, number>({ max: 2, ttl: 30 });
    c.set("a", 1);
    expect(c.get("a")).toBe(1);
    await Bun.sleep(60);
    expect(c.get("a")).toBeUndefined();
    c.set("a", 1);
    c.set("b", 2);
    c.set("c", 3);
    expect(c.size).toBe(2);
    expect(c.get("a")).toBeUndefined();
  });

  test("singleFlight shares and then forgets", async () => {
    const sf = singleFlight<string, number>();
    let runs = 0;
    const fn = async () => {
      runs++;
      await Bun.sleep(10);
      return 7;
    };
    const [a, b] = await Promise.all([sf.run("k", fn), sf.run("k", fn)]);
    expect([a, b, runs]).toEqual([7, 7, 1]);
    expect(sf.has("k")).toBe(false);
    await sf.run("k", fn);
    expect(runs).toBe(2);
  });

  test("getJson reports typed reasons", async () => {
    const reason = async (p: Promise<unknown>) => {
      try {
        await p;
      } catch (e) {
        expect(e).toBeInstanceOf(UpstreamError);
        return (e as UpstreamError).reason;
      }
      return "none";
    };
    const base = `${double.url}/geocoder/locations/onelineaddress?benchmark=Public_AR_Current&format=json&address=`;
    expect(await reason(getJson(base + "boom", { timeoutMs: 500 }))).toBe("http-status");
    expect(await reason(getJson(base + "garbage", { timeoutMs: 500 }))).toBe("bad-json");
    expect(await reason(getJson(base + "slow", { timeoutMs: 100 }))).toBe("timeout");
    expect(await reason(getJson(base + "huge", { timeoutMs: 2000 }))).toBe("too-large");
    expect(await reason(getJson(`${double.url}/nope`, { timeoutMs: 500 }))).toBe("http-status");
    expect(await getJson(base + "nowhere", { timeoutMs: 500 })).toMatchObject({ result: { addressMatches: [] } });
  });
});
