// Small caching helpers shared by lookups: a TTL LRU cache, the address cache key, and an H3 cell key.
import { LRUCache } from "lru-cache";
import { latLngToCell } from "h3-js";

interface TtlCacheOptions {
  /** Maximum number of entries (least recently used are evicted). */
  max: number;
  /** Time to live in milliseconds. */
  ttl: number;
  /** Optional memory budget: entries are evicted (least recently used first) to keep the sum of sizeOf under it. */
  maxSize?: number;
  sizeOf?: (value: unknown) => number;
}

/** LRU cache whose entries expire `ttl` ms after being set. Values must not be null/undefined. */
export class TtlCache<K extends {}, V extends {}> {
  private readonly lru: LRUCache<K, V>;

  constructor(opts: TtlCacheOptions) {
    if (!(opts.max >= 1)) throw new RangeError("TtlCache max must be >= 1");
    if (!(opts.ttl >= 1)) throw new RangeError("TtlCache ttl must be >= 1 ms");
    const sized =
      opts.maxSize && opts.sizeOf
        ? { maxSize: opts.maxSize, sizeCalculation: (v: V) => Math.max(1, Math.ceil(opts.sizeOf!(v))) }
        : {};
    this.lru = new LRUCache<K, V>({ max: Math.floor(opts.max), ttl: opts.ttl, ttlAutopurge: false, ...sized });
  }

  get(key: K): V | undefined {
    return this.lru.get(key);
  }
  set(key: K, value: V, ttlMs?: number): void {
    this.lru.set(key, value, ttlMs === undefined ? undefined : { ttl: ttlMs });
  }
  has(key: K): boolean {
    return this.lru.has(key);
  }
  delete(key: K): boolean {
    return this.lru.delete(key);
  }
  clear(): void {
    this.lru.clear();
  }
  get size(): number {
    return this.lru.size;
  }
}

/**
 * Cache key for a free-text address: Unicode NFKC, lowercase, punctuation → space except '#' (unit marker)
 * and '-' between digits (ranges, ZIP+4, Queens numbers); apostrophes are dropped ("o'brien" → "obrien");
 * whitespace collapsed and trimmed. "350  S 5th St." and "350 s 5th st" give the same key.
 */
export function normaliseAddress(text: string): string {
  return text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/['\u2018\u2019`]/g, "")
    .replace(/(?<=\d)-(?=\d)/g, "\u0000") // protect in-number hyphens
    .replace(/[^\p{L}\p{N}#\u0000]+/gu, " ")
    .replace(/\u0000/g, "-")
    .replace(/\s+/g, " ")
    .trim();
}

/** H3 cell index of a WGS84 point at resolution `res` (0..15), for point-keyed screening caches. */
export function h3Key(lat: number, lon: number, res: number): string {
  if (!Number.isFinite(lat) || lat < -90 || lat > 90) throw new RangeError("lat must be within -90..90");
  if (!Number.isFinite(lon) || lon < -180 || lon > 180) throw new RangeError("lon must be within -180..180");
  if (!Number.isInteger(res) || res < 0 || res > 15) throw new RangeError("res must be an integer 0..15");
  return latLngToCell(lat, lon, res);
}
