// Resolve by one selector, the one domain call behind GET /v1/jurisdictions/resolve and the find page: a point (with
// its town where the data file holds none), an address (geocoded by the address finder given, then as a point), a
// place name (with its state) or a jurisdiction id. Checking that exactly one selector was given is the caller's
// (the route's query rules, the page's form); this module never calls HTTP.
import type { Directory } from "./directory";

export type Selector =
  { lon: number; lat: number } | { address: string } | { place: string; state?: string } | { jurisdiction_id: string };

/** Turns an address into a point (src/lookups/geocoder): its errors are DomainErrors (not found, ambiguous with
 * choices, lookup limit, unavailable). */
interface AddressFinder {
  geocode(address: string): Promise<{ label: string; lon: number; lat: number; approximate: boolean }>;
}

export function resolveBy(dir: Directory, addresses: AddressFinder | undefined, sel: Selector) {
  if ("lon" in sel) return dir.resolvePointTowns(sel.lon, sel.lat);
  if ("jurisdiction_id" in sel) return dir.resolveId(sel.jurisdiction_id);
  if ("place" in sel) {
    dir.requireState(sel.state);
    return dir.resolvePlace(sel.place, sel.state);
  }
  if (!addresses) throw new Error("no address finder is composed into this app");
  return addresses
    .geocode(sel.address)
    .then((m) => dir.resolvePointTowns(m.lon, m.lat, { by: "address", label: m.label, approximate: m.approximate }));
}
