// A stand-in GET /v1/screening for the page tests (it replaces the real route, so the page tests need no outside-service
// doubles): a fixed Screening
// answer of the spec's shape, over the real chain and functions at the point. Test data only.
import { latParam, lonParam } from "../../src/http/routes/shared-params";
import { Screening } from "../../src/http/schemas/screening";
import type { RouteDef } from "../../src/http/route";
import type { Directory } from "../../src/directory/directory";

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

export const screeningStandIn: RouteDef = {
  path: "/screening",
  operationId: "getScreening",
  summary: "stand-in",
  query: { lat: { ...latParam, required: true }, lon: { ...lonParam, required: true } },
  data: Screening,
  errors: [400, 404, 429, 503],
  handler: ({ deps, query }) => {
    const dir = deps.directory as Directory;
    const r = dir.resolvePoint(query.lon, query.lat);
    const zoning = (r.data.functions as any).zoning ?? null;
    return {
      data: {
        kind: "screening",
        point: { type: "Point", coordinates: [query.lon, query.lat] },
        jurisdictions: r.data.jurisdictions,
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
      },
      sources: [],
      asOf: deps.asOf,
      cache: "screening",
    };
  },
};
