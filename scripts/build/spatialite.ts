// SpatiaLite file creation: metadata, the contract schema (src/directory/schema.sql), geometry column, inserts.
import { Database } from "bun:sqlite";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { JRow } from "./model";
import { multiPolygonBlob } from "./spatialite-encode";

export const J_COLUMNS = [
  "jurisdiction_id",
  "type",
  "name",
  "legal_type",
  "state",
  "state_fips",
  "county_id",
  "ocd_id",
  "tiger_vintage",
  "incorporated",
  "funcstat",
  "boundary_source",
  "boundary_precision",
  "boundary_rank",
  "source_id",
  "documented",
] as const;

export function createDatabase(path: string, projectRoot: string): Database {
  const db = new Database(path, { create: true, readwrite: true });
  db.loadExtension("mod_spatialite");
  db.run("PRAGMA journal_mode=DELETE");
  db.run("PRAGMA synchronous=OFF");
  db.query("SELECT InitSpatialMetadata(1)").get();
  const schema = readFileSync(join(projectRoot, "src/directory/schema.sql"), "utf8");
  db.run(schema);
  db.query("SELECT AddGeometryColumn('jurisdictions','geom',4326,'MULTIPOLYGON','XY')").get();
  return db;
}

/** Insert all jurisdictions (sorted by id) with their geometry, dissolve multi-part boundaries, fill bbox. */
export function insertJurisdictions(db: Database, rows: JRow[]) {
  const cols = [...J_COLUMNS, "geom"];
  const insert = (geom: string) =>
    db.prepare(
      `INSERT INTO jurisdictions (${cols.join(", ")}) VALUES (${J_COLUMNS.map(() => "?").join(", ")}, ${geom})`,
    );
  // geometry encoded here (scripts/build/spatialite-encode.ts); SpatiaLite parses the GeoJSON only when that declines
  const ins = insert("?"),
    insJson = insert("CastToMulti(SetSRID(GeomFromGeoJSON(?), 4326))");
  const dissolve: string[] = [];
  db.transaction(() => {
    for (const r of rows) {
      const vals = J_COLUMNS.map((c) => (r as any)[c] ?? null);
      const blob = r.geom ? multiPolygonBlob(r.geom) : null;
      if (blob || !r.geom) ins.run(...vals, blob);
      else insJson.run(...vals, JSON.stringify(r.geom));
      if (r.dissolve) dissolve.push(r.jurisdiction_id);
    }
  })();
  const un = db.prepare(
    "UPDATE jurisdictions SET geom = COALESCE(CastToMulti(ST_UnaryUnion(geom)), geom) WHERE jurisdiction_id = ?",
  );
  db.transaction(() => {
    for (const id of dissolve) un.run(id);
  })();
  const lost = db.query("SELECT count(*) AS n FROM jurisdictions WHERE geom IS NULL AND boundary_rank > 0").get() as {
    n: number;
  };
  db.run(`UPDATE jurisdictions SET min_x = MbrMinX(geom), min_y = MbrMinY(geom), max_x = MbrMaxX(geom), max_y = MbrMaxY(geom)
          WHERE geom IS NOT NULL`);
  db.run(
    `UPDATE jurisdictions SET boundary_source = NULL, boundary_precision = 'none', boundary_rank = 0 WHERE geom IS NULL`,
  );
  return { dissolved: dissolve.length, lostGeometry: lost.n };
}

/** Insert plain objects whose keys are column names; unknown keys are dropped (and reported). */
export function insertRows(
  db: Database,
  table: string,
  rows: Record<string, unknown>[],
): { inserted: number; droppedKeys: string[] } {
  if (!rows.length) return { inserted: 0, droppedKeys: [] };
  const cols = (db.query(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name);
  const dropped = new Set<string>();
  for (const r of rows) for (const k of Object.keys(r)) if (!cols.includes(k)) dropped.add(k);
  const stmt = db.prepare(
    `INSERT OR REPLACE INTO ${table} (${cols.join(", ")}) VALUES (${cols.map(() => "?").join(", ")})`,
  );
  db.transaction(() => {
    for (const r of rows)
      stmt.run(
        ...cols.map((c) => {
          const v = r[c];
          if (v === undefined) return null;
          if (typeof v === "boolean") return v ? 1 : 0;
          if (v !== null && typeof v === "object" && !(v instanceof Uint8Array)) return JSON.stringify(v);
          return v as any;
        }),
      );
  })();
  return { inserted: rows.length, droppedKeys: [...dropped] };
}

export function finishSpatial(db: Database) {
  db.query("SELECT CreateSpatialIndex('jurisdictions','geom')").get();
  db.query("SELECT UpdateLayerStatistics('jurisdictions','geom')").get();
}
