import { describe, expect, test } from "bun:test";
import { call, yamlApp, PROBLEMS } from "../helpers/app";
import { Limiter, WindowCounters, lookupTaker } from "../../src/http/limits";
import { LIMIT_CLASSES } from "../../src/config/limits-table";
import { clientAddress, limitKey } from "../../src/http/client-address";
import { loadConfig } from "../../src/config/config";

function clockApp(overrides: any = {}) {
  let now = 1_700_000_000_000;
  const made = yamlApp(overrides, (d) => {
    d.limiter = new Limiter(d.config.limits, d.config.limit_memory, () => now);
  });
  return {
    ...made,
    tick: (ms: number) => {
      now += ms;
    },
  };
}

describe("limits table (spec part 8)", () => {
  test("numbers per class", () => {
    expect(LIMIT_CLASSES.anon_address).toEqual({ per_minute: 10, per_day: 300 });
    expect(LIMIT_CLASSES.anon_all).toEqual({ per_minute: 30, per_day: 600 });
    expect(LIMIT_CLASSES.anon_list_address).toEqual({ per_minute: 5, per_day: 30 });
    expect(LIMIT_CLASSES.anon_list_all).toEqual({ per_minute: 10, per_day: 100 });
    expect(LIMIT_CLASSES.standard).toEqual({ per_minute: 120, per_day: 20000 });
    expect(LIMIT_CLASSES.partner).toEqual({ per_minute: 600, per_day: 200000 });
  });
  test("config file and environment override the numbers", () => {
    const c = loadConfig(null, {
      DIRECTORY_LIMITS__ANON_ADDRESS__PER_MINUTE: "42",
      DIRECTORY_LIMITS__LOOKUP__PER_DAY: "7",
    });
    expect(c.limits.anon_address.per_minute).toBe(42);
    expect(c.limits.lookup.per_day).toBe(7);
    expect(c.limits.partner.per_minute).toBe(600);
  });
});

