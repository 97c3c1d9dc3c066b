// Screening at a point, the one domain call behind GET /v1/screening, the screening page and the MCP tool
// screen_point: the directory's place (chain, who decides, radon) and the screening facts of the exact point.
// The facts come from the screening service given (src/lookups/screening); this module never calls HTTP.
import type { Directory } from "./directory";
import { screeningPlace } from "./screening-place";
import { keptOf } from "../domain/kept";
import type { SourceOut } from "../domain/source";

type Place = ReturnType<typeof screeningPlace>;
/** A loaded layer's shape near the point (rings and paths as [x0, y0, x1, y1, …] in degrees), with its legend label. */
export interface Drawn {
  label: string;
  /** how it looks: "flood" | "flood-moderate" | "wetland" | "water" (src/lookups/screening/types.ts Tone) */
  tone: string;
  dataset: string;
  polygons?: Float64Array[][];
  lines?: Float64Array[];
}
export interface FactsAtPoint {
  facts(
    lon: number,
    lat: number,
    place: Place,
  ): Promise<{ facts: Record<string, unknown>; sources: SourceOut[]; notices: string[] }>;
  /** Loaded layers' shapes near the point, for the screening page's drawing (no outside call). */
  near?(lon: number, lat: number, state: string | null, radiusM: number): { layers: string[]; shapes: Drawn[] };
}

/** Pages ask for the shapes within this distance of the point. */
export const DRAWING_RADIUS_M = 250;

export async function screenAt(
  dir: Directory,
  screening: FactsAtPoint,
  lon: number,
  lat: number,
  opts: { drawing?: boolean } = {},
) {
  const place = screeningPlace(dir, lon, lat); // outside-coverage (404) when no state covers the point
  const r = await screening.facts(lon, lat, place);
  return {
    drawing: opts.drawing && screening.near ? screening.near(lon, lat, place.state, DRAWING_RADIUS_M) : null,
    data: {
      kind: "screening" as const,
      point: { type: "Point" as const, coordinates: [lon, lat] },
      jurisdictions: place.jurisdictions,
      facts: r.facts,
    },
    sources: r.sources,
    notices: r.notices,
    /** kept members: the assembled facts (the screening service keeps them per cell), the chain's jurisdictions */
    frozen: keptOf(r.facts, place.jurisdictions),
  };
}
