// In-process request limits (spec part 8). Each limit class has a minute and a day window per key. A window of w
// seconds is counted in k slots of w/k seconds; a request is admitted when the requests admitted in the slots
// that overlap the last w seconds (k+1 slots: the current one and the k before it) are fewer than the quota q.
// Those slots always cover the whole last w seconds, so no window of w seconds, wherever it starts, ever holds
// more than q admitted requests (a token bucket that refills while it drains admits up to 2q). The price: a
// caller at the limit gets q per w + w/k, slightly under q per w. Keys live in an LRU so memory stays bounded
// when addresses rotate (k+1 counters per window per key). Headers: draft-ietf-httpapi-ratelimit-headers-11.
import { LRUCache } from "lru-cache";
import type { LimitClass, LimitNumbers } from "../config/limits-table";
import type { LookupCharge, TakeLookup } from "../lookups/charge";

/** Windows and their slot counts: the minute in 12 slots of 5 s, the day in 24 slots of an hour. */
export const WINDOWS = [
  { name: "minute", seconds: 60, field: "per_minute", slots: 12 },
  { name: "day", seconds: 86400, field: "per_day", slots: 24 },
] as const;
const RING = WINDOWS.map((w) => w.slots + 1);
const OFFSET = [0, RING[0]!];
const CELLS = RING[0]! + RING[1]!;
const SLOT_MS = WINDOWS.map((w) => (w.seconds * 1000) / w.slots);

/** Per key: count and absolute slot number of each ring cell (both windows side by side), and per window the
 * newest slot seen (`head`) and the running total of the live cells (cells always hold slots head-k … head). */
interface Counters {
  count: Int32Array;
  slot: Float64Array;
  head: Float64Array;
  total: Float64Array;
}
export interface Take {
  ok: boolean;
  retryAfter: number;
  remaining: [number, number];
  reset: [number, number];
}

export class WindowCounters {
  private readonly states: LRUCache<string, Counters>;
  private readonly quota: [number, number];
  constructor(
    readonly numbers: LimitNumbers,
    maxKeys: number,
    private readonly now: () => number = Date.now,
  ) {
    this.states = new LRUCache({ max: maxKeys });
    this.quota = [numbers.per_minute, numbers.per_day];
  }

  get size() {
    return this.states.size;
  }

  /** Move window w to slot `cur` (never back: an earlier time counts in the newest slot): cells of slots that
   * left the window are emptied and taken off the total. Returns the slot used. */
  private advance(c: Counters, w: number, cur: number): number {
    const head = c.head[w]!;
    if (cur <= head) return head;
    const base = OFFSET[w]!,
      ring = RING[w]!;
    for (let s = Math.max(head + 1, cur - ring + 1); s <= cur; s++) {
      const i = base + (s % ring);
      c.total[w]! -= c.count[i]!;
      c.count[i] = 0;
      c.slot[i] = s;
    }
    c.head[w] = cur;
    return cur;
  }

  /** Requests counted in window w (the k+1 slots overlapping the last w seconds) and the newest slot holding one. */
  private used(c: Counters, w: number, cur: number): [number, number] {
    const head = this.advance(c, w, cur);
    const base = OFFSET[w]!,
      ring = RING[w]!;
    let newest = -1;
    for (let s = head; s > head - ring; s--)
      if (c.count[base + (s % ring)]! > 0) {
        newest = s;
        break;
      }
    return [c.total[w]!, newest];
  }

  /** Seconds until `need` fewer requests are counted in window w (slots leave the count k+1 slots after theirs). */
  private secondsUntilFreed(c: Counters, w: number, t: number, need: number): number {
    const base = OFFSET[w]!,
      k = RING[w]! - 1;
    const live: [number, number][] = [];
    for (let i = 0; i <= k; i++) {
      const s = c.slot[base + i]!;
      if (s > c.head[w]! - k - 1 && c.count[base + i]! > 0) live.push([s, c.count[base + i]!]);
    }
    live.sort((a, b) => a[0] - b[0]);
    let freed = 0;
    for (const [s, n] of live) {
      freed += n;
      if (freed >= need) return Math.max(0, ((s + k + 1) * SLOT_MS[w]! - t) / 1000);
    }
    return 0;
  }