describe("RateLimit headers (draft-ietf-httpapi-ratelimit-headers-11)", () => {
  test("policy and remaining on every response, counting down", async () => {
    const { app } = clockApp();
    const a = await call(app, "/v1/topics");
    expect(a.headers.get("ratelimit-policy")).toBe('"minute";q=10;w=60, "day";q=300;w=86400');
    expect(a.headers.get("ratelimit")).toMatch(/^"minute";r=9;t=\d+, "day";r=299;t=\d+$/);
    const b = await call(app, "/v1/nope");
    expect(b.headers.get("ratelimit")).toMatch(/^"minute";r=8;t=\d+, "day";r=298;t=\d+$/);
  });
  test("over the per-address minute limit → 429 rate-limited with Retry-After ≥ 1, both headers and X-Request-Id", async () => {
    const { app, tick } = clockApp();
    for (let i = 0; i < 10; i++) expect((await call(app, "/v1/topics")).status).toBe(200);
    const r = await call(app, "/v1/topics", { headers: { "X-Request-Id": "limited-0001" } });
    expect(r.status).toBe(429);
    expect(r.json.type).toBe(`${PROBLEMS}/rate-limited`);
    expect(Number(r.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(Number.isInteger(Number(r.headers.get("retry-after")))).toBe(true);
    expect(r.headers.get("ratelimit-policy")).toBeTruthy();
    expect(r.headers.get("ratelimit")).toMatch(/"minute";r=0;/);
    expect(r.headers.get("x-request-id")).toBe("limited-0001");
    expect(r.headers.get("cache-control")).toBe("no-store");
    // another address is not affected; after waiting, the first one may go on
    expect((await call(app, "/v1/topics", { address: "198.51.100.9" })).status).toBe(200);
    tick(Number(r.headers.get("retry-after")) * 1000);
    expect((await call(app, "/v1/topics")).status).toBe(200);
  });
  test("an IPv6 /64 counts as one address", async () => {
    const { app } = clockApp();
    for (let i = 0; i < 10; i++)
      expect((await call(app, "/v1/topics", { address: `2001:db8:1:2::${(i + 1).toString(16)}` })).status).toBe(200);
    expect((await call(app, "/v1/topics", { address: "2001:db8:1:2:ffff::1" })).status).toBe(429);
    expect((await call(app, "/v1/topics", { address: "2001:db8:1:3::1" })).status).toBe(200);
    expect(limitKey("2001:db8:1:2::5")).toBe(limitKey("2001:0db8:0001:0002:aaaa:bbbb:cccc:dddd"));
    expect(limitKey("::ffff:192.0.2.1")).toBe("192.0.2.1");
  });
  test("all anonymous callers together: 30 per minute", async () => {
    const { app } = clockApp();
    for (let i = 0; i < 30; i++)
      expect((await call(app, "/v1/topics", { address: `192.0.2.${i + 1}` })).status).toBe(200);
    const r = await call(app, "/v1/topics", { address: "192.0.2.200" });
    expect(r.status).toBe(429);
    expect(r.json.type).toBe(`${PROBLEMS}/rate-limited`);
  });
  test("list endpoints have their own tighter per-address and shared buckets", () => {
    let now = 0;
    const l = new Limiter(loadConfig(null, {}).limits, 1000, () => now);
    const anon = { kind: "anonymous", address: "192.0.2.1" } as const;
    for (let i = 0; i < 5; i++) expect(l.check(anon, "list").ok).toBe(true);
    const sixth = l.check(anon, "list");
    expect(sixth.ok).toBe(false);
    expect(sixth.headers["RateLimit-Policy"]).toBe('"minute";q=5;w=60, "day";q=30;w=86400');
    expect(l.check(anon, "call").ok).toBe(true); // non-list endpoints still answer
    for (let i = 2; i <= 6; i++) l.check({ kind: "anonymous", address: `192.0.2.${i}` }, "list");
    const shared = l.check({ kind: "anonymous", address: "192.0.2.99" }, "list");
    expect(shared.ok).toBe(false); // 10 list requests by all anonymous callers in the minute
  });
  test("standard and partner keys have their own numbers", async () => {
    const { app, deps } = clockApp();
    const { key } = deps.keys.create("standard", "s");
    const r = await call(app, "/v1/topics", { headers: { Authorization: `Bearer ${key}` } });
    expect(r.headers.get("ratelimit-policy")).toBe('"minute";q=120;w=60, "day";q=20000;w=86400');
    for (let i = 0; i < 119; i++) await call(app, "/v1/topics", { headers: { Authorization: `Bearer ${key}` } });
    expect((await call(app, "/v1/topics", { headers: { Authorization: `Bearer ${key}` } })).status).toBe(429);
  });
  test("service callers: no RateLimit-Policy, RateLimit still present", async () => {
    const { app } = clockApp({ service_callers: ["10.0.0.0/8"] });
    const r = await call(app, "/v1/topics", { address: "10.1.2.3" });
    expect(r.status).toBe(200);
    expect(r.headers.get("ratelimit-policy")).toBeNull();
    expect(r.headers.get("ratelimit")).toMatch(/^"minute";r=\d+;t=\d+, "day";r=\d+;t=\d+$/);
  });
  test("the lookup-limit bucket is separate and configurable", () => {
    let now = 0;
    const cfg = loadConfig(null, { DIRECTORY_LIMITS__LOOKUP__PER_MINUTE: "2" });
    const l = new Limiter(cfg.limits, 1000, () => now);
    const take = lookupTaker(l);
    expect(take().ok).toBe(true);
    expect(take().ok).toBe(true);
    const third = take();
    expect(third.ok).toBe(false);
    expect(third.retryAfter).toBeGreaterThanOrEqual(1);
    expect(l.check({ kind: "anonymous", address: "192.0.2.1" }, "call").ok).toBe(true);
  });
  test("bucket memory stays bounded when addresses rotate (LRU)", () => {
    const b = new WindowCounters({ per_minute: 10, per_day: 100 }, 500);
    for (let i = 0; i < 20000; i++) b.take(`addr-${i}`);
    expect(b.size).toBe(500);
  });
});

describe("client address", () => {
  test("from the socket unless the socket peer is a trusted proxy", () => {
    const h = new Headers({ "X-Forwarded-For": "198.51.100.1, 10.0.0.2" });
    expect(clientAddress("203.0.113.5", h, [])).toBe("203.0.113.5");
    expect(clientAddress("203.0.113.5", h, ["10.0.0.0/8"])).toBe("203.0.113.5");
    expect(clientAddress("10.0.0.1", h, ["10.0.0.0/8"])).toBe("198.51.100.1");
    expect(clientAddress("10.0.0.1", new Headers(), ["10.0.0.0/8"])).toBe("10.0.0.1");
  });
  test("a spoofed X-Forwarded-For from an untrusted peer does not dodge the limit", async () => {
    const { app } = clockApp();
    for (let i = 0; i < 10; i++) await call(app, "/v1/topics", { headers: { "X-Forwarded-For": `192.0.2.${i}` } });
    expect((await call(app, "/v1/topics", { headers: { "X-Forwarded-For": "192.0.2.250" } })).status).toBe(429);
  });
});
