// The soft memory limit of a serving process (config memory_limit_mb; 0 = off), in the manner of Go's GOMEMLIMIT.
// Every cache that callers' input fills is bounded (src/domain/cache-budget.ts), but under load over the whole
// country the collector lets garbage pile up between collections, and the allocator keeps the pages it freed while
// they are reused: 100,000 random resolves in process leave 126 MB live and 310 MB resident (README, "Fuzz"). Above
// the limit this runs a full collection, at most once per gap; a collection that frees less than a tenth of the
// limit and leaves the process above it (the live data itself is larger) doubles the gap, up to `maxGapMs`, so a
// limit set too low costs a few collections a minute, never a busy loop; the gap starts again once collecting helps.
// Below the limit nothing runs: an idle or local-traffic server never pays for it.

export interface MemoryLimitOptions {
  limitMb: number;
  /** resident size in bytes (default process.memoryUsage.rss) */
  rss?: () => number;
  /** a full, synchronous collection (default Bun.gc(true)) */
  collect?: () => void;
  log?: (line: string) => void;
  /** how often the resident size is read, and the shortest gap between two collections */
  tickMs?: number;
  maxGapMs?: number;
}

export class MemoryLimit {
  private readonly limit: number;
  private readonly rss: () => number;
  private readonly collect: () => void;
  private readonly log: (line: string) => void;
  readonly tickMs: number;
  private readonly maxGapMs: number;
  private gap: number;
  private lastAt = 0;
  private nextAt = 0;
  private checkAfter = false;
  private before = 0;
  private warned = false;

  constructor(o: MemoryLimitOptions) {
    this.limit = o.limitMb * 1024 * 1024;
    this.rss = o.rss ?? (() => process.memoryUsage.rss());
    this.collect = o.collect ?? (() => Bun.gc(true));
    this.log = o.log ?? (() => {});
    this.tickMs = o.tickMs ?? 250;
    this.maxGapMs = o.maxGapMs ?? 8000;
    this.gap = this.tickMs;
  }

  /** One reading at `now` (ms): collect when over the limit and the gap has passed. */
  tick(now: number): void {
    const rss = this.rss();
    if (this.checkAfter) {
      // the first reading after a collection tells whether collecting helps
      this.checkAfter = false;
      // helped: back under the limit, or at least a tenth of the limit freed (garbage, not live data)
      if (rss > this.limit && this.before - rss < this.limit / 10) {
        this.gap = Math.min(this.gap * 2, this.maxGapMs);
        this.nextAt = this.lastAt + this.gap;
        if (this.gap === this.maxGapMs && !this.warned) {
          this.warned = true;
          this.log(
            `memory: ${mb(rss)} MB resident after a full collection, above memory_limit_mb ${mb(this.limit)}: the live data is larger than the limit; collecting at most every ${this.maxGapMs / 1000} s (raise memory_limit_mb or lower the cache budgets)`,
          );
        }
      } else {
        this.gap = this.tickMs;
        this.warned = false;
      }
    }
    if (rss <= this.limit || now < this.nextAt) return;
    this.before = rss;
    this.collect();
    this.lastAt = now;
    this.nextAt = now + this.gap;
    this.checkAfter = true;
  }
}

const mb = (bytes: number) => Math.round(bytes / (1024 * 1024));

/** Start the limit's timer (unref'd: it never keeps the process alive) and return its stop; null when the limit is
 *  off (0). */
export function startMemoryLimit(o: MemoryLimitOptions): (() => void) | null {
  if (!o.limitMb) return null;
  const limit = new MemoryLimit(o);
  const timer = setInterval(() => limit.tick(performance.now()), limit.tickMs);
  timer.unref();
  return () => clearInterval(timer);
}
