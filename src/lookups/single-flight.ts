// Share one in-flight promise per key: concurrent callers with the same key get the same result,
// and only the first one runs `fn`. The entry is dropped as soon as the promise settles (no caching).

interface SingleFlight<K, V> {
  /** Join the flight for `key` if there is one, else start `fn()` as the flight. */
  run(key: K, fn: () => Promise<V>): Promise<V>;
  /** The in-flight promise for `key`, if any. */
  get(key: K): Promise<V> | undefined;
  has(key: K): boolean;
  readonly size: number;
}

export function singleFlight<K, V>(): SingleFlight<K, V> {
  const flights = new Map<K, Promise<V>>();
  return {
    run(key, fn) {
      const existing = flights.get(key);
      if (existing) return existing;
      let p: Promise<V>;
      try {
        p = Promise.resolve(fn());
      } catch (err) {
        p = Promise.reject(err);
      }
      const tracked = p.finally(() => {
        if (flights.get(key) === tracked) flights.delete(key);
      });
      flights.set(key, tracked);
      return tracked;
    },
    get: (key) => flights.get(key),
    has: (key) => flights.has(key),
    get size() {
      return flights.size;
    },
  };
}
