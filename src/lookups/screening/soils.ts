// Soils: NRCS Soil Data Access (SDA), POST <base>/Tabular/post.rest with JSON {"query": "<SQL>", "format":
// "JSON+COLUMNNAME"} (../shared/data/SOURCES.md, "NRCS SDA"). The reply is {"Table": [[column names], [row], …]}
// with every value a string; ZERO ROWS ARE `{}` (no Table key). The map unit at the point comes from the SDA table
// function SDA_Get_Mukey_from_intersection_with_WktWgs84('point(lon lat)'); the survey area's version and date
// from sacatalog.saversion ("Survey Area Version") and sacatalog.saverest ("Survey Area Version Established"),
// joined through legend.areasymbol (the SSURGO sacatalog table, as listed by the gSSURGO services).
//
// STATUS TABLE:
//   a map unit at the point                          → ok (map_unit = musym, muname, mukey, survey area, version)
//   no map unit (not surveyed, or a gap in the data)  → none
// Offline: a loaded SSURGO map-unit layer (soilmu_a_*: AREASYMBOL, SPATIALVER, MUSYM, MUKEY) answers the same way.
import { UpstreamError } from "../http-client";
import { attr, isObject } from "./arcgis";
import { contains, type Feature } from "./geometry";
import { serviceConfig, type ServiceDef } from "./types";

function soilQuery(lon: number, lat: number): string {
  const wkt = `point(${lon.toFixed(8)} ${lat.toFixed(8)})`;
  return (
    "SELECT mu.mukey, mu.musym, mu.muname, l.areasymbol, l.areaname, sc.saversion, sc.saverest " +
    "FROM mapunit mu INNER JOIN legend l ON l.lkey = mu.lkey INNER JOIN sacatalog sc ON sc.areasymbol = l.areasymbol " +
    `WHERE mu.mukey IN (SELECT * FROM SDA_Get_Mukey_from_intersection_with_WktWgs84('${wkt}'))`
  );
}

/** The post.rest reply as rows of named strings. */
export function parseSdaReply(body: unknown): Record<string, string | null>[] {
  if (!isObject(body)) throw new UpstreamError("bad-reply", "SDA reply is not a JSON object");
  if (body.Table === undefined) {
    if (Object.keys(body).length === 0) return [];
    throw new UpstreamError("bad-reply", "SDA reply has no Table");
  }
  const t = body.Table;
  if (!Array.isArray(t) || t.length === 0 || !Array.isArray(t[0]))
    throw new UpstreamError("bad-reply", "SDA Table is not a list of rows");
  const cols = (t[0] as unknown[]).map((c) => String(c).toLowerCase());
  if (!cols.includes("mukey")) throw new UpstreamError("bad-reply", "SDA Table has no mukey column");
  return t.slice(1).map((row, i) => {
    if (!Array.isArray(row) || row.length !== cols.length)
      throw new UpstreamError("bad-reply", `SDA row ${i} does not match the columns`);
    return Object.fromEntries(cols.map((c, k) => [c, row[k] === null || row[k] === undefined ? null : String(row[k])]));
  });
}

const dateOf = (s: string | null): string | null => {
  if (!s) return null;
  const d = new Date(s);
  return Number.isNaN(d.getTime()) ? null : d.toISOString().slice(0, 10);
};

export const soils: ServiceDef<"soils"> = {
  name: "soils",
  label: "Soils",
  statuses: ["ok", "none", "unknown"],
  defaults: { enabled: true, base_url: "https://sdmdataaccess.sc.egov.usda.gov/Tabular/post.rest", timeout_ms: 0 },
  topic: "soils",
  calls: 1,
  layerKind: "soils",
  caveat:
    "Screening only: soil survey map units are mapped at 1:12,000 to 1:24,000 and hold inclusions of " +
    "other soils. A site evaluation by a licensed soil scientist or septic designer decides what the " +
    "ground at this spot is.",
  decider: () => ({
    description:
      "The county or city permit office decides on septic systems and building sites from an on-site soil evaluation by a licensed professional; NRCS publishes the soil survey.",
    function: "permits",
  }),
  origin: (c) => ({
    dataset: "NRCS Soil Survey (SSURGO) via Soil Data Access",
    publisher: "USDA Natural Resources Conservation Service",
    as_of: null,
    url: serviceConfig(c, soils).base_url,
  }),
  reachM: () => 0,
  async fetchPoint(http, lon, lat, c) {
    const body = await http.post(
      serviceConfig(c, soils).base_url,
      JSON.stringify({ query: soilQuery(lon, lat), format: "JSON+COLUMNNAME" }),
    );
    return parseSdaReply(body).map((r) => ({ layer: "mapunit", attrs: r, hit: "inside" as const }));
  },
  read(features: Feature[], lon, lat, origin) {
    const mu = features.find((f) => f.layer === "mapunit" && contains(f, lon, lat));
    if (!mu) {
      return {
        status: "none",
        summary: "No soil survey map unit is mapped at this point (not surveyed, water, or a gap in the survey).",
        detail: null,
        values: {},
        dataset: origin.dataset,
        publisher: origin.publisher,
        as_of: origin.as_of,
      };
    }
    const s = (k: string) => {
      const v = attr(mu.attrs, k);
      return v === null || v === undefined || v === "" ? null : String(v);
    };
    const version = s("saversion") ?? s("spatialver");
    const established = dateOf(s("saverest"));
    const name = s("muname");
    return {
      status: "ok",
      summary: `Soil map unit ${s("musym") ?? s("mukey")}${name ? `: ${name}` : ""}.`,
      detail: `Survey area ${s("areasymbol") ?? "(unknown)"}${s("areaname") ? ` (${s("areaname")})` : ""}${version ? `, version ${version}` : ""}${established ? ` of ${established}` : ""}.`,
      values: {
        map_unit: s("musym"),
        map_unit_name: name,
        mukey: s("mukey"),
        survey_area: s("areasymbol"),
        survey_version: version,
        survey_version_date: established,
      },
      dataset: origin.dataset,
      publisher: origin.publisher,
      as_of: established ?? (version ? `version ${version}` : origin.as_of),
    };
  },
};