  private view(c: Counters | undefined, t: number): Take {
    const remaining: [number, number] = [0, 0],
      reset: [number, number] = [0, 0];
    let retryAfter = 0;
    for (let w = 0; w < 2; w++) {
      const cur = Math.floor(t / SLOT_MS[w]!);
      const [u, newest] = c ? this.used(c, w, cur) : [0, -1];
      remaining[w] = Math.max(0, this.quota[w]! - u);
      // t of RateLimit: seconds until everything counted now has left the window (the quota is whole again)
      reset[w] = u > 0 ? Math.max(0, Math.ceil(((newest + RING[w]!) * SLOT_MS[w]! - t) / 1000)) : 0;
      if (u >= this.quota[w]!) {
        // a quota of 0 frees nothing: wait a whole window
        let wait = c ? this.secondsUntilFreed(c, w, t, u - this.quota[w]! + 1) : 0;
        if (wait <= 0) wait = WINDOWS[w]!.seconds;
        retryAfter = Math.max(retryAfter, Math.ceil(wait), 1);
      }
    }
    return { ok: retryAfter === 0, retryAfter, remaining, reset };
  }

  /** Look without taking. */
  peek(key: string): Take {
    return this.view(this.states.peek(key), this.now());
  }

  /** Count a request in both windows (by = -1 takes a count back). */
  private count(c: Counters, t: number, by: number): void {
    for (let w = 0; w < 2; w++) {
      const cur = this.advance(c, w, Math.floor(t / SLOT_MS[w]!));
      c.count[OFFSET[w]! + (cur % RING[w]!)]! += by;
      c.total[w]! += by;
    }
  }

  /** Take back a request taken at time t (a later bucket of the same request refused it). */
  untake(key: string, t: number): void {
    const c = this.states.peek(key);
    if (c) this.count(c, t, -1);
  }

  /** Take one request if both windows admit it, at time t (the same t undoes it with untake). */
  take(key: string, t: number = this.now()): Take {
    let c = this.states.get(key);
    const cur0 = Math.floor(t / SLOT_MS[0]!),
      cur1 = Math.floor(t / SLOT_MS[1]!);
    // admitted while both windows count fewer than their quota (the refusal, with its waits, is view's)
    let u0 = 0,
      u1 = 0;
    if (c) {
      this.advance(c, 0, cur0);
      this.advance(c, 1, cur1);
      u0 = c.total[0]!;
      u1 = c.total[1]!;
    }
    if (u0 >= this.quota[0] || u1 >= this.quota[1]) return this.view(c, t);
    if (!c) {
      c = {
        count: new Int32Array(CELLS),
        slot: new Float64Array(CELLS).fill(-1),
        head: new Float64Array([-1, -1]),
        total: new Float64Array(2),
      };
      this.states.set(key, c);
    }
    this.count(c, t, 1);
    // the request just counted sits in the current slot: one fewer remaining, and the reset runs from now
    return {
      ok: true,
      retryAfter: 0,
      remaining: [Math.max(0, this.quota[0] - u0 - 1), Math.max(0, this.quota[1] - u1 - 1)],
      reset: [
        Math.ceil(((cur0 + RING[0]!) * SLOT_MS[0]! - t) / 1000),
        Math.ceil(((cur1 + RING[1]!) * SLOT_MS[1]! - t) / 1000),
      ],
    };
  }
}

export type Caller =
  | { kind: "anonymous"; address: string }
  | { kind: "key"; tier: "standard" | "partner"; keyId: string }
  | { kind: "service"; address: string };

export interface LimitOutcome {
  ok: boolean;
  retryAfter: number;
  headers: Record<string, string>;
}

/** Classes drawn on under the one key "*" (shared by every caller): an LRU of 8 is plenty, not one of maxKeys. */
const SHARED_CLASSES = new Set<string>(["anon_all", "anon_list_all", "lookup", "pages_all"]);

/** What a request is: an API call, an API list (places, resources), or a page for people. */
export type Draw = "call" | "list" | "page";

/** What the front door, the pages, the lookups and the assistant calls ask: the in-process Limiter answers at once;
 *  the shared one (src/http/limit-stores/limiter.ts) may answer later. */
export interface Limits {
  readonly numbers: Record<LimitClass, LimitNumbers>;
  check(caller: Caller, what: Draw): LimitOutcome | Promise<LimitOutcome>;
  take(cls: LimitClass, key: string): Take | Promise<Take>;
  peekHeaders(caller: Caller, what: Draw): Record<string, string> | Promise<Record<string, string>>;
  headers(service: boolean, own: LimitClass, views: Take[]): Record<string, string>;
}

