// A stand-in screening service for the page tests (it replaces the outside lookups, so the page tests need no
// outside-service doubles): fixed facts of the spec's shape, with the real zoning office at the point, behind the
// real domain call (screenAt) the route, the page and the MCP tool share. Test data only.
import type { Directory } from "../../src/directory/directory";
import type { Deps } from "../../src/http/deps";
import { SERVICES, Screening } from "../../src/lookups/screening";
import { LayerStore } from "../../src/lookups/layers/store";

const fact = (
  status: string,
  summary: string,
  caveat: string,
  decider: string,
  office: unknown,
  values: Record<string, unknown> = {},
) => ({
  status,
  summary,
  detail: null,
  values,
  dataset: "Stand-in dataset",
  publisher: "Stand-in publisher",
  as_of: "2024-01-01",
  caveat,
  decided_by: { description: decider, function: office ? "zoning" : null, office },
  resources: [],
});

/** Puts the stand-in service in `deps.screening` (the route and the page then answer from it). With a layers
 * file, the drawing of the screening page comes from the real service over those loaded layers. */
export function useScreeningStandIn(deps: Deps, layersFile?: string): void {
  const dir = deps.directory as Directory;
  const drawing = layersFile
    ? new Screening({
        config: deps.config.screening,
        layers: LayerStore.open(layersFile),
        takeLookup: () => ({ ok: true, retryAfter: 0 }),
      })
    : null;
  deps.screening = {
    services: SERVICES, // the page's headings
    near: drawing ? drawing.near.bind(drawing) : undefined,
    facts: async (lon: number, lat: number) => {
      const r = dir.resolvePoint(lon, lat);
      const zoning = (r.data.functions as any).zoning ?? null;
      return {
        facts: {
          flood: fact(
            "minimal",
            "Area of minimal flood hazard (zone X) <b>stand-in</b>",
            "Flood maps show the 1% annual chance flood; they are not a determination.",
            "The local floodplain administrator decides whether a building is in the floodplain.",
            zoning,
            { zone: "X" },
          ),
          wetlands: fact(
            "no",
            "No mapped wetland at the point",
            "The wetlands inventory is not a jurisdictional delineation.",
            "The U.S. Army Corps of Engineers and the local government decide.",
            null,
          ),
          soils: fact(
            "ok",
            "Loam soil map unit",
            "Soil survey maps are not a site investigation.",
            "A licensed soil professional decides for a septic system.",
            null,
            { map_unit: "L22A" },
          ),
          elevation: fact(
            "unknown",
            "Elevation could not be checked",
            "Try again later.",
            "A licensed surveyor certifies elevations.",
            null,
          ),
          radon: fact(
            "zone_1",
            "Radon zone 1 (highest potential)",
            "Only a test shows a home's radon level.",
            "The state radon program advises on testing.",
            null,
          ),
        },
        sources: [],
        notices: [],
      };
    },
  } as any;
}
