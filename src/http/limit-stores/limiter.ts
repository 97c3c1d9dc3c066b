// The limits counted in a store several processes share (config limits_store: file or redis://…): the same buckets
// and headers as the in-process Limiter (src/http/limits.ts), counted by the store (one atomic step per request).
// A store that fails or is silent past limits_store_timeout_ms: fail-open to this process's own counters (the
// in-process Limiter; each process then admits up to q itself, so N processes up to N·q), for 5 s before the store
// is asked again, said in the log at most once a minute. Never a hang, never a refusal because the store is away.
import type { LimitClass, LimitNumbers } from "../../config/limits-table";
import type { Caller, Draw, LimitOutcome, Limiter, Limits, Take } from "../limits";
import { viewsOf, type BucketAsk, type Counted, type SharedStore } from "./shared";

const RETRY_MS = 5_000;
const LOG_EVERY_MS = 60_000;

type Shared = { admitted: boolean; views: Take[] };

export class SharedLimiter implements Limits {
  readonly numbers: Record<LimitClass, LimitNumbers>;
  private degradedUntil = 0;
  private loggedAt = -Infinity;
  /** requests counted in memory because the store failed or was silent (for tests and the log) */
  fellBack = 0;

  constructor(
    /** the in-process counters: the buckets a request draws from, the headers, and the fallback */
    readonly memory: Limiter,
    readonly store: SharedStore,
    private readonly timeoutMs: number,
    private readonly log?: (line: string) => void,
  ) {
    this.numbers = memory.numbers;
  }

  /** Count (take) or read a request's buckets in the store; null when it failed or was silent (the caller counts in memory). */
  private ask(keys: [LimitClass, string][], take: boolean): Shared | Promise<Shared | null> | null {
    const now = this.memory.now;
    if (this.degradedUntil && now() < this.degradedUntil) {
      this.fellBack++;
      return null;
    }
    const asks: BucketAsk[] = keys.map(([c, k]) => ({
      id: `${c}\u0000${k}`,
      quota: [this.numbers[c].per_minute, this.numbers[c].per_day],
    }));
    // the store's own clock (Redis TIME: one window for replicas whose clocks differ) unless a test sets the time
    const t = now === Date.now ? 0 : now();
    const done = (c: Counted): Shared => ({ admitted: c.admitted, views: viewsOf(asks, c) });
    try {
      const r = this.store.count(asks, take, t);
      if (!(r instanceof Promise)) return done(r);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const silent = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${this.timeoutMs} ms`)), this.timeoutMs);
      });
      return Promise.race([r, silent])
        .then(done, (e) => this.degrade(e))
        .finally(() => clearTimeout(timer));
    } catch (e) {
      return this.degrade(e);
    }
  }

  private degrade(e: unknown): null {
    const t = this.memory.now();
    this.degradedUntil = t + RETRY_MS;
    if (t - this.loggedAt >= LOG_EVERY_MS) {
      this.loggedAt = t;
      this.log?.(
        `limits: the ${this.store.name} limits store failed (${String((e as Error)?.message ?? e).slice(0, 200)}): requests count in this process's own memory; the store is asked again in ${RETRY_MS / 1000} s`,
      );
    }
    this.fellBack++;
    return null;
  }

  check(caller: Caller, what: Draw): LimitOutcome | Promise<LimitOutcome> {
    const keys = this.memory.bucketsOf(caller, what);
    const service = caller.kind === "service";
    const done = (r: Shared | null): LimitOutcome => {
      if (!r) return this.memory.check(caller, what);
      const headers = this.memory.headers(service, keys[0]![0], r.views);
      if (r.admitted) return { ok: true, retryAfter: 0, headers };
      return { ok: false, retryAfter: Math.max(1, ...r.views.map((x) => x.retryAfter)), headers };
    };
    const s = this.ask(keys, true);
    return s instanceof Promise ? s.then(done) : done(s);
  }

  take(cls: LimitClass, key: string): Take | Promise<Take> {
    const done = (r: Shared | null): Take => {
      if (!r) return this.memory.take(cls, key);
      const v = r.views[0]!;
      return r.admitted ? { ...v, ok: true, retryAfter: 0 } : { ...v, ok: false };
    };
    const s = this.ask([[cls, key]], true);
    return s instanceof Promise ? s.then(done) : done(s);
  }

  peekHeaders(caller: Caller, what: Draw): Record<string, string> | Promise<Record<string, string>> {
    const keys = this.memory.bucketsOf(caller, what);
    const done = (r: Shared | null) =>
      r ? this.memory.headers(caller.kind === "service", keys[0]![0], r.views) : this.memory.peekHeaders(caller, what);
    const s = this.ask(keys, false);
    return s instanceof Promise ? s.then(done) : done(s);
  }

  headers(service: boolean, own: LimitClass, views: Take[]): Record<string, string> {
    return this.memory.headers(service, own, views);
  }

  close(): void | Promise<void> {
    return this.store.close();
  }
}
