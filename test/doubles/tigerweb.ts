// Loopback double (127.0.0.1, port 0) of the Census Bureau's TIGERweb County Subdivisions layer
// (TIGERweb/Places_CouSub_ConCity_SubMCD/MapServer/1), answering the ArcGIS REST query operation in its documented
// shape: GET <layer>/query?geometry=x,y&geometryType=esriGeometryPoint&inSR=4326&returnGeometry=true&outSR=4326&
// outFields=GEOID,NAME,BASENAME,FUNCSTAT&f=json → {"features":[{"attributes":{…},"geometry":{"rings":[…]}}]};
// errors come back as HTTP 200 {"error":{…}}. It serves the towns it is given: the staged county-subdivision
// polygons of ../shared/data/cousub/ (stagedTowns), or squares a test draws around a point with a real GEOID.
import { gunzipSync } from "node:zlib";
import { readFileSync } from "node:fs";
import { inRings } from "./screening-services";

export type TownMode = "ok" | "down" | "slow" | "garbage" | "arcgis-error" | "huge";
export interface DoubleTown {
  GEOID: string;
  NAME: string;
  FUNCSTAT: string;
  rings: number[][][]; // one polygon's rings (even-odd), [[x, y], …]
}
export interface TigerwebDouble {
  url: string; // the layer URL (…/MapServer/1)
  mode: TownMode;
  calls: number;
  towns: DoubleTown[];
  stop(): void;
}

/** A square of `half` degrees around a point, as one town. */
export function squareTown(
  GEOID: string,
  NAME: string,
  lon: number,
  lat: number,
  half = 0.01,
  FUNCSTAT = "A",
): DoubleTown {
  const [a, b, c, d] = [lon - half, lat - half, lon + half, lat + half];
  return {
    GEOID,
    NAME,
    FUNCSTAT,
    rings: [
      [
        [a, b],
        [c, b],
        [c, d],
        [a, d],
        [a, b],
      ],
    ],
  };
}

/** The towns of a staged county-subdivision GeoJSON (gzipped or not), each polygon of a multipolygon a town. */
export function stagedTowns(path: string, geoidOf: (p: any) => string, nameOf: (p: any) => string): DoubleTown[] {
  const raw = readFileSync(path);
  const fc = JSON.parse((path.endsWith(".gz") ? gunzipSync(raw) : raw).toString("utf8"));
  const out: DoubleTown[] = [];
  for (const f of fc.features) {
    const g = f.geometry;
    if (!g) continue;
    const polys = g.type === "Polygon" ? [g.coordinates] : g.type === "MultiPolygon" ? g.coordinates : [];
    for (const rings of polys)
      out.push({
        GEOID: geoidOf(f.properties),
        NAME: nameOf(f.properties),
        FUNCSTAT: f.properties.FUNCSTAT ?? "A",
        rings,
      });
  }
  return out;
}

export function startTigerweb(towns: DoubleTown[] = []): TigerwebDouble {
  const d: TigerwebDouble = { url: "", mode: "ok", calls: 0, towns, stop: () => server.stop(true) };
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const u = new URL(req.url);
      if (!u.pathname.endsWith("/MapServer/1/query")) return new Response("not found", { status: 404 });
      d.calls++;
      if (d.mode === "down") return new Response("unavailable", { status: 503 });
      if (d.mode === "slow") await Bun.sleep(1500);
      if (d.mode === "garbage") return new Response("<html>oops", { headers: { "content-type": "text/html" } });
      if (d.mode === "huge") return Response.json({ features: [], padding: "x".repeat(5 * 1024 * 1024) });
      if (d.mode === "arcgis-error")
        return Response.json({ error: { code: 500, message: "Error performing query operation", details: [] } });
      const p = u.searchParams;
      if (p.get("geometryType") !== "esriGeometryPoint" || p.get("f") !== "json" || p.get("returnGeometry") !== "true")
        return Response.json({ error: { code: 400, message: "Invalid or missing input parameters.", details: [] } });
      const [x, y] = (p.get("geometry") ?? "").split(",").map(Number);
      const hits = d.towns.filter((t) => inRings(t.rings, x!, y!));
      return Response.json({
        displayFieldName: "NAME",
        geometryType: "esriGeometryPolygon",
        spatialReference: { wkid: 4326, latestWkid: 4326 },
        fields: [{ name: "GEOID" }, { name: "NAME" }, { name: "BASENAME" }, { name: "FUNCSTAT" }],
        features: hits.map((t) => ({
          attributes: { GEOID: t.GEOID, NAME: t.NAME, BASENAME: t.NAME, FUNCSTAT: t.FUNCSTAT },
          geometry: { rings: t.rings },
        })),
      });
    },
  });
  d.url = `http://127.0.0.1:${server.port}/arcgis/rest/services/TIGERweb/Places_CouSub_ConCity_SubMCD/MapServer/1`;
  return d;
}
