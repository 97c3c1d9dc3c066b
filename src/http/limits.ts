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
    if (dt > 0) {
      const qm = this.numbers.per_minute, qd = this.numbers.per_day;
      s.tokens[0] = Math.min(qm, s.tokens[0] + (dt * qm) / 60);
      s.tokens[1] = Math.min(qd, s.tokens[1] + (dt * qd) / 86400);
      s.at = t;
    }
    return s;
  }

  /** Look without taking. */
  peek(key: string): Take { return this.view(this.refill(key)); }

  /** Remaining and reset per window, and seconds until one token is back where a window is empty. */
  private view(s: BucketState): Take {
    const qm = this.numbers.per_minute, qd = this.numbers.per_day;
    const tm = s.tokens[0], td = s.tokens[1];
    let retryAfter = 0;
    if (tm < 1) retryAfter = Math.ceil(((1 - tm) * 60) / qm);
    if (td < 1) retryAfter = Math.max(retryAfter, Math.ceil(((1 - td) * 86400) / qd));
    return {
      ok: retryAfter === 0,
      retryAfter,
      remaining: [Math.max(0, Math.floor(tm)), Math.max(0, Math.floor(td))],
      reset: [Math.ceil(((qm - tm) * 60) / qm), Math.ceil(((qd - td) * 86400) / qd)],
    };
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
    s.tokens[0] = Math.min(this.numbers.per_minute, s.tokens[0] + 1);
    s.tokens[1] = Math.min(this.numbers.per_day, s.tokens[1] + 1);
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

  private readonly policies = new Map<LimitClass, string>();

  private headers(caller: Caller, own: LimitClass, views: Take[]): Record<string, string> {
    let m = views[0]!, d = views[0]!;
    for (let i = 1; i < views.length; i++) {
      const v = views[i]!;
      if (v.remaining[0] < m.remaining[0]) m = v;
      if (v.remaining[1] < d.remaining[1]) d = v;
    }
    const h: Record<string, string> = { RateLimit: `"minute";r=${m.remaining[0]};t=${m.reset[0]}, "day";r=${d.remaining[1]};t=${d.reset[1]}` };
    if (caller.kind !== "service") {
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

/** The separate lookup-limit bucket for new outside lookups (geocoding, screening), shared by all callers. */
export function lookupTaker(limiter: Limiter): () => { ok: boolean; retryAfter: number } {
  return () => {
    const t = limiter.buckets.lookup.take("*");
    return { ok: t.ok, retryAfter: t.ok ? 0 : Math.max(1, t.retryAfter) };
  };
}
