// The made-up map the screening doubles answer from (NOT real data): features around a point C in Minneapolis
// (Hennepin County, MN) that is the centre of its H3 cell at the default resolution, so that a flood zone edge
// can run through the middle of one cell. Rectangles are [minLon, minLat, maxLon, maxLat].
import { cellToLatLng, latLngToCell } from "h3-js";

export const RES = 11;
const [cLat, cLon] = cellToLatLng(latLngToCell(44.977, -93.265, RES));
export const C = { lat: cLat, lon: cLon };

export type Rect = [number, number, number, number];
export interface DoubleFeature {
  attributes: Record<string, unknown>;
  rings?: number[][][];
  paths?: number[][][];
}
const rect = (r: Rect): number[][][] => [
  [
    [r[0], r[1]],
    [r[2], r[1]],
    [r[2], r[3]],
    [r[0], r[3]],
    [r[0], r[1]],
  ],
];
const poly = (r: Rect, attributes: Record<string, unknown>): DoubleFeature => ({ attributes, rings: rect(r) });

const W = C.lon - 0.005,
  E = C.lon + 0.005;
export const FLOOD_HAZARD: DoubleFeature[] = [
  poly([W, C.lat - 0.003, C.lon, C.lat + 0.003], {
    FLD_ZONE: "AE",
    ZONE_SUBTY: null,
    SFHA_TF: "T",
    STATIC_BFE: 812.5,
    DFIRM_ID: "27053C",
  }),
  poly([C.lon, C.lat - 0.003, E, C.lat + 0.003], {
    FLD_ZONE: "X",
    ZONE_SUBTY: "0.2 PCT ANNUAL CHANCE FLOOD HAZARD",
    SFHA_TF: "F",
    STATIC_BFE: -9999,
    DFIRM_ID: "27053C",
  }),
  poly([W, C.lat + 0.003, E, C.lat + 0.006], {
    FLD_ZONE: "X",
    ZONE_SUBTY: "AREA OF MINIMAL FLOOD HAZARD",
    SFHA_TF: "F",
    STATIC_BFE: -9999,
    DFIRM_ID: "27053C",
  }),
  poly([W, C.lat + 0.006, E, C.lat + 0.009], {
    FLD_ZONE: "D",
    ZONE_SUBTY: "",
    SFHA_TF: "F",
    STATIC_BFE: -9999,
    DFIRM_ID: "27053C",
  }),
];
export const FLOOD_PANEL: DoubleFeature[] = [
  poly([W, C.lat - 0.003, E, C.lat + 0.012], {
    FIRM_PAN: "27053C0358F",
    EFF_DATE: 1288310400000,
    DFIRM_ID: "27053C",
    PANEL_TYP: "Countywide, Panel Printed",
  }),
];
/** One test point per flood status (and one more on a panel without hazard areas). */
export const FLOOD_POINTS = {
  sfha: { lon: C.lon - 0.002, lat: C.lat },
  moderate: { lon: C.lon + 0.002, lat: C.lat },
  minimal: { lon: C.lon, lat: C.lat + 0.0045 },
  unmapped_d: { lon: C.lon, lat: C.lat + 0.0075 },
  unmapped_panel_only: { lon: C.lon, lat: C.lat + 0.0105 },
  unmapped_nothing: { lon: C.lon, lat: C.lat - 0.006 },
};

export const WETLANDS: DoubleFeature[] = [
  poly([C.lon + 0.002, C.lat - 0.001, C.lon + 0.003, C.lat + 0.001], {
    ATTRIBUTE: "PEM1C",
    WETLAND_TYPE: "Freshwater Emergent Wetland",
    ACRES: 3.21,
  }),
];
export const WETLAND_PROJECTS: DoubleFeature[] = [
  poly([C.lon - 0.05, C.lat - 0.05, C.lon + 0.05, C.lat + 0.05], {
    IMAGE_YR: 2015,
    IMAGE_DATE: "2015-06-01",
    SOURCE_TYPE: "CIR",
  }),
];
export const WETLAND_POINTS = {
  yes: { lon: C.lon + 0.0025, lat: C.lat },
  near: { lon: C.lon + 0.0018, lat: C.lat }, // ~16 m west of the wetland
  no: { lon: C.lon + 0.001, lat: C.lat + 0.004 },
};

export const SOIL_UNITS: (DoubleFeature & { rect: Rect })[] = [
  {
    rect: [C.lon - 0.02, C.lat - 0.02, C.lon + 0.02, C.lat + 0.012],
    attributes: {
      mukey: "2474384",
      musym: "U1A",
      muname: "Urban land-Udorthents complex, 0 to 2 percent slopes",
      areasymbol: "MN053",
      areaname: "Hennepin County, Minnesota",
      saversion: "19",
      saverest: "9/8/2023 12:00:00 AM",
    },
  },
];
export const SOIL_POINTS = { ok: { lon: C.lon, lat: C.lat }, none: { lon: C.lon, lat: C.lat + 0.015 } };

/** EPQS: no data (a large negative sentinel) south of this latitude. */
export const ELEVATION_NODATA_SOUTH_OF = C.lat - 0.015;
export const ELEVATION_POINTS = { ok: { lon: C.lon, lat: C.lat }, unknown: { lon: C.lon, lat: C.lat - 0.018 } };

export const PWI_BASINS: DoubleFeature[] = [
  poly([C.lon - 0.003, C.lat - 0.001, C.lon - 0.002, C.lat + 0.001], {
    pw_basin_name: "Test Lake",
    dowlknum: "27999900",
    pwi_class: "P",
    pwi_label: "27-9999-00 P",
    dnr_shoreland_class: "RD",
  }),
];
export const PWI_WATERCOURSES: DoubleFeature[] = [
  {
    attributes: { kittle_name: "Test Creek", kittle_nbr: "M-999", pwi_label: "M-999" },
    paths: [
      [
        [C.lon - 0.01, C.lat - 0.008],
        [C.lon + 0.01, C.lat - 0.008],
      ],
    ],
  },
];
export const SHORELAND_POINTS = {
  basin: { lon: C.lon - 0.0005, lat: C.lat }, // ~118 m east of the lake
  creek: { lon: C.lon + 0.004, lat: C.lat - 0.0075 }, // ~56 m north of the creek
  no: { lon: C.lon + 0.004, lat: C.lat + 0.004 },
};

/** A point in Wisconsin (no shoreland fact) and one far outside any state. */
export const WISCONSIN = { lon: -89.4012, lat: 43.0731 };
export const OCEAN = { lon: -40, lat: 30 };
