// Request-rate limits of spec part 8, the lookup limit and the pages' limits: the ONE table. Every number can be overridden in the
// config file under limits.<class>.{per_minute,per_day}.
export const LIMIT_CLASSES = {
  anon_address: { per_minute: 10, per_day: 300 }, // no key, per network address (IPv6 /64 = one address)
  anon_all: { per_minute: 30, per_day: 600 }, // no key, all callers together
  anon_list_address: { per_minute: 5, per_day: 30 }, // no key, per address, place and resource lists
  anon_list_all: { per_minute: 10, per_day: 100 }, // no key, all callers together, lists (+ MCP server)
  standard: { per_minute: 120, per_day: 20000 }, // standard key
  partner: { per_minute: 600, per_day: 200000 }, // partner key
  service: { per_minute: 6000, per_day: 1000000 }, // service callers (config service_callers); policy not advertised
  lookup: { per_minute: 30, per_day: 2000 }, // new outside lookups (geocoding, screening), all callers
  // the HTML pages (not part 8: reading pages is not calling the API), sized for people browsing; a scraper is stopped
  pages_address: { per_minute: 120, per_day: 3000 }, // per address (IPv6 /64 = one address)
  pages_all: { per_minute: 1200, per_day: 60000 }, // all page readers together
} as const;
export type LimitClass = keyof typeof LIMIT_CLASSES;
export type LimitNumbers = { per_minute: number; per_day: number };
