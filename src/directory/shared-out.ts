// Answer records (a jurisdiction or a source as answers give them) are pure functions of their data-file row, the
// page links and the link checker's current results. They are made once per row and results version and shared by
// every answer that holds them: the chain answers kept in the memo then share their state, county and source
// records instead of each holding copies (fewer live objects). Shared records are never mutated by their users.
import type { Links } from "../domain/links";

type Made<T> = { version: number; out: T };
const byLinks = new WeakMap<Links, WeakMap<object, Made<unknown>>>();

/** The record of `row` under `links`, made by `make` once per link-results version. */
export function sharedOut<T>(links: Links, row: object, make: () => T): T {
  let rows = byLinks.get(links);
  if (!rows) byLinks.set(links, (rows = new WeakMap()));
  const version = links.results?.version ?? 0;
  const hit = rows.get(row) as Made<T> | undefined;
  if (hit && hit.version === version) return hit.out;
  const out = make();
  rows.set(row, { version, out });
  return out;
}
