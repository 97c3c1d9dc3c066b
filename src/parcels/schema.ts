// The parcel store file (parcels.sqlite): its schema, written by load-parcels. A SpatiaLite file when
// mod_spatialite is present (QGIS opens the `geom` column); the server reads plain columns and never needs it.
// No column for any person's name exists, by design. Per field f: r_f is the parcel's rank in the county by
// (f, apn) and c_f the running sum of f in that order, so a count, sum or median within bounds on f is two or
// three index seeks at any size (see sql.ts). Each field's index also carries sale_date, and (county_id,
// sale_date, apn, d_f, e_f, f) with d_f/e_f (rank and running sum of f in sale-date order) answers a count or
// avg of f within since/until by two seeks; a median of f within dates reads date_runs (date-runs.ts).
import { Database } from "bun:sqlite";
import { DATE_RUNS_SCHEMA } from "./date-runs";
import { FIELDS } from "./fields";

/** The numeric fields: each also has d_f (rank by sale date) and e_f (running sum of f by sale date). */
export const NUMERIC = FIELDS.filter((f) => f !== "sale_date");

const SCHEMA = `
CREATE TABLE IF NOT EXISTS counties (
  county_id TEXT PRIMARY KEY, source_name TEXT NOT NULL, source_url TEXT NOT NULL, publisher TEXT, official INTEGER NOT NULL,
  license TEXT NOT NULL, license_class TEXT NOT NULL, api_use INTEGER NOT NULL, as_of TEXT, value_label TEXT,
  parcel_url_template TEXT, fields TEXT NOT NULL, notes TEXT NOT NULL, left_road INTEGER NOT NULL, left_water INTEGER NOT NULL,
  left_condo INTEGER NOT NULL, rows_read INTEGER NOT NULL, rows_kept INTEGER NOT NULL, loaded_at TEXT NOT NULL,
  coverage TEXT, deed_label TEXT);
CREATE TABLE IF NOT EXISTS parcels (
  id INTEGER PRIMARY KEY, county_id TEXT NOT NULL, apn TEXT NOT NULL, situs_address TEXT, acres REAL, value REAL,
  sale_date TEXT, sale_price REAL, year_built INTEGER, sqft REAL, land_use TEXT, units INTEGER, deed_ref TEXT,
  lat REAL, lon REAL, shape TEXT,
  ${FIELDS.map((f) => `r_${f} INTEGER, c_${f} REAL`).join(", ")},
  ${NUMERIC.map((f) => `d_${f} INTEGER, e_${f} REAL`).join(", ")},
  UNIQUE (county_id, apn));
CREATE TABLE IF NOT EXISTS county_stats (
  county_id TEXT NOT NULL, field TEXT NOT NULL, n INTEGER NOT NULL, total REAL, median TEXT, PRIMARY KEY (county_id, field));
${DATE_RUNS_SCHEMA}
CREATE VIRTUAL TABLE IF NOT EXISTS parcels_rtree USING rtree(id, minx, maxx, miny, maxy);
${FIELDS.map(
  (
    f,
  ) => `CREATE INDEX IF NOT EXISTS parcels_${f} ON parcels (county_id, ${f}, apn, r_${f}, c_${f}, sale_date) WHERE ${f} IS NOT NULL;
CREATE INDEX IF NOT EXISTS parcels_${f}_rank ON parcels (county_id, r_${f}) WHERE r_${f} IS NOT NULL;`,
).join("\n")}
${NUMERIC.map((f) => `CREATE INDEX IF NOT EXISTS parcels_date_${f} ON parcels (county_id, sale_date, apn, d_${f}, e_${f}, ${f}) WHERE sale_date IS NOT NULL AND ${f} IS NOT NULL;`).join("\n")}
`;

/** Open (creating when missing) the parcel store for writing; `spatial` tells whether mod_spatialite loaded
 *  (`spatialite: false`: not tried, for a staging file whose rows go on to PostGIS). */
export function openForWrite(path: string, o: { spatialite?: boolean } = {}): { db: Database; spatial: boolean } {
  const db = new Database(path, { create: true, readwrite: true });
  db.run("PRAGMA journal_mode=DELETE");
  let spatial = false;
  if (o.spatialite !== false)
    try {
      db.loadExtension("mod_spatialite");
      spatial = true;
      if (!db.query("SELECT 1 FROM sqlite_master WHERE name = 'spatial_ref_sys'").get())
        db.query("SELECT InitSpatialMetadata(1)").get();
    } catch {
      spatial = false;
    }
  db.run(SCHEMA);
  // a store written before these columns existed gets them (its counties answer as before)
  for (const [table, col] of [
    ["counties", "coverage TEXT"],
    ["counties", "deed_label TEXT"],
    ["parcels", "units INTEGER"],
    ["parcels", "deed_ref TEXT"],
  ] as const) {
    const have = db.query(`SELECT 1 FROM pragma_table_info('${table}') WHERE name = ?`).get(col.split(" ")[0]!);
    if (!have) db.run(`ALTER TABLE ${table} ADD COLUMN ${col}`);
  }
  if (spatial && !db.query("SELECT 1 FROM geometry_columns WHERE f_table_name = 'parcels'").get()) {
    db.query("SELECT AddGeometryColumn('parcels', 'geom', 4326, 'GEOMETRY', 'XY')").get();
    db.query("SELECT CreateSpatialIndex('parcels', 'geom')").get();
  }
  return { db, spatial };
}

/** An empty parcel store (no county loaded): every county answers no_data. */
export function createEmptyStore(path: string): void {
  const { db } = openForWrite(path);
  db.close();
}
