// GET /jurisdictions/resolve: exactly one selector (point, address, place, jurisdiction_id) → the chain, largest
// first, and per function the body that performs it.
import { DomainError } from "../domain/errors";
import type { Links } from "../domain/links";
import type { Content } from "./content";
import type { BoundaryIndex, PointChain } from "./boundaries";
import type { JurisdictionRow, Store } from "./store";
import { Trail, chainFromIds, chainOf, jurisdictionOut } from "./jurisdictions";
import { functionsFor } from "./functions";
import type { PlaceNames } from "./places";
import { requireJurisdiction } from "./resources";

export interface ResolveDeps {
  store: Store;
  content: Content;
  links: Links;
  index: BoundaryIndex;
  names: PlaceNames;
}
export interface Match {
  by: "point" | "address" | "place" | "jurisdiction_id";
  label: string | null;
  approximate: boolean;
}

/** Chain of the point (largest first) or outside-coverage. */
export function chainAtPoint(
  d: ResolveDeps,
  lon: number,
  lat: number,
  hit: PointChain | null = d.index.lookup(lon, lat),
): JurisdictionRow[] {
  const chain = hit ? chainFromIds(d.store, [hit.state, hit.county, hit.cousub, hit.place]) : [];
  if (!chain.length)
    throw new DomainError(
      "outside-coverage",
      `The point (${lat}, ${lon}) is not inside a state or territory covered by this service.`,
    );
  return chain;
}

// States with county subdivision records but no county subdivision boundary in the index (e.g. New York,
// Pennsylvania, Wisconsin today): a point there cannot be placed in its town or township. Computed once per index.
const townless = new WeakMap<BoundaryIndex, Set<string>>();
function townlessStates(d: ResolveDeps): Set<string> {
  let s = townless.get(d.index);
  if (!s) {
    const have = d.index.cousubStates();
    s = new Set<string>();
    for (const fips of d.store.cousubRecordStates()) if (!have.has(fips)) s.add(fips);
    townless.set(d.index, s);
  }
  return s;
}

/** The caveat of a point chain without a county subdivision in a state whose town boundaries are not held. */
export function townNotice(d: ResolveDeps, chain: JurisdictionRow[]): string | null {
  const state = chain.find((j) => j.type === "state");
  if (!state?.state_fips || chain.some((j) => j.type === "cousub") || !townlessStates(d).has(state.state_fips))
    return null;
  return `County subdivision (town, township) boundaries for ${state.name} are not held in this directory, so the chain has no county subdivision at this point; a function the state gives to towns or townships names no body here.`;
}

/** The part of an answer that depends on the chain only (the same for every point with that chain). `atPoint`: the
 * chain came from a point (or address): the sources then also cite the boundaries that placed the point (e.g. a
 * town layer under ODbL), and townNotice() adds its caveat. `about`: the answer is about that one place (resolve by
 * id or name), so the words speak of its area, never of "this point". */
export function chainAnswer(d: ResolveDeps, chain: JurisdictionRow[], atPoint = false, about?: JurisdictionRow) {
  const trail = new Trail(d.store, d.links);
  trail.addAll(chain);
  if (atPoint) for (const j of chain) trail.add(j.boundary_source);
  const functions = functionsFor({ store: d.store, content: d.content, links: d.links, trail, about }, chain);
  return {
    jurisdictions: chain.map((j) => jurisdictionOut(j, d.store, d.links)),
    functions,
    sources: trail.sources(),
    notices: [...trail.notices(), ...(atPoint ? [townNotice(d, chain)].filter((n): n is string => !!n) : [])],
  };
}
export type ChainAnswer = ReturnType<typeof chainAnswer>;

export function answer(c: ChainAnswer, match: Match, point: { lon: number; lat: number } | null) {
  return {
    data: {
      match,
      point: point ? { type: "Point" as const, coordinates: [point.lon, point.lat] } : null,
      jurisdictions: c.jurisdictions,
      functions: c.functions,
    },
    sources: c.sources,
    notices: c.notices,
  };
}

export const POINT_MATCH: Match = { by: "point", label: null, approximate: false };

export function resolveId(d: ResolveDeps, id: string) {
  const j = requireJurisdiction(d.store, id);
  return answer(
    chainAnswer(d, chainOf(d.store, j.jurisdiction_id), false, j),
    { by: "jurisdiction_id", label: j.name, approximate: false },
    null,
  );
}

export function resolvePlace(d: ResolveDeps, place: string, state: string | undefined) {
  const j = d.names.resolve(place, state, d.links);
  return answer(
    chainAnswer(d, chainOf(d.store, j.jurisdiction_id), false, j),
    { by: "place", label: d.names.label(j), approximate: false },
    null,
  );
}
