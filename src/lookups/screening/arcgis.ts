// ArcGIS REST layer query (FEMA NFHL, USFWS NWI, MN DNR): the request and the reply check, shared by the
// definitions that read an ArcGIS layer. Documented contract (../shared/data/SOURCES.md "Upstream services", and
// the ArcGIS REST "Query (Map Service/Layer)" operation): GET <layer>/query with geometry, geometryType,
// inSR=4326, spatialRel=esriSpatialRelIntersects, outFields, returnGeometry, f=json. The answer is
// {"features":[{"attributes":{…},"geometry":{"rings"|"paths":[[[x,y],…]]}}]}; a miss is {"features":[]};
// ERRORS COME BACK AS HTTP 200 with {"error":{"code":400|500,"message":"…","details":[]}}; a reply cut at the
// layer's maxRecordCount carries "exceededTransferLimit": true (then the feature list is incomplete).
import { UpstreamError } from "../http-client";
import type { Feature } from "./geometry";
import type { Envelope, Outside } from "./types";

interface LayerQuery {
  layerUrl: string; // …/MapServer/28
  layer: string; // tag given to the features ("hazard", "panel", …)
  outFields: string[];
  /** An envelope (features with geometry, the exact point is tested locally) or a point (no geometry unless
   *  `geometry`: the polygon around the point, e.g. a county subdivision to keep). */
  where: { envelope: Envelope } | { point: [number, number]; distanceM?: number; geometry?: boolean };
}

function queryUrl(q: LayerQuery): URL {
  const u = new URL(`${q.layerUrl.replace(/\/+$/, "")}/query`);
  const p = u.searchParams;
  if ("envelope" in q.where) {
    p.set("geometry", q.where.envelope.map((v) => v.toFixed(8)).join(","));
    p.set("geometryType", "esriGeometryEnvelope");
    p.set("returnGeometry", "true");
    p.set("outSR", "4326");
  } else {
    p.set("geometry", `${q.where.point[0]},${q.where.point[1]}`);
    p.set("geometryType", "esriGeometryPoint");
    p.set("returnGeometry", q.where.geometry ? "true" : "false");
    if (q.where.geometry) p.set("outSR", "4326");
    if (q.where.distanceM) {
      p.set("distance", String(q.where.distanceM));
      p.set("units", "esriSRUnit_Meter");
    }
  }
  p.set("inSR", "4326");
  p.set("spatialRel", "esriSpatialRelIntersects");
  p.set("outFields", q.outFields.join(","));
  p.set("f", "json");
  return u;
}

/** Run one layer query and check its reply; throws UpstreamError on an error-in-200, a truncated or odd reply. */
export async function queryLayer(http: Outside, q: LayerQuery): Promise<Feature[]> {
  const body = await http.get(queryUrl(q));
  const hit = "point" in q.where ? (q.where.distanceM ? "near" : "inside") : undefined;
  return parseLayerReply(body, q.layer, hit);
}

function parseLayerReply(body: unknown, layer: string, hit?: "inside" | "near"): Feature[] {
  if (!isObject(body)) throw new UpstreamError("bad-reply", "ArcGIS reply is not a JSON object");
  if (isObject(body.error)) {
    const e = body.error;
    throw new UpstreamError(
      "service-error",
      `the service reported error ${String(e.code ?? "?")}: ${String(e.message ?? "").slice(0, 120)}`,
    );
  }
  if (!Array.isArray(body.features)) throw new UpstreamError("bad-reply", "ArcGIS reply has no features array");
  if (body.exceededTransferLimit === true)
    throw new UpstreamError("truncated", "the service cut its reply short (exceededTransferLimit)");
  return body.features.map((f, i) => {
    if (!isObject(f) || !isObject(f.attributes)) throw new UpstreamError("bad-reply", `feature ${i} has no attributes`);
    const out: Feature = { layer, attrs: f.attributes };
    if (hit) out.hit = hit;
    const g = f.geometry;
    if (isObject(g)) {
      if (Array.isArray(g.rings)) out.polygons = [g.rings.map((r) => coords(r, i))]; // all rings of one feature: even-odd
      if (Array.isArray(g.paths)) out.lines = g.paths.map((r) => coords(r, i));
    }
    return out;
  });
}

function coords(ring: unknown, i: number): Float64Array {
  if (!Array.isArray(ring)) throw new UpstreamError("bad-reply", `feature ${i} has a malformed ring`);
  const out = new Float64Array(ring.length * 2);
  ring.forEach((pt, k) => {
    if (!Array.isArray(pt) || typeof pt[0] !== "number" || typeof pt[1] !== "number")
      throw new UpstreamError("bad-reply", `feature ${i} has a malformed coordinate`);
    out[2 * k] = pt[0];
    out[2 * k + 1] = pt[1];
  });
  return out;
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Case-insensitive attribute read (services and loaded layers differ in field-name case). */
export function attr(a: Record<string, unknown>, name: string): unknown {
  if (name in a) return a[name];
  const lower = name.toLowerCase();
  for (const k in a) if (k.toLowerCase() === lower) return a[k];
  return undefined;
}
