// Shoreland (Minnesota only): MN DNR Public Waters Inventory (../shared/data/SOURCES.md, "MN DNR Public Waters
// Inventory"): basins (FeatureServer/1: pw_basin_name, dowlknum, pwi_class "P"/"W", pwi_label, wettype, acres,
// shore_mi, dnr_shoreland_class) and watercourses (FeatureServer/0: kittle_name, kittle_nbr, pwi_label, entire,
// upsum_sqmi). Shoreland (Minn. R. 6120.2500): land within 1,000 ft of a public-water basin's ordinary high water
// level or within 300 ft of a public watercourse. No documented public query service was found, so the fact is
// read from a loaded PWI layer (`load-layer --kind shoreland`) or from ArcGIS layers the operator configures
// (screening.shoreland.base_url = basins layer, watercourses_url = watercourses layer); otherwise unknown.
//
// STATUS TABLE (distances from the exact point; the layer's polygon edge stands for the ordinary high water level):
//   within 1,000 ft (304.8 m) of a PWI basin, or within 300 ft (91.44 m) of a PWI watercourse → likely
//   neither                                                                                   → no
import { attr, queryLayer } from "./arcgis";
import { distanceMetres, within, type Feature } from "./geometry";
import { serviceConfig, type ScreeningServiceConfig, type ServiceDef } from "./types";

const BASIN_M = 304.8;
const WATERCOURSE_M = 91.44;
const BASIN_FIELDS = ["pw_basin_name", "dowlknum", "pwi_class", "pwi_label", "dnr_shoreland_class"];
const COURSE_FIELDS = ["kittle_name", "kittle_nbr", "pwi_label"];

export const shoreland: ServiceDef<"shoreland", ScreeningServiceConfig & { watercourses_url: string }> = {
  name: "shoreland",
  label: "Shoreland (Minnesota)",
  statuses: ["likely", "no", "unknown"],
  onlyIn: { states: ["MN"], words: "in Minnesota" },
  // No documented public query service: the operator may configure the basins layer (base_url) and the
  // watercourses layer of an ArcGIS service they trust. Off by default.
  defaults: { enabled: false, base_url: "", watercourses_url: "", timeout_ms: 0 },
  topic: "zoning",
  calls: 2,
  layerKind: "shoreland",
  caveat:
    "Screening only: distances are measured to the mapped public water, not to the ordinary high water " +
    "level surveyed on the ground, and the county or city ordinance may classify waters differently. The " +
    "local shoreland ordinance decides.",
  decider: () => ({
    description:
      "The county (or the city, inside city limits) administers shoreland rules under its DNR-approved shoreland ordinance; the Minnesota DNR decides what is a public water.",
    function: "zoning",
  }),
  configured: (c) => serviceConfig(c, shoreland).watercourses_url !== "",
  origin: (c) => ({
    dataset: "MN DNR Public Waters Inventory (PWI)",
    publisher: "Minnesota Department of Natural Resources",
    as_of: null,
    url: serviceConfig(c, shoreland).base_url,
  }),
  reachM: () => BASIN_M,
  drawn: (f) =>
    f.layer === "basin"
      ? { label: "Public water (basin)", tone: "water" }
      : f.layer === "watercourse"
        ? { label: "Public watercourse", tone: "water" }
        : null,
  async fetchArea(http, envelope, c) {
    const [b, w] = await Promise.all([
      queryLayer(http, {
        layerUrl: serviceConfig(c, shoreland).base_url,
        layer: "basin",
        outFields: BASIN_FIELDS,
        where: { envelope },
      }),
      queryLayer(http, {
        layerUrl: serviceConfig(c, shoreland).watercourses_url,
        layer: "watercourse",
        outFields: COURSE_FIELDS,
        where: { envelope },
      }),
    ]);
    return [...b, ...w];
  },
  async fetchPoint(http, lon, lat, c) {
    const [b, w] = await Promise.all([
      queryLayer(http, {
        layerUrl: serviceConfig(c, shoreland).base_url,
        layer: "basin",
        outFields: BASIN_FIELDS,
        where: { point: [lon, lat], distanceM: BASIN_M },
      }),
      queryLayer(http, {
        layerUrl: serviceConfig(c, shoreland).watercourses_url,
        layer: "watercourse",
        outFields: COURSE_FIELDS,
        where: { point: [lon, lat], distanceM: WATERCOURSE_M },
      }),
    ]);
    return [...b, ...w];
  },
  read(features: Feature[], lon, lat, origin) {
    const near = (layer: string, m: number) =>
      features
        .filter((f) => f.layer === layer && within(f, lon, lat, m))
        .map((f) => ({ f, d: f.hit ? null : distanceMetres(f, lon, lat) }))
        .sort((a, b) => (a.d ?? 0) - (b.d ?? 0))[0];
    const basin = near("basin", BASIN_M);
    const course = near("watercourse", WATERCOURSE_M);
    const base = { dataset: origin.dataset, publisher: origin.publisher, as_of: origin.as_of };
    const ft = (d: number | null) => (d === null ? null : Math.round(d / 0.3048));
    if (basin || course) {
      const s = (f: Feature, k: string) => {
        const v = attr(f.attrs, k);
        return v === null || v === undefined || v === "" ? null : String(v);
      };
      const what = basin
        ? `${s(basin.f, "pw_basin_name") ?? "a public water basin"}${s(basin.f, "dowlknum") ? ` (DOW ${s(basin.f, "dowlknum")})` : ""}${basin.d !== null ? `, about ${ft(basin.d)} ft away` : ", within 1,000 ft"}`
        : `${s(course!.f, "kittle_name") ?? "a public watercourse"}${course!.d !== null ? `, about ${ft(course!.d)} ft away` : ", within 300 ft"}`;
      return {
        ...base,
        status: "likely",
        summary: "Likely in a shoreland area: shoreland rules (setbacks, lot size, vegetation) probably apply.",
        detail: `Near ${what}.`,
        values: {
          basin: basin ? s(basin.f, "pw_basin_name") : null,
          basin_id: basin ? s(basin.f, "dowlknum") : null,
          basin_distance_ft: basin ? ft(basin.d) : null,
          watercourse: course ? s(course.f, "kittle_name") : null,
          watercourse_distance_ft: course ? ft(course.d) : null,
        },
      };
    }
    return {
      ...base,
      status: "no",
      summary:
        "Not within 1,000 ft of a public water basin or 300 ft of a public watercourse on the Public Waters Inventory.",
      detail: null,
      values: {},
    };
  },
};
