// Loopback doubles (127.0.0.1, port 0) of the screening services, answering in their documented shapes
// (../shared/data/SOURCES.md "Upstream services") from the made-up map of screening-world.ts:
//   FEMA NFHL and USFWS NWI and MN DNR PWI: ArcGIS REST <layer>/query (envelope → features with geometry, point
//     → attributes, point + distance → within), errors as HTTP 200 {"error":{…}}.
//   NRCS SDA: POST /Tabular/post.rest {"query","format":"JSON+COLUMNNAME"} → {"Table":[[cols],[row]]} or {}.
//   USGS EPQS: GET /v1/json?x&y&wkid&units → {"location":…,"locationId":0,"value":"<string>","rasterId":…,"resolution":1}.
// Every double has a `mode` a test sets to make it fail in one way, and `delayMs` (all answers wait that long).
import * as W from "./screening-world";

export type Mode =
  "ok" | "down" | "slow" | "garbage" | "html" | "empty" | "arcgis-error" | "huge" | "exceeded" | "exceeded-area";
export const SLOW_MS = 600;
const HUGE = JSON.stringify({ features: [], padding: "x".repeat(5 * 1024 * 1024) }); // built once: over every size limit

export interface Double {
  url: string;
  mode: Mode;
  delayMs: number;
  calls: number;
  log: string[];
  stop(): void;
}

type Rings = number[][][];
/** Even-odd containment of a point in one polygon's rings (also used by the TIGERweb double). */
export function inRings(rings: Rings, x: number, y: number): boolean {
  let inside = false;
  for (const r of rings)
    for (let i = 0, j = r.length - 1; i < r.length; j = i++) {
      const [ax, ay] = r[j]!,
        [bx, by] = r[i]!;
      if (ay! > y !== by! > y && ax! + ((y - ay!) * (bx! - ax!)) / (by! - ay!) > x) inside = !inside;
    }
  return inside;
}
function metres(rings: Rings, x: number, y: number): number {
  const kx = 111320 * Math.cos((y * Math.PI) / 180),
    ky = 110574;
  let best = Infinity;
  for (const r of rings)
    for (let i = 1; i < r.length; i++) {
      const ax = (r[i - 1]![0]! - x) * kx,
        ay = (r[i - 1]![1]! - y) * ky,
        bx = (r[i]![0]! - x) * kx,
        by = (r[i]![1]! - y) * ky;
      const dx = bx - ax,
        dy = by - ay,
        l = dx * dx + dy * dy;
      const t = l ? Math.max(0, Math.min(1, -(ax * dx + ay * dy) / l)) : 0;
      best = Math.min(best, Math.hypot(ax + t * dx, ay + t * dy));
    }
  return best;
}
function bbox(f: W.DoubleFeature): W.Rect {
  const pts = (f.rings ?? f.paths ?? []).flat();
  return [
    Math.min(...pts.map((p) => p[0]!)),
    Math.min(...pts.map((p) => p[1]!)),
    Math.max(...pts.map((p) => p[0]!)),
    Math.max(...pts.map((p) => p[1]!)),
  ];
}

function serve(name: string, handle: (req: Request, url: URL, d: Double) => Promise<Response> | Response): Double {
  const d: Double = { url: "", mode: "ok", delayMs: 0, calls: 0, log: [], stop: () => {} };
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const url = new URL(req.url);
      d.calls++;
      d.log.push(`${req.method} ${url.pathname}${url.search}`);
      if (d.delayMs) await Bun.sleep(d.delayMs);
      switch (d.mode) {
        case "down":
          return new Response("Internal Server Error", { status: 500 });
        case "slow":
          await Bun.sleep(SLOW_MS);
          break;
        case "garbage":
          return new Response("\u0000\u00ff not json at all", { status: 200 });
        case "html":
          return new Response("<html><body><h1>Service Unavailable</h1></body></html>", {
            status: 200,
            headers: { "content-type": "text/html" },
          });
        case "empty":
          return new Response("", { status: 200 });
        case "arcgis-error":
          return Response.json({ error: { code: 500, message: "Error performing query operation", details: [] } });
        case "huge":
          return new Response(HUGE, { headers: { "content-type": "application/json" } });
        default:
          break;
      }
      return handle(req, url, d);
    },
  });
  d.url = `http://127.0.0.1:${server.port}`;
  d.stop = () => {
    void server.stop(true);
  };
  return d;
}

/** An ArcGIS REST map service with `layers` by path suffix ("/28", "/3", …). */
export function startArcgisDouble(root: string, layers: Record<string, W.DoubleFeature[]>): Double {
  return serve(root, (_req, url, d) => {
    const m = new RegExp(`^${root.replace(/[/.]/g, "\\$&")}(/\\d+)/query$`).exec(url.pathname);
    const feats = m ? layers[m[1]!] : undefined;
    if (!feats) return Response.json({ error: { code: 400, message: "Invalid URL", details: [] } }); // ArcGIS: 200 with error
    const p = url.searchParams;
    if (p.get("f") !== "json" || p.get("inSR") !== "4326" || !p.get("geometry"))
      return Response.json({
        error: {
          code: 400,
          message: "Unable to complete operation.",
          details: ["Invalid or missing input parameters."],
        },
      });
    const g = p.get("geometry")!.split(",").map(Number);
    const withGeometry = p.get("returnGeometry") === "true";
    let hits: W.DoubleFeature[];
    const envelope = p.get("geometryType") === "esriGeometryEnvelope";
    if (envelope) {
      hits = feats.filter((f) => {
        const b = bbox(f);
        return b[0] <= g[2]! && b[2] >= g[0]! && b[1] <= g[3]! && b[3] >= g[1]!;
      });
    } else {
      const [x, y] = g as [number, number];
      const dist = Number(p.get("distance") ?? 0);
      hits = feats.filter(
        (f) => (f.rings && inRings(f.rings, x, y)) || (dist > 0 && metres(f.rings ?? f.paths ?? [], x, y) <= dist),
      );
    }
    const features = hits.map((f) => ({
      attributes: f.attributes,
      ...(withGeometry ? { geometry: f.rings ? { rings: f.rings } : { paths: f.paths } } : {}),
    }));
    const body: Record<string, unknown> = {
      displayFieldName: "",
      fieldAliases: {},
      geometryType: "esriGeometryPolygon",
      spatialReference: { wkid: 4326, latestWkid: 4326 },
      fields: [],
      features,
    };
    if (d.mode === "exceeded" || (d.mode === "exceeded-area" && envelope)) body.exceededTransferLimit = true;
    return Response.json(body);
  });
}

