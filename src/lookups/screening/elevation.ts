// Elevation: USGS Elevation Point Query Service v1, GET <base>?x=<lon>&y=<lat>&wkid=4326&units=Feet&includeDate=false
// (../shared/data/SOURCES.md, "USGS EPQS v1"). Reply: {"location":{"x":…,"y":…,"spatialReference":{"wkid":4326}},
// "locationId":0,"value":"1594.441284180","rasterId":51787,"resolution":1}. `value` IS A STRING (some clients
// see a number); outside coverage it is null or a large negative sentinel: anything below -10000 is no data.
//
// STATUS TABLE:
//   a value ≥ -10000 ft              → ok (feet, resolution_m)
//   null, non-numeric or < -10000    → unknown ("no elevation data at this point")
// EPQS gives no acquisition date in this reply, so as_of is null.
import { UpstreamError } from "../http-client";
import { isObject } from "./arcgis";
import type { Feature } from "./geometry";
import { serviceConfig, type ServiceDef } from "./types";

export function parseEpqs(body: unknown): { feet: number | null; resolution: number | null } {
  if (!isObject(body) || !("value" in body)) throw new UpstreamError("bad-reply", "EPQS reply has no value");
  const raw = body.value;
  const n = typeof raw === "number" ? raw : typeof raw === "string" && raw.trim() !== "" ? Number(raw) : NaN;
  const res = Number(body.resolution);
  return { feet: Number.isFinite(n) && n >= -10000 ? n : null, resolution: Number.isFinite(res) ? res : null };
}

export const elevation: ServiceDef<"elevation"> = {
  name: "elevation",
  label: "Elevation",
  statuses: ["ok", "unknown"],
  defaults: { enabled: true, base_url: "https://epqs.nationalmap.gov/v1/json", timeout_ms: 0 },
  topic: "elevation",
  calls: 1,
  caveat:
    "Screening only: a ground elevation interpolated from the national elevation model at this point, not " +
    "a survey. Flood insurance and floodplain permits use an Elevation Certificate by a licensed " +
    "surveyor.",
  decider: () => ({
    description:
      "A licensed land surveyor (an Elevation Certificate) establishes the elevation of a building site; the floodplain administrator uses it.",
    function: "permits",
  }),
  origin: (c) => ({
    dataset: "USGS 3D Elevation Program via the Elevation Point Query Service",
    publisher: "U.S. Geological Survey",
    as_of: null,
    url: serviceConfig(c, elevation).base_url,
  }),
  reachM: () => 0,
  async fetchPoint(http, lon, lat, c) {
    const u = new URL(serviceConfig(c, elevation).base_url);
    u.searchParams.set("x", String(lon));
    u.searchParams.set("y", String(lat));
    u.searchParams.set("wkid", "4326");
    u.searchParams.set("units", "Feet");
    u.searchParams.set("includeDate", "false");
    const r = parseEpqs(await http.get(u));
    return [{ layer: "value", attrs: { feet: r.feet, resolution: r.resolution }, hit: "inside" as const }];
  },
  read(features: Feature[], _lon, _lat, origin) {
    const v = features.find((f) => f.layer === "value");
    const feet = v ? (v.attrs.feet as number | null) : null;
    if (feet === null) {
      return {
        status: "unknown",
        summary: "No elevation is available for this point.",
        detail: "The elevation service has no data at this point (outside its coverage, or water).",
        values: {},
        dataset: origin.dataset,
        publisher: origin.publisher,
        as_of: null,
      };
    }
    const ft = Math.round(feet * 10) / 10;
    const res = v!.attrs.resolution as number | null;
    return {
      status: "ok",
      summary: `Ground elevation about ${ft} ft (${Math.round(feet * 0.3048 * 10) / 10} m) above sea level (NAVD 88).`,
      detail: res !== null ? `From elevation data of ${res} m resolution.` : null,
      values: { feet: ft, metres: Math.round(feet * 0.3048 * 100) / 100, resolution_m: res },
      dataset: origin.dataset,
      publisher: origin.publisher,
      as_of: null,
    };
  },
};
