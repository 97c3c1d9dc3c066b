// The layers file (layers.sqlite): a SpatiaLite database written by `directory load-layer` (GDAL's ogr2ogr copies
// the publisher's features; QGIS opens it) plus two tables of ours:
//   layer_sources  one row per loaded layer: its load (one publisher file), kind, tag, table, and the source trail
//                  (publisher, file name, sha256, vintage, state, when loaded, feature count, extent)
//   <table>_rtree  an R*Tree of each feature's bounding box (read from the SpatiaLite blob header), so the server
//                  finds candidates without mod_spatialite.
export const LAYER_SOURCES_DDL = `CREATE TABLE IF NOT EXISTS layer_sources (
  load_id INTEGER NOT NULL, kind TEXT NOT NULL, tag TEXT NOT NULL, table_name TEXT NOT NULL PRIMARY KEY,
  source_layer TEXT NOT NULL, publisher TEXT NOT NULL, file_name TEXT NOT NULL, sha256 TEXT NOT NULL,
  vintage TEXT, state TEXT, loaded_at TEXT NOT NULL, features INTEGER NOT NULL,
  minx REAL, miny REAL, maxx REAL, maxy REAL)`;

export type Kind = "flood" | "wetlands" | "shoreland" | "soils" | "local_wetlands";
/** local_wetlands: wetlands a city, county or state maps itself (never the national inventory): loaded, listed and
 * drawn on the screening page under its own publisher's name; it never answers the wetlands fact (NWI). */
export const KINDS: Kind[] = ["flood", "wetlands", "shoreland", "soils", "local_wetlands"];

/** Which layers of a publisher's download are read, by layer name (or, for a layer renamed by a republisher, by
 * the fields it must have), and the tag each gets. The first tag of a kind is its main layer (its extent is the
 * load's coverage); flood coverage is the FIRM panels when loaded; `--extent FILE` gives any load its coverage. */
export const LAYER_TAGS: Record<Kind, { tag: string; match: RegExp; fields?: string[] }[]> = {
  flood: [
    // FEMA's S_FLD_HAZ_AR, also as a city republishes it under its own name (e.g. FEMA_FloodPlains100Year)
    { tag: "hazard", match: /s_fld_haz_ar$/i, fields: ["fld_zone", "sfha_tf"] },
    { tag: "panel", match: /s_firm_pan$/i },
  ],
  wetlands: [
    { tag: "wetland", match: /wetlands$/i },
    { tag: "project", match: /wetlands_project_metadata$/i },
  ],
  shoreland: [
    { tag: "basin", match: /basin/i },
    { tag: "watercourse", match: /watercourse/i },
  ],
  soils: [{ tag: "mapunit", match: /^(soilmu_a|mupolygon)/i }],
  local_wetlands: [{ tag: "wetland", match: /./ }],
};

/** The tag of a load's coverage polygon given with `--extent` (e.g. a city's boundary for the city's clip). */
export const EXTENT_TAG = "extent";

export const DEFAULT_PUBLISHER: Record<Kind, string> = {
  flood: "Federal Emergency Management Agency (FEMA)",
  wetlands: "U.S. Fish and Wildlife Service",
  shoreland: "Minnesota Department of Natural Resources",
  soils: "USDA Natural Resources Conservation Service",
  local_wetlands: "", // no default: its publisher is named at load time (--publisher)
};

/** MBR [minx, miny, maxx, maxy] from a SpatiaLite BLOB-Geometry header (bytes 6..37, see spatialite-blob.ts). */
export function blobMbr(b: Uint8Array): [number, number, number, number] | null {
  if (!(b instanceof Uint8Array) || b.byteLength < 44 || b[0] !== 0x00 || (b[1] !== 0 && b[1] !== 1)) return null;
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const le = b[1] === 1;
  return [v.getFloat64(6, le), v.getFloat64(14, le), v.getFloat64(22, le), v.getFloat64(30, le)];
}
