// The in-process caches that callers' input can fill (points, addresses, screening readings): the ONE table of
// their memory budgets. Each is an LRU bounded in entries AND in estimated bytes, so random input over the whole
// country fills each to its budget and no further (bench/fuzz.ts shows RSS flat over 500,000 requests). An entry's
// estimate is 3 x its JSON length + 1 KB: the objects it holds plus the JSON the edge serialises once from them.
// The store's jurisdiction and source rows read on first use (at most the data file's ~45,000) are bounded by the
// data file, not here; its resources (all of them ~40 MB) are. The screening services' cache has its own budget in
// config (screening.cache_mb).
export const CACHE_MB = {
  /** Directory: the chain part of an answer, per chain of governments at a point */
  chain_answers: 64,
  /** Store: the resources of each jurisdiction read from the data file */
  store_resources: 12,
  /** Boundary index: polygons decoded from the data file on first use (their typed arrays, x 1.5) */
  decoded_boundaries: 32,
  /** Directory: the resources shown under each screening fact, per chain and topic */
  screening_resources: 8,
  /** Screening: assembled facts, per chain and set of readings */
  screening_facts: 8,
  /** Geocoder: the outcome of an address lookup (with config geocoder.cache_entries as the count bound) */
  geocoder: 8,
  /** Offline layers: features read from the layers file */
  layer_features: 24,
  /** Towns: polygons read from the layers file (kept from the Census service or a loaded file) */
  town_shapes: 8,
} as const;

type CacheName = keyof typeof CACHE_MB;

/** Estimated bytes of a cached entry (see the header). */
export function estimateBytes(v: unknown): number {
  return 3 * (JSON.stringify(v)?.length ?? 0) + 1024;
}

/** lru-cache options bounding a cache by its budget: `{ max, maxSize, sizeCalculation }`. */
export function budgeted<V>(name: CacheName, max: number, size: (v: V) => number = estimateBytes) {
  return { max, maxSize: CACHE_MB[name] * 1024 * 1024, sizeCalculation: (v: V) => Math.max(1, Math.ceil(size(v))) };
}
