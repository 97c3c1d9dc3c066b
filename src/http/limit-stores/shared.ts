// Limit counters kept outside the process (config limits_store): the same sliding-window rule as the in-process
// counters (src/http/limits.ts, WINDOWS: the minute in 12 slots of 5 s, the day in 24 slots of an hour), counted
// in a store several processes share. A store counts a whole plan at once, atomically: it reads every bucket's
// slots that overlap the last w seconds, admits only when each bucket holds fewer than its quota in both windows,
// and then counts the request in every bucket of the plan (none when one refuses). It answers the slot counts it
// saw (after the take), from which the views (remaining, reset, retry-after) are worked out here exactly as the
// in-process counters work them out.
import type { Take } from "../limits";
import { WINDOWS } from "../limits";

export const SLOT_MS = WINDOWS.map((w) => (w.seconds * 1000) / w.slots) as [number, number];
/** Slots that overlap the last w seconds: the current one and the k before it. */
export const RING = WINDOWS.map((w) => w.slots + 1) as [number, number];

export interface BucketAsk {
  /** the limit class and the caller's key, e.g. "anon_address\u0000203.0.113.7" */
  id: string;
  quota: [number, number];
}
/** Per bucket and window, the counts of the k+1 slots ending at the current one (oldest first). */
type SlotCounts = [number[], number[]];
/** What a store saw: admitted, with each bucket's count in both windows after the take (`used`), or not (refused,
 *  or only read), with each bucket's slot counts (`slots`), from which the waits are worked out. */
export type Counted =
  { t: number; admitted: true; used: [number, number][] } | { t: number; admitted: false; slots: SlotCounts[] };

export interface SharedStore {
  readonly name: string;
  /** Count (take = true) or only read (take = false) the plan's buckets at time t (0 = the store's own clock). */
  count(asks: BucketAsk[], take: boolean, t: number): Counted | Promise<Counted>;
  close(): void | Promise<void>;
}

export const currentSlots = (t: number): [number, number] => [Math.floor(t / SLOT_MS[0]), Math.floor(t / SLOT_MS[1])];

/** The views of a counted plan, the same numbers the in-process counters give: an admitted request sees its own
 *  count in the current slot; a refused plan sees every bucket as it stands (nothing was counted). */
export function viewsOf(asks: BucketAsk[], c: Counted): Take[] {
  const cur = currentSlots(c.t);
  if (c.admitted)
    return asks.map((a, i) => {
      const used = c.used[i]!;
      return {
        ok: true,
        retryAfter: 0,
        remaining: [Math.max(0, a.quota[0] - used[0]), Math.max(0, a.quota[1] - used[1])],
        reset: [0, 1].map((w) => Math.ceil(((cur[w]! + RING[w]!) * SLOT_MS[w]! - c.t) / 1000)) as [number, number],
      };
    });
  return asks.map((a, i) => {
    const slots = c.slots[i]!;
    const remaining: [number, number] = [0, 0],
      reset: [number, number] = [0, 0];
    let retryAfter = 0;
    for (let w = 0; w < 2; w++) {
      const counts = slots[w]!;
      const q = a.quota[w]!;
      const ring = RING[w]!;
      let used = 0,
        newest = -1;
      for (let j = 0; j < counts.length; j++)
        if (counts[j]! > 0) {
          used += counts[j]!;
          newest = cur[w]! - (counts.length - 1 - j);
        }
      remaining[w] = Math.max(0, q - used);
      reset[w] = used > 0 ? Math.max(0, Math.ceil(((newest + ring) * SLOT_MS[w]! - c.t) / 1000)) : 0;
      if (used >= q) {
        // seconds until enough slots leave the window (a slot leaves k+1 slots after its own); a quota of 0 frees
        // nothing: a whole window
        let need = used - q + 1,
          wait = 0;
        for (let j = 0; j < counts.length && need > 0; j++) {
          if (!(counts[j]! > 0)) continue;
          need -= counts[j]!;
          if (need <= 0) {
            const s = cur[w]! - (counts.length - 1 - j);
            wait = Math.max(0, ((s + ring) * SLOT_MS[w]! - c.t) / 1000);
          }
        }
        if (wait <= 0) wait = WINDOWS[w]!.seconds;
        retryAfter = Math.max(retryAfter, Math.ceil(wait), 1);
      }
    }
    return { ok: retryAfter === 0, retryAfter, remaining, reset };
  });
}