export const NFHL_ROOT = "/arcgis/rest/services/public/NFHL/MapServer";
export const NWI_ROOT = "/wetlandsmapservice/rest/services/Wetlands/MapServer";
export const PWI_ROOT = "/aghost/rest/services/us_mn_state_dnr/water_mn_public_waters/FeatureServer";

export const startFemaDouble = () => startArcgisDouble(NFHL_ROOT, { "/28": W.FLOOD_HAZARD, "/3": W.FLOOD_PANEL });
export const startNwiDouble = () => startArcgisDouble(NWI_ROOT, { "/0": W.WETLANDS, "/1": W.WETLAND_PROJECTS });
export const startDnrDouble = () => startArcgisDouble(PWI_ROOT, { "/1": W.PWI_BASINS, "/0": W.PWI_WATERCOURSES });

export function startSdaDouble(): Double {
  return serve("sda", async (req, url) => {
    if (url.pathname !== "/Tabular/post.rest" || req.method !== "POST")
      return new Response("Not Found", { status: 404 });
    let body: any;
    try {
      body = await req.json();
    } catch {
      return new Response("Invalid JSON", { status: 400 });
    }
    if (body?.format !== "JSON+COLUMNNAME" || typeof body.query !== "string")
      return new Response("Invalid query", { status: 400 });
    const m = /point\(([-\d.]+) ([-\d.]+)\)/i.exec(body.query);
    if (!m) return new Response("Invalid query: no WKT point", { status: 400 });
    const x = Number(m[1]),
      y = Number(m[2]);
    const unit = W.SOIL_UNITS.find((u) => x >= u.rect[0] && x <= u.rect[2] && y >= u.rect[1] && y <= u.rect[3]);
    if (!unit) return Response.json({}); // zero rows
    const cols = ["mukey", "musym", "muname", "areasymbol", "areaname", "saversion", "saverest"];
    return Response.json({ Table: [cols, cols.map((c) => String(unit.attributes[c]))] });
  });
}

export function startEpqsDouble(): Double {
  return serve("epqs", (_req, url) => {
    if (url.pathname !== "/v1/json") return new Response("Not Found", { status: 404 });
    const x = Number(url.searchParams.get("x")),
      y = Number(url.searchParams.get("y"));
    if (!Number.isFinite(x) || !Number.isFinite(y))
      return Response.json({ detail: "invalid coordinates" }, { status: 422 });
    const feet = url.searchParams.get("units") === "Feet";
    const value =
      y < W.ELEVATION_NODATA_SOUTH_OF
        ? "-1000000"
        : ((feet ? 850.55 : 259.25) + Math.round((y - 44) * 100) / 100).toFixed(9);
    return Response.json({
      location: { x, y, spatialReference: { wkid: 4326, latestWkid: 4326 } },
      locationId: 0,
      value,
      rasterId: 51787,
      resolution: 1,
    });
  });
}

export interface ScreeningDoubles {
  fema: Double;
  nwi: Double;
  sda: Double;
  epqs: Double;
  dnr: Double;
  all: Double[];
  stop(): void;
  reset(): void;
}

export function startScreeningDoubles(): ScreeningDoubles {
  const fema = startFemaDouble(),
    nwi = startNwiDouble(),
    sda = startSdaDouble(),
    epqs = startEpqsDouble(),
    dnr = startDnrDouble();
  const all = [fema, nwi, sda, epqs, dnr];
  return {
    fema,
    nwi,
    sda,
    epqs,
    dnr,
    all,
    stop: () => all.forEach((d) => d.stop()),
    reset: () =>
      all.forEach((d) => {
        d.mode = "ok";
        d.delayMs = 0;
        d.calls = 0;
        d.log = [];
      }),
  };
}

/** The screening config block pointing every service at the doubles. */
export function screeningConfigFor(d: ScreeningDoubles, timeoutMs = 200) {
  return {
    h3_resolution: W.RES,
    cache_entries: 10_000,
    cache_ttl_s: 3600,
    cache_mb: 64,
    max_concurrent: 64,
    max_bytes: 1024 * 1024,
    wetlands_near_m: 30,
    flood: { enabled: true, base_url: `${d.fema.url}${NFHL_ROOT}`, timeout_ms: timeoutMs },
    wetlands: { enabled: true, base_url: `${d.nwi.url}${NWI_ROOT}`, timeout_ms: timeoutMs },
    soils: { enabled: true, base_url: `${d.sda.url}/Tabular/post.rest`, timeout_ms: timeoutMs },
    elevation: { enabled: true, base_url: `${d.epqs.url}/v1/json`, timeout_ms: timeoutMs },
    shoreland: {
      enabled: true,
      base_url: `${d.dnr.url}${PWI_ROOT}/1`,
      watercourses_url: `${d.dnr.url}${PWI_ROOT}/0`,
      timeout_ms: timeoutMs,
    },
  };
}
