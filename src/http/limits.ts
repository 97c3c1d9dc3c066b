// In-process token buckets (spec part 8). Each limit class has a minute and a day bucket per key; keys live in
// an LRU so memory stays bounded when addresses rotate. Headers follow draft-ietf-httpapi-ratelimit-headers-11.
import { LRUCache } from "lru-cache";
import type { LimitClass, LimitNumbers } from "../config/limits-table";

const WINDOWS = [
  { name: "minute", seconds: 60, field: "per_minute" },
  { name: "day", seconds: 86400, field: "per_day" },
] as const;

interface BucketState { tokens: [number, number]; at: number }
export interface Take { ok: boolean; retryAfter: number; remaining: [number, number]; reset: [number, number] }

export class TokenBuckets {
  private readonly states: LRUCache<string, BucketState>;
  constructor(readonly numbers: LimitNumbers, maxKeys: number, private readonly now: () => number = Date.now) {
    this.states = new LRUCache({ max: maxKeys });
  }

  get size() { return this.states.size; }

  private refill(key: string): BucketState {
    const t = this.now();
    let s = this.states.get(key);
    if (!s) {
      s = { tokens: [this.numbers.per_minute, this.numbers.per_day], at: t };
      this.states.set(key, s);
      return s;
    }
    const dt = (t - s.at) / 1000;
    WINDOWS.forEach((w, i) => {
      const q = this.numbers[w.field];
      s!.tokens[i] = Math.min(q, s!.tokens[i]! + (dt * q) / w.seconds);
    });
    s.at = t;
    return s;
  }

  /** Look without taking. */
  peek(key: string): Take { return this.view(this.refill(key)); }

  /** Seconds until one token is back in each window that is empty (0 when a token is there). */
  private view(s: BucketState): Take {
    const remaining: [number, number] = [0, 0];
    const reset: [number, number] = [0, 0];
    let retryAfter = 0;
    WINDOWS.forEach((w, i) => {
      const q = this.numbers[w.field];
      const tok = s.tokens[i]!;
      remaining[i] = Math.max(0, Math.floor(tok));
      reset[i] = Math.ceil(((q - tok) * w.seconds) / q);
      if (tok < 1) retryAfter = Math.max(retryAfter, Math.ceil(((1 - tok) * w.seconds) / q));
    });
    return { ok: retryAfter === 0, retryAfter: Math.max(retryAfter, retryAfter ? 1 : 0), remaining, reset };
  }

  take(key: string): Take {
    const s = this.refill(key);
    const v = this.view(s);
    if (!v.ok) return v;
    s.tokens[0] -= 1;
    s.tokens[1] -= 1;
    return { ...this.view(s), ok: true, retryAfter: 0 };
  }

  /** Give back one token (used when a later bucket in the same request refused). */
  giveBack(key: string): void {
    const s = this.states.get(key);
    if (!s) return;
    WINDOWS.forEach((w, i) => { s.tokens[i] = Math.min(this.numbers[w.field], s.tokens[i]! + 1); });
  }
}

export type Caller =
  | { kind: "anonymous"; address: string }
  | { kind: "key"; tier: "standard" | "partner"; keyId: string }
  | { kind: "service"; address: string };

export interface LimitOutcome { ok: boolean; retryAfter: number; headers: Record<string, string> }

export class Limiter {
  readonly buckets: Record<LimitClass, TokenBuckets>;
  constructor(readonly numbers: Record<LimitClass, LimitNumbers>, maxKeys: number, now: () => number = Date.now) {
    this.buckets = Object.fromEntries(
      Object.entries(numbers).map(([k, n]) => [k, new TokenBuckets(n, maxKeys, now)]),
    ) as Record<LimitClass, TokenBuckets>;
  }

  /** The buckets a request draws from, the caller's own class first (its policy is the one advertised). */
  private plan(caller: Caller, list: boolean): [LimitClass, string][] {
    if (caller.kind === "service") return [["service", caller.address]];
    if (caller.kind === "key") return [[caller.tier, caller.keyId]];
    const own: [LimitClass, string][] = list
      ? [["anon_list_address", caller.address], ["anon_address", caller.address]]
      : [["anon_address", caller.address]];
    return [...own, ["anon_all", "*"], ...(list ? ([["anon_list_all", "*"]] as [LimitClass, string][]) : [])];
  }

  check(caller: Caller, list: boolean): LimitOutcome {
    const plan = this.plan(caller, list);
    const taken: [LimitClass, string][] = [];
    const views: Take[] = [];
    let refused: Take | null = null;
    for (const [cls, key] of plan) {
      const t = this.buckets[cls].take(key);
      if (!t.ok) { refused = t; break; }
      taken.push([cls, key]);
      views.push(t);
    }
    if (refused) {
      for (const [cls, key] of taken) this.buckets[cls].giveBack(key);
      const now = plan.map(([cls, key]) => this.buckets[cls].peek(key));
      return { ok: false, retryAfter: Math.max(1, refused.retryAfter), headers: this.headers(caller, plan[0]![0], now) };
    }
    return { ok: true, retryAfter: 0, headers: this.headers(caller, plan[0]![0], views) };
  }

  /** Headers without taking (for responses decided before limits ran, e.g. 401). */
  peekHeaders(caller: Caller, list: boolean): Record<string, string> {
    const plan = this.plan(caller, list);
    return this.headers(caller, plan[0]![0], plan.map(([c, k]) => this.buckets[c].peek(k)));
  }

  private headers(caller: Caller, own: LimitClass, views: Take[]): Record<string, string> {
    const parts = WINDOWS.map((w, i) => {
      let best = views[0]!;
      for (const v of views) if (v.remaining[i]! < best.remaining[i]!) best = v;
      return `"${w.name}";r=${best.remaining[i]};t=${best.reset[i]}`;
    });
    const h: Record<string, string> = { RateLimit: parts.join(", ") };
    if (caller.kind !== "service") {
      const n = this.numbers[own];
      h["RateLimit-Policy"] = WINDOWS.map((w) => `"${w.name}";q=${n[w.field]};w=${w.seconds}`).join(", ");
    }
    return h;
  }
}

/** The separate lookup-limit bucket for new outside lookups (geocoding, screening), shared by all callers. */
export function lookupTaker(limiter: Limiter): () => { ok: boolean; retryAfter: number } {
  return () => {
    const t = limiter.buckets.lookup.take("*");
    return { ok: t.ok, retryAfter: t.ok ? 0 : Math.max(1, t.retryAfter) };
  };
}
