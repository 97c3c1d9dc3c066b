// The shapes shared by the screening runner and the one-file service definitions.
import type { ScreeningConfig, ScreeningServiceConfig } from "../../config/config";
import type { Feature } from "./geometry";
import type { Envelope } from "./arcgis";

export type FactName = "flood" | "wetlands" | "soils" | "elevation" | "shoreland" | "radon";
/** How a drawn shape looks on the page: high or moderate flood hazard, wetland, public water. */
export type Tone = "flood" | "flood-moderate" | "wetland" | "water";
export type LayerKind = "flood" | "wetlands" | "shoreland" | "soils";

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
export interface PlaceFacts {
  state: string | null; // two-letter code
  stateName: string | null;
}

export interface ServiceDef {
  name: Exclude<FactName, "radon">;
  /** Directory topic whose resources confirm the fact. */
  topic: string;
  /** Outside calls one fresh lookup makes (for the concurrency cap). */
  calls: number;
  /** Loaded layer kind that can answer this fact offline, if any. */
  layerKind?: LayerKind;
  caveat: string;
  decider(p: PlaceFacts): { description: string; function: "zoning" | "permits" | null };
  /** This service's own config block. */
  service(cfg: ScreeningConfig): ScreeningServiceConfig;
  /** What else it needs besides being switched on with a base URL (the runner checks that for every service). */
  configured?(cfg: ScreeningConfig): boolean;
  origin(cfg: ScreeningConfig): Origin;
  /** Metres around the point the answer depends on (distance rules), for area queries and loaded layers. */
  reachM(cfg: ScreeningConfig): number;
  /** Area mode: every feature (with geometry) meeting the envelope; complete, or it throws. */
  fetchArea?(http: Outside, env: Envelope, cfg: ScreeningConfig): Promise<Feature[]>;
  /** Point mode: what the service says at the exact point (features marked with `hit`). */
  fetchPoint(http: Outside, lon: number, lat: number, cfg: ScreeningConfig): Promise<Feature[]>;
  /** The legend label of a loaded layer's feature drawn around the point on the screening page (null: not drawn,
   * e.g. a FIRM panel or an area of minimal flood hazard). Services without it are never drawn. */
  drawn?(f: Feature): { label: string; tone: Tone } | null;
  /** The status table: features around the point → reading. */
  read(features: Feature[], lon: number, lat: number, origin: Origin, cfg: ScreeningConfig): Reading;
}
