// Wetlands: USFWS National Wetlands Inventory, ArcGIS REST MapServer (../shared/data/SOURCES.md, "USFWS NWI").
//   layer 0 "Wetlands": ATTRIBUTE (Cowardin code, e.g. "PEM1C"), WETLAND_TYPE ("Freshwater Emergent Wetland", …),
//           ACRES.
//   layer 1 "Wetlands Project Metadata": IMAGE_YR (year of the imagery the mapping was interpreted from; 0 or null
//           for scalable/interim products), IMAGE_DATE, SOURCE_TYPE, SUPPMAPINFO — the layer list of the public
//           Wetlands MapServer and the USGS-WiM Wetlands Mapper, which reads IMAGE_YR from layer 1.
//
// STATUS TABLE (at the exact point; `near` distance = screening.wetlands_near_m, default 30 m):
//   the point is inside a mapped wetland or deepwater polygon          → yes
//   not inside, but a mapped wetland lies within the near distance      → near
//   no mapped wetland within the near distance                          → no (NWI maps from imagery; small or
//                                                                          forested wetlands are often missed)
import { attr, queryLayer } from "./arcgis";
import { contains, distanceMetres, within, type Feature } from "./geometry";
import { serviceConfig, type ServiceDef } from "./types";

const FIELDS = ["ATTRIBUTE", "WETLAND_TYPE", "ACRES"];
const META_FIELDS = ["IMAGE_YR", "IMAGE_DATE", "SOURCE_TYPE"];

const describe = (f: Feature) => {
  const type = String(attr(f.attrs, "WETLAND_TYPE") ?? "").trim();
  const code = String(attr(f.attrs, "ATTRIBUTE") ?? "").trim();
  const acres = Number(attr(f.attrs, "ACRES"));
  return {
    type: type || null,
    code: code || null,
    acres: Number.isFinite(acres) ? Math.round(acres * 100) / 100 : null,
  };
};

export const wetlands: ServiceDef<"wetlands"> = {
  name: "wetlands",
  label: "Wetlands",
  statuses: ["yes", "near", "no", "unknown"],
  defaults: {
    enabled: true,
    base_url: "https://fwspublicservices.wim.usgs.gov/wetlandsmapservice/rest/services/Wetlands/MapServer",
    timeout_ms: 0,
  },
  topic: "wetlands",
  calls: 2,
  layerKind: "wetlands",
  caveat:
    "Screening only, not a wetland delineation: the National Wetlands Inventory is mapped from aerial " +
    "imagery and misses many wetlands (small, forested, or drained ones) or shows some that are gone. " +
    "Only a field delineation accepted by the deciding agencies counts.",
  decider: (p) =>
    p.state === "MN"
      ? {
          description:
            "In Minnesota the Wetland Conservation Act local government unit (usually the county, city or soil " +
            "and water conservation district) and the US Army Corps of Engineers (Clean Water Act section 404) " +
            "decide, from a field delineation.",
          function: "zoning",
        }
      : {
          description:
            "The US Army Corps of Engineers (Clean Water Act section 404) and the state's wetland program decide, " +
            "from a field delineation; the local zoning office applies any local wetland setbacks.",
          function: "zoning",
        },
  origin: (c) => ({
    dataset: "USFWS National Wetlands Inventory (NWI)",
    publisher: "U.S. Fish and Wildlife Service",
    as_of: null,
    url: serviceConfig(c, wetlands).base_url,
  }),
  reachM: (c) => c.wetlands_near_m,
  drawn: (f) => (f.layer === "wetland" ? { label: "Mapped wetland", tone: "wetland" } : null),
  async fetchArea(http, envelope, c) {
    const base = serviceConfig(c, wetlands).base_url.replace(/\/+$/, "");
    const [w, m] = await Promise.all([
      queryLayer(http, { layerUrl: `${base}/0`, layer: "wetland", outFields: FIELDS, where: { envelope } }),
      queryLayer(http, { layerUrl: `${base}/1`, layer: "project", outFields: META_FIELDS, where: { envelope } }),
    ]);
    return [...w, ...m];
  },
  async fetchPoint(http, lon, lat, c) {
    const base = serviceConfig(c, wetlands).base_url.replace(/\/+$/, "");
    const [inside, near, m] = await Promise.all([
      queryLayer(http, { layerUrl: `${base}/0`, layer: "wetland", outFields: FIELDS, where: { point: [lon, lat] } }),
      queryLayer(http, {
        layerUrl: `${base}/0`,
        layer: "wetland",
        outFields: FIELDS,
        where: { point: [lon, lat], distanceM: c.wetlands_near_m },
      }),
      queryLayer(http, {
        layerUrl: `${base}/1`,
        layer: "project",
        outFields: META_FIELDS,
        where: { point: [lon, lat] },
      }),
    ]);
    return [...inside, ...near, ...m];
  },
  read(features, lon, lat, origin, c) {
    const wet = features.filter((f) => f.layer === "wetland");
    const project = features.find((f) => f.layer === "project" && contains(f, lon, lat));
    const yr = project ? Number(attr(project.attrs, "IMAGE_YR")) : NaN;
    const imageYear = Number.isFinite(yr) && yr > 1900 ? String(yr) : null;
    const inside = wet.find((f) => contains(f, lon, lat));
    const base = { dataset: origin.dataset, publisher: origin.publisher, as_of: imageYear ?? origin.as_of };
    if (inside) {
      const d = describe(inside);
      return {
        ...base,
        status: "yes",
        summary: `Inside a mapped wetland${d.type ? ` (${d.type})` : ""}: wetland rules may apply to filling, draining or building here.`,
        detail: `National Wetlands Inventory ${d.code ? `code ${d.code}` : "polygon"}${d.acres !== null ? `, ${d.acres} acres` : ""}${imageYear ? `, mapped from ${imageYear} imagery` : ""}.`,
        values: { wetland_type: d.type, cowardin_code: d.code, acres: d.acres, distance_m: 0, image_year: imageYear },
      };
    }
    const near = wet
      .filter((f) => within(f, lon, lat, c.wetlands_near_m))
      .map((f) => ({ f, d: f.hit === "near" ? null : distanceMetres(f, lon, lat) }))
      .sort((a, b) => (a.d ?? 0) - (b.d ?? 0))[0];
    if (near) {
      const d = describe(near.f);
      const metres = near.d === null ? null : Math.round(near.d);
      return {
        ...base,
        status: "near",
        summary: `Near a mapped wetland (within ${c.wetlands_near_m} m): a wetland or its buffer may reach the property.`,
        detail: `${d.type ?? "A mapped wetland"}${d.code ? ` (${d.code})` : ""} lies ${metres === null ? `within ${c.wetlands_near_m} m` : `about ${metres} m`} from the point.`,
        values: {
          wetland_type: d.type,
          cowardin_code: d.code,
          acres: d.acres,
          distance_m: metres,
          near_within_m: c.wetlands_near_m,
          image_year: imageYear,
        },
      };
    }
    return {
      ...base,
      status: "no",
      summary: `No mapped wetland at the point or within ${c.wetlands_near_m} m.`,
      detail: project ? null : "No National Wetlands Inventory project metadata covers the point.",
      values: { near_within_m: c.wetlands_near_m, image_year: imageYear },
    };
  },
};
