// Cache lifetimes per endpoint (spec part 4): the ONE table. Errors are always no-store.
export const CACHE_SECONDS = {
  topics: 86400,
  guides: 86400,
  screening: 3600,
  default: 900,
  pages: 900, // human pages (src/web) other than topics, guides and screening, which use the rows above
  assets: 86400, // the stylesheet
} as const;
export type CacheClass = keyof typeof CACHE_SECONDS;

const VALUES = Object.fromEntries(Object.entries(CACHE_SECONDS).map(([c, s]) => [c, `public, max-age=${s}`])) as Record<
  CacheClass,
  string
>;
export const cacheControlFor = (c: CacheClass) => VALUES[c];
export const NO_STORE = "no-store";
