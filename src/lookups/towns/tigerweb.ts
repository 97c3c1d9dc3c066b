// The Census Bureau's TIGERweb map service, County Subdivisions layer: the town or township at a point, with its
// polygon. Documented contract: the ArcGIS REST "Query (Map Service/Layer)" operation (src/lookups/screening/
// arcgis.ts: errors inside a 200, exceededTransferLimit) on layer 1 ("County Subdivisions") of
// TIGERweb/Places_CouSub_ConCity_SubMCD/MapServer, whose fields include GEOID (state + county + cousub FIPS,
// 10 digits), NAME, BASENAME, LSADC and FUNCSTAT (A active government, F fictitious, I inactive, N nonfunctioning,
// S statistical).
import { queryLayer } from "../screening/arcgis";
import type { Outside } from "../screening/types";
import { UpstreamError } from "../http-client";

export const TIGERWEB_COUSUB_LAYER =
  "https://tigerweb.geo.census.gov/arcgis/rest/services/TIGERweb/Places_CouSub_ConCity_SubMCD/MapServer/1";
export const TIGERWEB_DATASET = "Census Bureau TIGERweb, County Subdivisions (current)";
export const CENSUS = "U.S. Census Bureau";

export interface TownPolygon {
  geoid: string;
  name: string;
  funcstat: string | null;
  /** polygons, each a list of rings [x0, y0, x1, y1, …] (WGS84 degrees) */
  polygons: Float64Array[][];
}

/** The county subdivisions whose polygon meets the point (one, or two on a shared edge). */
export async function townsAt(http: Outside, layerUrl: string, lon: number, lat: number): Promise<TownPolygon[]> {
  const features = await queryLayer(http, {
    layerUrl,
    layer: "cousub",
    outFields: ["GEOID", "NAME", "BASENAME", "FUNCSTAT"],
    where: { point: [lon, lat], geometry: true },
  });
  return features.map((f, i) => {
    const geoid = String(f.attrs.GEOID ?? "");
    if (!/^\d{10}$/.test(geoid)) throw new UpstreamError("bad-reply", `feature ${i} has no 10-digit GEOID`);
    if (!f.polygons?.length) throw new UpstreamError("bad-reply", `feature ${i} has no polygon`);
    const funcstat = typeof f.attrs.FUNCSTAT === "string" && f.attrs.FUNCSTAT ? f.attrs.FUNCSTAT : null;
    return { geoid, name: String(f.attrs.NAME ?? f.attrs.BASENAME ?? geoid), funcstat, polygons: f.polygons };
  });
}
