// Flood: FEMA National Flood Hazard Layer (NFHL), ArcGIS REST MapServer (../shared/data/SOURCES.md, "FEMA NFHL").
//   layer 28 S_FLD_HAZ_AR: FLD_ZONE ("AE", "X", "A", "VE", "D", …), ZONE_SUBTY ("AREA OF MINIMAL FLOOD HAZARD",
//            "0.2 PCT ANNUAL CHANCE FLOOD HAZARD", "FLOODWAY", null or ""), SFHA_TF ("T"/"F"), STATIC_BFE (number;
//            -9999 = no BFE), DFIRM_ID.
//   layer 3  S_FIRM_PAN:   FIRM_PAN ("3604970189F"), EFF_DATE (epoch milliseconds), DFIRM_ID, PANEL_TYP.
// Gotcha (SOURCES.md): an empty layer-28 result means the point is not in a mapped area; it does NOT mean zone X.
//
// STATUS TABLE (the features at the exact point; several → the most severe):
//   SFHA_TF "T", or FLD_ZONE A, AE, AH, AO, AR, A99, V, VE (and A1–A30, V1–V30)   → sfha
//   FLD_ZONE X with a 0.2 % subtype ("0.2 PCT…", also "1 PCT FUTURE…", levee-reduced risk), or B        → moderate
//   FLD_ZONE X otherwise (minimal flood hazard), or C                                                      → minimal
//   FLD_ZONE D (possible but undetermined hazard), "AREA NOT INCLUDED", OPEN WATER, anything else           → unmapped
//   no flood hazard area at the point (with or without a FIRM panel)                                       → unmapped
// Why unmapped and not minimal for "no feature": modernized FIRMs draw zone X (minimal) as features too, so a gap
// means no digital flood data there (an unmodernized paper map or an area left out); only the paper FIRM or the
// community can tell.
import { attr, queryLayer } from "./arcgis";
import { contains, type Feature } from "./geometry";
import { serviceConfig, type ServiceDef } from "./types";

const HAZARD_FIELDS = ["FLD_ZONE", "ZONE_SUBTY", "SFHA_TF", "STATIC_BFE", "DFIRM_ID"];
const PANEL_FIELDS = ["FIRM_PAN", "EFF_DATE", "DFIRM_ID", "PANEL_TYP"];
const SEVERITY: Record<string, number> = { sfha: 3, moderate: 2, minimal: 1, unmapped: 0 };

function floodStatus(zone: string, subtype: string, sfha: string): "sfha" | "moderate" | "minimal" | "unmapped" {
  const z = zone.trim().toUpperCase(),
    s = subtype.trim().toUpperCase();
  if (sfha.trim().toUpperCase() === "T" || /^(A|AE|AH|AO|AR|A99|V|VE|A\d{1,2}|V\d{1,2})$/.test(z)) return "sfha";
  if (z === "B" || (z === "X" && /0\.2 PCT|1 PCT FUTURE|REDUCED FLOOD RISK DUE TO LEVEE|FUTURE CONDITIONS/.test(s)))
    return "moderate";
  if (z === "X" || z === "C") return "minimal";
  return "unmapped";
}

const SUMMARY = {
  sfha: "In a Special Flood Hazard Area (1 % annual chance flood): flood insurance is usually required for a federally backed mortgage, and floodplain rules apply to building.",
  moderate:
    "In a moderate flood hazard area (0.2 % annual chance flood, or protected by a levee): outside the regulated floodplain.",
  minimal: "In an area of minimal flood hazard on the effective flood map.",
  unmapped:
    "No digital flood hazard zone is mapped at this point; the flood hazard here is not determined by the digital map.",
};

const DRAWN = {
  sfha: "1 % annual chance flood zone (SFHA)",
  moderate: "0.2 % annual chance flood zone",
};

const str = (v: unknown) => (v === null || v === undefined ? "" : String(v));
const isoDate = (v: unknown): string | null => {
  const n = typeof v === "number" ? v : typeof v === "string" && /^\d+$/.test(v) ? Number(v) : NaN;
  if (Number.isFinite(n)) return new Date(n).toISOString().slice(0, 10);
  if (typeof v === "string" && /^\d{4}-\d{2}-\d{2}/.test(v)) return v.slice(0, 10);
  return null;
};

