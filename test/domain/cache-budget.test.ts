// Caches that callers' input fills are bounded in bytes (src/domain/cache-budget.ts), not only in entries: random
// points over the whole country fill each to its budget and no further (issue 19, item 3; bench/fuzz.ts measures RSS).
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { LRUCache } from "lru-cache";
import { CACHE_MB, budgeted, estimateBytes } from "../../src/domain/cache-budget";

const srcFiles = (dir: string): string[] =>
  readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? srcFiles(p) : p.endsWith(".ts") ? [p] : [];
  });

describe("cache budgets", () => {
  test("an entry's estimate grows with its JSON; a budgeted cache evicts by bytes before its entry count", () => {
    const big = {
      items: Array.from({ length: 200 }, (_, i) => ({ url: `https://example.gov/${i}`, title: "x".repeat(60) })),
    };
    expect(estimateBytes(big)).toBeGreaterThan(3 * JSON.stringify(big).length);
    const c = new LRUCache<string, typeof big>(budgeted<typeof big>("screening_facts", 5_000));
    for (let i = 0; i < 5_000; i++) c.set(`chain-${i}`, big);
    expect(c.calculatedSize).toBeLessThanOrEqual(CACHE_MB.screening_facts * 1024 * 1024);
    expect(c.size).toBeLessThan(5_000); // a count-only LRU would keep all 5,000 (~300 MB of estimates)
    expect(c.has("chain-4999")).toBe(true); // the newest stay
    expect(c.has("chain-0")).toBe(false);
  });

  test("every LRU and TTL cache in src is bounded in bytes, except the limiter's fixed-size counters", () => {
    const unbounded: string[] = [];
    for (const f of srcFiles(join(import.meta.dir, "../../src"))) {
      const text = readFileSync(f, "utf8");
      for (const m of text.matchAll(/new (?:LRUCache|TtlCache)(?:<[^>]*>)?\(([\s\S]{0,200})/g)) {
        const args = m[1]!;
        if (/budgeted[<(]|maxSize/.test(args)) continue;
        if (f.endsWith("http/limits.ts")) continue; // 2 x 37 counters per key, at most limit_memory keys
        if (f.endsWith("lookups/cache.ts")) continue; // TtlCache itself: its callers are checked here
        unbounded.push(`${f.split("/src/")[1]}: new LRUCache(${args.slice(0, 40)}`);
      }
    }
    expect(unbounded).toEqual([]);
  });
});
