// Every ParcelSource call goes through this guard: at most `maxConcurrent` calls at once (more → busy with
// Retry-After), each within `timeoutMs` (later, or any failure of the store → upstream-unavailable; a locked store
// → busy with Retry-After, at once). The answer
// of a failed call is never kept. Errors are logged with their message only (no parcel data, no names).
import { DomainError } from "../domain/errors";
import type { ParcelQuery } from "./fields";
import type { ParcelSource } from "./source";

interface GuardOptions {
  timeoutMs: number;
  maxConcurrent: number;
  retryAfterS: number;
  log?: (s: string) => void;
}

export class GuardedParcelSource implements ParcelSource {
  private inFlight = 0;
  constructor(
    readonly inner: ParcelSource,
    private readonly o: GuardOptions,
  ) {}

  holdsNone(): boolean {
    return this.inner.holdsNone?.() ?? false;
  }

  private async run<T>(what: string, f: () => Promise<T>): Promise<T> {
    if (this.inFlight >= this.o.maxConcurrent) {
      throw new DomainError(
        "busy",
        `${this.inFlight} parcel questions are being answered; retry after ${this.o.retryAfterS} seconds.`,
        { retryAfter: this.o.retryAfterS },
      );
    }
    this.inFlight++;
    const t0 = performance.now();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timeout after ${this.o.timeoutMs} ms`)), this.o.timeoutMs);
    });
    try {
      const out = await Promise.race([f(), late]);
      // a synchronous store cannot be interrupted: an answer that came past the timeout is not used
      if (performance.now() - t0 > this.o.timeoutMs)
        throw new Error(`timeout: answered after ${Math.round(performance.now() - t0)} ms`);
      return out;
    } catch (e) {
      if (e instanceof DomainError) throw e;
      const message = e instanceof Error ? e.message : String(e);
      this.o.log?.(`parcel store ${what} failed: ${message}`);
      if (/database is locked|SQLITE_BUSY/i.test(message))
        throw new DomainError(
          "busy",
          `The parcel database is being written (locked); retry after ${this.o.retryAfterS} seconds.`,
          { retryAfter: this.o.retryAfterS },
        );
      throw new DomainError(
        "upstream-unavailable",
        "The parcel database did not answer (missing, locked, damaged or too slow); retry later.",
      );
    } finally {
      clearTimeout(timer);
      this.inFlight--;
    }
  }

  counties() {
    return this.run("counties", () => this.inner.counties());
  }
  county(id: string) {
    return this.run("county", () => this.inner.county(id));
  }
  rows(plan: ParcelQuery) {
    return this.run("rows", () => this.inner.rows(plan));
  }
  aggregate(plan: ParcelQuery) {
    return this.run("aggregate", () => this.inner.aggregate(plan));
  }
  parcel(id: string, apn: string) {
    return this.run("parcel", () => this.inner.parcel(id, apn));
  }
  near(lon: number, lat: number, m: number) {
    return this.run("near", () => this.inner.near(lon, lat, m));
  }
}