export const flood: ServiceDef<"flood"> = {
  name: "flood",
  label: "Flood zone",
  statuses: ["sfha", "moderate", "minimal", "unmapped", "unknown"],
  defaults: {
    enabled: true,
    base_url: "https://hazards.fema.gov/arcgis/rest/services/public/NFHL/MapServer",
    timeout_ms: 0,
  },
  topic: "floodplain",
  calls: 2,
  layerKind: "flood",
  caveat:
    "Screening only, not a flood zone determination: read from the effective digital flood map at this " +
    "exact point. The community's floodplain administrator and the effective FIRM decide; a surveyed " +
    "Elevation Certificate or a FEMA Letter of Map Amendment can change the answer for a building.",
  decider: () => ({
    description:
      "The community's floodplain administrator (usually the zoning or building permit office) applies the effective FEMA Flood Insurance Rate Map; FEMA decides map amendments (LOMA/LOMR).",
    function: "permits",
  }),
  origin: (c) => ({
    dataset: "FEMA National Flood Hazard Layer (NFHL)",
    publisher: "Federal Emergency Management Agency (FEMA)",
    as_of: null,
    url: serviceConfig(c, flood).base_url,
  }),
  reachM: () => 0,
  async fetchArea(http, envelope, c) {
    const base = serviceConfig(c, flood).base_url.replace(/\/+$/, "");
    const [hz, pn] = await Promise.all([
      queryLayer(http, { layerUrl: `${base}/28`, layer: "hazard", outFields: HAZARD_FIELDS, where: { envelope } }),
      queryLayer(http, { layerUrl: `${base}/3`, layer: "panel", outFields: PANEL_FIELDS, where: { envelope } }),
    ]);
    return [...hz, ...pn];
  },
  async fetchPoint(http, lon, lat, c) {
    const base = serviceConfig(c, flood).base_url.replace(/\/+$/, "");
    const [hz, pn] = await Promise.all([
      queryLayer(http, {
        layerUrl: `${base}/28`,
        layer: "hazard",
        outFields: HAZARD_FIELDS,
        where: { point: [lon, lat] },
      }),
      queryLayer(http, {
        layerUrl: `${base}/3`,
        layer: "panel",
        outFields: PANEL_FIELDS,
        where: { point: [lon, lat] },
      }),
    ]);
    return [...hz, ...pn];
  },
  drawn(f) {
    if (f.layer !== "hazard") return null;
    const s = floodStatus(
      str(attr(f.attrs, "FLD_ZONE")),
      str(attr(f.attrs, "ZONE_SUBTY")),
      str(attr(f.attrs, "SFHA_TF")),
    );
    if (s === "sfha") return { label: DRAWN.sfha, tone: "flood" };
    return s === "moderate" ? { label: DRAWN.moderate, tone: "flood-moderate" } : null;
  },
  read(features: Feature[], lon, lat, origin) {
    const here = features.filter((f) => contains(f, lon, lat));
    let best: { f: Feature; status: keyof typeof SUMMARY } | null = null;
    for (const f of here.filter((x) => x.layer === "hazard")) {
      const status = floodStatus(
        str(attr(f.attrs, "FLD_ZONE")),
        str(attr(f.attrs, "ZONE_SUBTY")),
        str(attr(f.attrs, "SFHA_TF")),
      );
      if (!best || SEVERITY[status]! > SEVERITY[best.status]!) best = { f, status };
    }
    const panel = here.find((f) => f.layer === "panel") ?? null;
    const values: Record<string, unknown> = {};
    const zone = best ? str(attr(best.f.attrs, "FLD_ZONE")).trim() : "";
    const subtype = best ? str(attr(best.f.attrs, "ZONE_SUBTY")).trim() : "";
    const bfe = best ? Number(attr(best.f.attrs, "STATIC_BFE")) : NaN;
    values.zone = zone || null;
    values.subtype = subtype || null;
    values.sfha = best
      ? str(attr(best.f.attrs, "SFHA_TF")).trim().toUpperCase() === "T" || best.status === "sfha"
      : false;
    values.base_flood_elevation_ft = Number.isFinite(bfe) && bfe > -9000 ? bfe : null;
    values.firm_panel = panel ? str(attr(panel.attrs, "FIRM_PAN")) || null : null;
    values.dfirm_id = best
      ? str(attr(best.f.attrs, "DFIRM_ID")) || null
      : panel
        ? str(attr(panel.attrs, "DFIRM_ID")) || null
        : null;
    const effective = panel ? isoDate(attr(panel.attrs, "EFF_DATE")) : null;
    values.panel_effective_date = effective;
    const status = best?.status ?? "unmapped";
    const detail = best
      ? `Flood zone ${zone || "(none given)"}${subtype ? ` (${subtype.toLowerCase()})` : ""}${values.base_flood_elevation_ft !== null ? `, base flood elevation ${values.base_flood_elevation_ft} ft` : ""}${values.firm_panel ? `, FIRM panel ${values.firm_panel}` : ""}${effective ? ` effective ${effective}` : ""}.`
      : panel
        ? `The point is on FIRM panel ${values.firm_panel ?? "(unnumbered)"}${effective ? ` (effective ${effective})` : ""}, but no flood hazard area is drawn there in the digital layer; check the panel itself.`
        : "No flood map panel or flood hazard area covers the point in the digital layer.";
    return {
      status,
      summary: SUMMARY[status],
      detail,
      values,
      dataset: origin.dataset,
      publisher: origin.publisher,
      as_of: effective ?? origin.as_of,
    };
  },
};
