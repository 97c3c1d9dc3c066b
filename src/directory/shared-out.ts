// Answer records (a jurisdiction or source as answers give them) are pure functions of their data-file row, the
// page links and the link checker's current results. They are made once per row and results version and shared by
// every answer that holds them: the chain answers kept in the memo then share their state, county and source
// records instead of each holding copies (fewer live objects). Shared records are never mutated by their users.
// The record is kept on the row under a symbol, not in a WeakMap: the collector walks every WeakMap entry at every
// collection, and these rows are many.
import type { Links } from "../domain/links";

const OUT = Symbol("answer record");
type Made = { links: Links; version: number; out: unknown };

/** The record of `row` under `links`, made by `make` once per link-results version (and again if the links differ). */
export function sharedOut<T>(links: Links, row: object, make: () => T): T {
  const version = links.results?.version ?? 0;
  const hit = (row as { [OUT]?: Made })[OUT];
  if (hit && hit.links === links && hit.version === version) return hit.out as T;
  const out = make();
  if (hit) (row as { [OUT]?: Made })[OUT] = { links, version, out };
  else Object.defineProperty(row, OUT, { value: { links, version, out }, writable: true, enumerable: false }); // not copied by spreads
  return out;
}
