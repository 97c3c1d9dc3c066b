// The soft memory limit (src/cli/memory-limit.ts): a full collection above the limit, never more often than the
// gap, a longer gap while collecting does not help, and nothing at all below the limit or when switched off.
import { describe, expect, test } from "bun:test";
import { MemoryLimit, startMemoryLimit } from "../../src/cli/memory-limit";

const MB = 1024 * 1024;

function limitWith(readings: number[], limitMb = 300) {
  const rss = [...readings];
  const lines: string[] = [];
  let collected = 0;
  const limit = new MemoryLimit({
    limitMb,
    rss: () => (rss.length > 1 ? rss.shift()! : rss[0]!) * MB,
    collect: () => collected++,
    log: (l) => lines.push(l),
    tickMs: 250,
    maxGapMs: 2000,
  });
  return { limit, lines, collected: () => collected };
}

describe("memory limit", () => {
  test("below the limit nothing is collected", () => {
    const m = limitWith([120, 250, 300]);
    for (let t = 0; t < 3000; t += 250) m.limit.tick(t);
    expect(m.collected()).toBe(0);
  });

  test("above the limit: one collection per gap, and the gap stays short while collecting brings it under", () => {
    // over, then under after the collection, over again a tick later, ...
    const m = limitWith([320, 280, 330, 290, 340, 295]);
    for (let t = 0; t <= 1250; t += 250) m.limit.tick(t);
    expect(m.collected()).toBe(3);
    expect(m.lines).toEqual([]);
  });

  test("still above the limit but a tenth of it freed by each collection (garbage): the gap stays short", () => {
    const m = limitWith([400, 340, 400, 340, 400, 340, 400, 340]);
    for (let t = 0; t <= 1750; t += 250) m.limit.tick(t);
    expect(m.collected()).toBe(4); // every other tick: collect, then the reading that shows it helped
    expect(m.lines).toEqual([]);
  });

  test("a collection that does not help doubles the gap up to the longest, says so once, and the gap starts again under the limit", () => {
    const m = limitWith([400]);
    const at: number[] = [];
    for (let t = 0; t <= 10_000; t += 250) {
      const before = m.collected();
      m.limit.tick(t);
      if (m.collected() > before) at.push(t);
    }
    // gaps 250 → 500 → 1000 → 2000 (the longest here), then every 2000 ms
    expect(at.slice(0, 6)).toEqual([0, 500, 1500, 3500, 5500, 7500]);
    expect(m.lines.length).toBe(1);
    expect(m.lines[0]).toContain("above memory_limit_mb 300");
    expect(m.lines[0]).toContain("at most every 2 s");
  });

  test("switched off (0): no timer", () => {
    expect(startMemoryLimit({ limitMb: 0 })).toBeNull();
    const stop = startMemoryLimit({ limitMb: 10_000, collect: () => {} });
    expect(stop).not.toBeNull();
    stop!();
  });
});
