// How many items one answer gives, for every list of the API (spec part 4 and the endpoints' own limits): the
// default, the most a key may ask, the most without a key (a larger ask gives that many, with a next page where
// the list pages).
export interface PageCap {
  readonly default: number;
  readonly max: number;
  readonly anonymous: number;
}
export const PAGE_CAPS = {
  /** /places/{id} and /resources: items per page */
  list: { default: 50, max: 100, anonymous: 50 },
  /** /search: places and resources, each */
  search: { default: 10, max: 50, anonymous: 20 },
  /** /county-data top and bottom: rows */
  county_data: { default: 10, max: 50, anonymous: 50 },
} as const satisfies Record<string, PageCap>;
/** /county-data: rows a caller may skip */
export const COUNTY_DATA_OFFSET_MAX = 1000;

/** The size of one answer: the asked limit (or the default), capped for the caller. */
export const pageSize = (cap: PageCap, asked: number | undefined, keyed: boolean): number =>
  Math.min(asked ?? cap.default, keyed ? cap.max : cap.anonymous);
