// Screening at a point, the one domain call behind GET /v1/screening, the screening page and the MCP tool
// screen_point: the directory's place (chain, who decides, radon) and the screening facts of the exact point.
// The facts come from the screening service given (src/lookups/screening); this module never calls HTTP.
import type { Directory } from "./directory";
import { screeningPlace } from "./screening-place";

type Place = ReturnType<typeof screeningPlace>;
export interface FactsAtPoint {
  facts(
    lon: number,
    lat: number,
    place: Place,
  ): Promise<{ facts: Record<string, unknown>; sources: unknown[]; notices: string[] }>;
}

export async function screenAt(dir: Directory, screening: FactsAtPoint, lon: number, lat: number) {
  const place = screeningPlace(dir, lon, lat); // outside-coverage (404) when no state covers the point
  const r = await screening.facts(lon, lat, place);
  return {
    data: {
      kind: "screening" as const,
      point: { type: "Point" as const, coordinates: [lon, lat] },
      jurisdictions: place.jurisdictions,
      facts: r.facts,
    },
    sources: r.sources,
    notices: r.notices,
  };
}
