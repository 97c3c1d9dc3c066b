// What a new outside lookup (geocoding, screening, towns) is charged against the lookup limit: admitted, or refused
// with the seconds to wait and the 429's RateLimit headers. The limiter (src/http/limits.ts, lookupTaker) answers
// at once from memory, or later from a shared limits store.
export interface LookupCharge {
  ok: boolean;
  retryAfter: number;
  headers?: Record<string, string>;
}
export type TakeLookup = () => LookupCharge | Promise<LookupCharge>;
