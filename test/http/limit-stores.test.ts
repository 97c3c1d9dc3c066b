// The shared limits stores (config limits_store: file, redis://…) count exactly as the in-process counters do:
// the same admissions, RateLimit and RateLimit-Policy headers and Retry-After for the same requests at the same
// times (a real Redis server, started here; never a mock). A store that fails or is silent: the request is counted
// in the process's own memory within the store's timeout (fail-open to local limits), never a hang or a 500.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Limiter, lookupTaker, type Caller, type Draw } from "../../src/http/limits";
import { SharedLimiter } from "../../src/http/limit-stores/limiter";
import { FileLimitStore } from "../../src/http/limit-stores/file";
import { RedisLimitStore } from "../../src/http/limit-stores/redis";
import type { SharedStore } from "../../src/http/limit-stores/shared";
import { loadConfig } from "../../src/config/config";
import { startRedis, type Running } from "../helpers/services";
import { mulberry32 } from "../helpers/random";

const small = loadConfig(null, {
  DIRECTORY_LIMITS__ANON_ADDRESS__PER_MINUTE: "4",
  DIRECTORY_LIMITS__ANON_ADDRESS__PER_DAY: "40",
  DIRECTORY_LIMITS__ANON_ALL__PER_MINUTE: "7",
  DIRECTORY_LIMITS__ANON_ALL__PER_DAY: "60",
  DIRECTORY_LIMITS__ANON_LIST_ADDRESS__PER_MINUTE: "2",
  DIRECTORY_LIMITS__LOOKUP__PER_MINUTE: "3",
  DIRECTORY_LIMITS__STANDARD__PER_MINUTE: "5",
}).limits;

let redis: Running;
beforeAll(async () => {
  redis = await startRedis();
}, 30_000);
afterAll(async () => {
  await redis?.stop();
});

const callers: Caller[] = [
  { kind: "anonymous", address: "192.0.2.1" },
  { kind: "anonymous", address: "192.0.2.2" },
  { kind: "anonymous", address: "2001:db8::" },
  { kind: "key", tier: "standard", keyId: "k1" },
  { kind: "service", address: "10.0.0.1" },
];
const draws: Draw[] = ["call", "list", "page"];

/** The same random requests at the same (injected) times through the memory limiter and a shared one: every
 *  outcome, header and Retry-After equal, for 40 minutes of requests crossing minute and hour slots. */
async function sameAsMemory(store: () => SharedStore) {
  let now = 1_700_000_123_456;
  const memory = new Limiter(small, 1000, () => now);
  const shared = new SharedLimiter(new Limiter(small, 1000, () => now), store(), 2000);
  const rnd = mulberry32(7);
  const takeM = lookupTaker(memory);
  const takeS = lookupTaker(shared);
  let refused = 0;
  for (let i = 0; i < 1500; i++) {
    now += Math.floor(rnd() * 3200);
    if (rnd() < 0.1) {
      const a = takeM();
      const b = await takeS();
      expect(b).toEqual(a);
      continue;
    }
    const c = callers[Math.floor(rnd() * callers.length)]!;
    const d = draws[Math.floor(rnd() * draws.length)]!;
    if (rnd() < 0.1) {
      expect(await shared.peekHeaders(c, d)).toEqual(memory.peekHeaders(c, d));
      continue;
    }
    const a = memory.check(c, d);
    const b = await shared.check(c, d);
    expect({ i, ...b }).toEqual({ i, ...a });
    if (!a.ok) refused++;
  }
  expect(shared.fellBack).toBe(0);
  expect(refused).toBeGreaterThan(100); // the limits were reached, many times
  await shared.close();
}

describe("a shared store counts exactly as the memory counters do", () => {
  test("file (SQLite)", () => sameAsMemory(() => new FileLimitStore(":memory:", 250)));
  test(
    "Redis",
    () => sameAsMemory(() => new RedisLimitStore(redis.url, 1000, `t${Math.random().toString(36).slice(2)}:`)),
    60_000,
  );
});

describe("a store that fails or is silent (documented: fail-open to this process's own counters)", () => {
  test("Redis unreachable: every request answered from memory within the timeout, still limited at q", async () => {
    const lines: string[] = [];
    const l = new SharedLimiter(new Limiter(small, 1000), new RedisLimitStore("redis://127.0.0.1:9", 200), 200, (s) =>
      lines.push(s),
    );
    const c: Caller = { kind: "anonymous", address: "198.51.100.1" };
    const t0 = performance.now();
    const ok: boolean[] = [];
    for (let i = 0; i < 6; i++) ok.push((await l.check(c, "call")).ok);
    expect(performance.now() - t0).toBeLessThan(5000);
    expect(ok).toEqual([true, true, true, true, false, false]); // anon_address q = 4, counted in memory
    expect(l.fellBack).toBe(6);
    expect(lines.length).toBe(1); // said once, not once per request
    expect(lines[0]).toContain("requests count in this process's own memory");
    l.close();
  });

  test("a store that never answers: the request goes on after limits_store_timeout_ms", async () => {
    let asked = 0;
    const never: SharedStore = {
      name: "stuck",
      count: () => {
        asked++;
        return new Promise(() => {});
      },
      close() {},
    };
    const l = new SharedLimiter(new Limiter(small, 1000), never, 150);
    const t0 = performance.now();
    const o = await l.check({ kind: "anonymous", address: "198.51.100.2" }, "call");
    const ms = performance.now() - t0;
    expect(o.ok).toBe(true);
    expect(o.headers.RateLimit).toContain('"minute";r=3');
    expect(ms).toBeGreaterThanOrEqual(140);
    expect(ms).toBeLessThan(3000);
    // for the next seconds the store is not asked again: no wait at all
    expect(asked).toBe(1);
    const o2 = await l.check({ kind: "anonymous", address: "198.51.100.2" }, "call");
    expect(o2.ok).toBe(true);
    expect(asked).toBe(1);
  });

  test("Redis stopped mid-run: the next request is answered from memory within the timeout, and the log says so", async () => {
    const r = await startRedis();
    const lines: string[] = [];
    let now = Date.now();
    const l = new SharedLimiter(new Limiter(small, 1000, () => now), new RedisLimitStore(r.url, 300), 300, (s) =>
      lines.push(s),
    );
    const c: Caller = { kind: "key", tier: "standard", keyId: "mid" };
    expect((await l.check(c, "call")).ok).toBe(true);
    expect(l.fellBack).toBe(0);
    await r.stop();
    const t0 = performance.now();
    const o = await l.check(c, "call");
    expect(performance.now() - t0).toBeLessThan(3000);
    expect(o.ok).toBe(true);
    expect(l.fellBack).toBe(1);
    expect(lines.join("\n")).toContain("the redis limits store failed");
    l.close();
  }, 30_000);
});
