// The shapes shared by the screening runner and the one-file service definitions.
import type { Feature } from "./geometry";

/** One outside screening service's config block (screening.<name>): base URL ("" or enabled false = switched off:
 * air-gapped), its own timeout (0 = timeouts.screening_ms). */
export type ScreeningServiceConfig = {
  enabled: boolean;
  base_url: string;
  timeout_ms: number;
};
/** The settings of the screening block that every service shares (config key screening.*). */
export type ScreeningCommon = {
  h3_resolution: number; // cell of the feature cache (features kept with geometry; the exact point is tested)
  cache_entries: number;
  cache_ttl_s: number;
  cache_mb: number; // memory budget of the cache (features with geometry can be large)
  max_concurrent: number; // outside calls in flight at once; a request that would pass it → 503 busy
  max_bytes: number; // largest reply read from a screening service
  wetlands_near_m: number; // "near" = within this distance of a mapped wetland
};
/** The screening block as a service and the runner see it: the shared settings, and each service's own block by
 * its name (read with serviceConfig). The full, typed block is ScreeningConfig (index.ts, over SERVICES). */
export type ScreeningSettings = ScreeningCommon & { readonly [service: string]: unknown };

/** An area to ask a layer for: [west, south, east, north] in degrees. */
export type Envelope = [number, number, number, number];

/** How a drawn shape looks on the page: high or moderate flood hazard, wetland, public water. */
export type Tone = "flood" | "flood-moderate" | "wetland" | "water";
type LayerKind = "flood" | "wetlands" | "shoreland" | "soils";

/** One outside call, bound to the service's own timeout and the size limit (the runner counts it in flight). */
export interface Outside {
  get(url: URL | string): Promise<unknown>;
  post(url: URL | string, body: string): Promise<unknown>;
}

/** Where a reading comes from: the outside service, or a loaded layer file (its trail). */
export interface Origin {
  dataset: string;
  publisher: string;
  as_of: string | null;
  url: string;
  loaded?: boolean;
}

/** A fact before the directory parts (decided_by, resources) are added. */
export interface Reading {
  status: string;
  summary: string;
  detail: string | null;
  values: Record<string, unknown>;
  dataset: string;
  publisher: string;
  as_of: string | null;
}

/** What the directory knows about the point, for the decider and the resources of each fact. */
interface PlaceFacts {
  state: string | null; // two-letter code
  stateName: string | null;
}

/** One fact of a screening answer: an outside service's (ServiceDef) or radon's (from the data file). The API
 * schema, the page and the fact order are derived from these (src/lookups/screening/index.ts). */
export interface FactDef {
  /** The key of the fact in the answer's `facts`. */
  name: string;
  /** Its heading on the screening page. */
  label: string;
  /** Every status the fact can have, "unknown" included: the API schema admits only these. */
  statuses: readonly string[];
  /** Answered only in these states (two-letter codes), and the same in words for the API description ("in
   * Minnesota"); elsewhere the fact is left out of the answer. Absent: answered everywhere. */
  onlyIn?: { states: readonly string[]; words: string };
  /** Directory topic whose resources confirm the fact (null: none). */
  topic: string | null;
  caveat: string;
  decider(p: PlaceFacts): { description: string; function: "zoning" | "permits" | null };
}

/** Whether the fact is answered for a point in `state`. */
export const appliesAt = (f: FactDef, state: string | null): boolean =>
  !f.onlyIn || (state !== null && f.onlyIn.states.includes(state));

/** An outside screening service: one file each. `N` is its name, also its config block's key (screening.<name>,
 * DIRECTORY_SCREENING__<NAME>__<KEY>); `C` is that block. */
export interface ServiceDef<
  N extends string = string,
  C extends ScreeningServiceConfig = ScreeningServiceConfig,
> extends FactDef {
  name: N;
  topic: string;
  /** Its config block with its defaults (the defaults of screening.<name>). */
  defaults: C;
  /** Outside calls one fresh lookup makes (for the concurrency cap). */
  calls: number;
  /** Loaded layer kind that can answer this fact offline, if any. */
  layerKind?: LayerKind;
  /** What else it needs besides being switched on with a base URL (the runner checks that for every service). */
  configured?(cfg: ScreeningSettings): boolean;
  origin(cfg: ScreeningSettings): Origin;
  /** Metres around the point the answer depends on (distance rules), for area queries and loaded layers. */
  reachM(cfg: ScreeningSettings): number;
  /** Area mode: every feature (with geometry) meeting the envelope; complete, or it throws. */
  fetchArea?(http: Outside, env: Envelope, cfg: ScreeningSettings): Promise<Feature[]>;
  /** Point mode: what the service says at the exact point (features marked with `hit`). */
  fetchPoint(http: Outside, lon: number, lat: number, cfg: ScreeningSettings): Promise<Feature[]>;
  /** The legend label of a loaded layer's feature drawn around the point on the screening page (null: not drawn,
   * e.g. a FIRM panel or an area of minimal flood hazard). Services without it are never drawn. */
  drawn?(f: Feature): { label: string; tone: Tone } | null;
  /** The status table: features around the point → reading. */
  read(features: Feature[], lon: number, lat: number, origin: Origin, cfg: ScreeningSettings): Reading;
}

/** A service's own config block, screening.<name> (with the service's defaults unless the config sets it). */
export function serviceConfig<C extends ScreeningServiceConfig>(cfg: ScreeningSettings, def: ServiceDef<string, C>): C {
  const block = cfg[def.name] as C | undefined;
  if (!block) throw new Error(`config: no screening.${def.name} block for the ${def.name} service`);
  return block;
}