export class Limiter implements Limits {
  readonly buckets: Record<LimitClass, WindowCounters>;
  constructor(
    readonly numbers: Record<LimitClass, LimitNumbers>,
    maxKeys: number,
    readonly now: () => number = Date.now,
  ) {
    // each class's counters are made on its first use: an LRU sized for maxKeys costs time and memory at start,
    // and most servers never see most classes (service, partner, lookup ...)
    const buckets = {} as Record<LimitClass, WindowCounters>;
    for (const [k, n] of Object.entries(numbers)) {
      Object.defineProperty(buckets, k, {
        enumerable: true,
        configurable: true,
        get: () => {
          const w = new WindowCounters(n, SHARED_CLASSES.has(k) ? 8 : maxKeys, now);
          Object.defineProperty(buckets, k, { value: w, enumerable: true });
          return w;
        },
      });
    }
    this.buckets = buckets;
  }

  /** The buckets a request draws from, the caller's own class first (its policy is the one advertised). A page
   * (the HTML for people, `what` "page") draws from the pages' classes, never from the API's. */
  bucketsOf(caller: Caller, what: Draw): [LimitClass, string][] {
    if (caller.kind === "service") return [["service", caller.address]];
    if (caller.kind === "key") return [[caller.tier, caller.keyId]];
    if (what === "page")
      return [
        ["pages_address", caller.address],
        ["pages_all", "*"],
      ];
    return what === "list"
      ? [
          ["anon_list_address", caller.address],
          ["anon_address", caller.address],
          ["anon_all", "*"],
          ["anon_list_all", "*"],
        ]
      : [
          ["anon_address", caller.address],
          ["anon_all", "*"],
        ];
  }

  /** Admit a request only when every bucket it draws from admits it; then it counts in all of them. */
  check(caller: Caller, what: Draw): LimitOutcome {
    const keys = this.bucketsOf(caller, what);
    const service = caller.kind === "service";
    const t = this.now();
    const views: Take[] = [];
    for (let i = 0; i < keys.length; i++) {
      const [cls, key] = keys[i]!;
      const v = this.buckets[cls].take(key, t);
      if (!v.ok) {
        for (let j = 0; j < i; j++) this.buckets[keys[j]![0]].untake(keys[j]![1], t);
        const now = keys.map(([c, k]) => this.buckets[c].peek(k));
        const retryAfter = Math.max(1, ...now.map((x) => x.retryAfter));
        return { ok: false, retryAfter, headers: this.headers(service, keys[0]![0], now) };
      }
      views.push(v);
    }
    return { ok: true, retryAfter: 0, headers: this.headers(service, keys[0]![0], views) };
  }

  /** Take one request from one bucket (the lookup limit, the assistant calls). */
  take(cls: LimitClass, key: string): Take {
    return this.buckets[cls].take(key);
  }

  /** Headers without taking (for responses decided before limits ran, e.g. 401). */
  peekHeaders(caller: Caller, what: Draw): Record<string, string> {
    const keys = this.bucketsOf(caller, what);
    return this.headers(
      caller.kind === "service",
      keys[0]![0],
      keys.map(([c, k]) => this.buckets[c].peek(k)),
    );
  }

  private readonly policies = new Map<LimitClass, string>();

  /** RateLimit: per window the smallest remaining among the buckets drawn from; RateLimit-Policy: `own`'s. */
  headers(service: boolean, own: LimitClass, views: Take[]): Record<string, string> {
    let m = views[0]!,
      d = views[0]!;
    for (let i = 1; i < views.length; i++) {
      const v = views[i]!;
      if (v.remaining[0] < m.remaining[0]) m = v;
      if (v.remaining[1] < d.remaining[1]) d = v;
    }
    const h: Record<string, string> = {
      RateLimit: `"minute";r=${m.remaining[0]};t=${m.reset[0]}, "day";r=${d.remaining[1]};t=${d.reset[1]}`,
    };
    if (!service) {
      let p = this.policies.get(own);
      if (!p) {
        const n = this.numbers[own];
        p = WINDOWS.map((w) => `"${w.name}";q=${n[w.field]};w=${w.seconds}`).join(", ");
        this.policies.set(own, p);
      }
      h["RateLimit-Policy"] = p;
    }
    return h;
  }
}

/** The separate lookup-limit bucket for new outside lookups (geocoding, screening), shared by all callers. A
 * refusal carries the lookup bucket's own RateLimit and RateLimit-Policy for the 429. */
export function lookupTaker(limiter: Limiter): () => Required<LookupCharge>;
export function lookupTaker(limiter: Limits): TakeLookup;
export function lookupTaker(limiter: Limits): TakeLookup {
  const charge = (t: Take): Required<LookupCharge> => ({
    ok: t.ok,
    retryAfter: t.ok ? 0 : Math.max(1, t.retryAfter),
    headers: limiter.headers(false, "lookup", [t]),
  });
  return () => {
    const t = limiter.take("lookup", "*");
    return t instanceof Promise ? t.then(charge) : charge(t);
  };
}
