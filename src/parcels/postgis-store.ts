// The parcel store in PostgreSQL/PostGIS (parcels.source: postgres://…; written by load-parcels --into): its
// schema (schema `parcels`, beside anything else the database holds) and the copy of one county from a staged
// parcel store file. A county is loaded exactly as into the file (same readers, mapping, join, notes; ranks,
// running sums, stats and date runs computed by the same code, src/parcels/stats.ts) into a temporary file, then
// copied here by COPY in one transaction that first deletes the county's earlier rows: readers see the old county
// or the new one, never half; another county's rows are untouched. No column for any person's name exists.
//
// Indexes (what keeps every county-data op a few index seeks at national scale, ~150 million parcels):
//   (county_id, apn)                                       primary key: a parcel by its number
//   per field f: (county_id, f, apn, sale_date) INCLUDE (r_f, c_f) WHERE f IS NOT NULL
//                                                          top/bottom pages, bounds on f (rank and running sum
//                                                          at each edge: count, avg, median by two seeks)
//                (county_id, r_f) WHERE r_f IS NOT NULL    the median: a seek by rank
//   per numeric f: (county_id, sale_date, apn) INCLUDE (d_f, e_f, f) WHERE sale_date and f are not null
//                                                          count and avg of f within since/until by two seeks
//   GiST (shape) WHERE shape IS NOT NULL                   point in parcel (&& then ST_Contains)
//   GiST (pt) WHERE pt IS NOT NULL                         the nearest parcel point (parcels without a shape)
// Text that is ordered (apn, sale_date, county_id) is COLLATE "C": byte order, as SQLite orders it.
import type { Database } from "bun:sqlite";
import type { SQL } from "bun";
import { loadBar } from "./progress";
import { FIELDS } from "./fields";
import { NUMERIC } from "./schema";
import { RECORD_COLUMNS } from "./stored-rows";
import { safeUrl } from "../domain/safe-url";

export { safeUrl };

export const PG_SCHEMA = "parcels";
const T = (t: string) => `${PG_SCHEMA}.${t}`;
const TABLES_OF = ["parcels", "county_stats", "date_runs", "counties"];

const TABLES = `
CREATE SCHEMA IF NOT EXISTS ${PG_SCHEMA};
CREATE TABLE IF NOT EXISTS ${T("counties")} (
  county_id text COLLATE "C" PRIMARY KEY, source_name text NOT NULL, source_url text NOT NULL, publisher text,
  official boolean NOT NULL, license text NOT NULL, license_class text NOT NULL, api_use boolean NOT NULL, as_of text,
  value_label text, parcel_url_template text, fields text NOT NULL, notes text NOT NULL, left_road integer NOT NULL,
  left_water integer NOT NULL, left_condo integer NOT NULL, rows_read integer NOT NULL, rows_kept integer NOT NULL,
  loaded_at text NOT NULL, coverage text, deed_label text);
CREATE TABLE IF NOT EXISTS ${T("parcels")} (
  county_id text COLLATE "C" NOT NULL, apn text COLLATE "C" NOT NULL, situs_address text, acres float8, value float8,
  sale_date text COLLATE "C", sale_price float8, year_built integer, sqft float8, land_use text, units integer,
  deed_ref text, lat float8, lon float8, shape geometry(Geometry, 4326), pt geometry(Point, 4326),
  ${FIELDS.map((f) => `r_${f} integer, c_${f} float8`).join(", ")},
  ${NUMERIC.map((f) => `d_${f} integer, e_${f} float8`).join(", ")},
  PRIMARY KEY (county_id, apn));
CREATE TABLE IF NOT EXISTS ${T("county_stats")} (
  county_id text COLLATE "C" NOT NULL, field text NOT NULL, n integer NOT NULL, total float8, median text,
  PRIMARY KEY (county_id, field));
CREATE TABLE IF NOT EXISTS ${T("date_runs")} (
  county_id text COLLATE "C" NOT NULL, field text NOT NULL, sale_date text COLLATE "C" NOT NULL, n integer NOT NULL,
  vals bytea NOT NULL, PRIMARY KEY (county_id, field, sale_date));
`;

/** The secondary indexes, one statement each (see the head of this file). */
const INDEXES: string[] = [
  ...FIELDS.flatMap((f) => [
    `CREATE INDEX IF NOT EXISTS parcels_${f} ON ${T("parcels")} (county_id, ${f}, apn${f === "sale_date" ? "" : ", sale_date"}) INCLUDE (r_${f}, c_${f}) WHERE ${f} IS NOT NULL`,
    `CREATE INDEX IF NOT EXISTS parcels_${f}_rank ON ${T("parcels")} (county_id, r_${f}) WHERE r_${f} IS NOT NULL`,
  ]),
  ...NUMERIC.map(
    (f) =>
      `CREATE INDEX IF NOT EXISTS parcels_date_${f} ON ${T("parcels")} (county_id, sale_date, apn) INCLUDE (d_${f}, e_${f}, ${f}) WHERE sale_date IS NOT NULL AND ${f} IS NOT NULL`,
  ),
  `CREATE INDEX IF NOT EXISTS parcels_shape ON ${T("parcels")} USING gist (shape) WHERE shape IS NOT NULL`,
  `CREATE INDEX IF NOT EXISTS parcels_pt ON ${T("parcels")} USING gist (pt) WHERE pt IS NOT NULL`,
];

/** Create the extension, tables and (unless `indexes: false`, for a first bulk load that builds them after the
 *  rows: createIndexes) the indexes, when missing. Serialised by an advisory lock (two loaders at once). */
export async function ensureSchema(sql: SQL, o: { indexes?: boolean } = {}): Promise<void> {
  await sql.begin(async (tx) => {
    await tx.unsafe("SELECT pg_advisory_xact_lock(hashtext('directory parcels schema'))");
    await tx.unsafe("CREATE EXTENSION IF NOT EXISTS postgis");
    await tx.unsafe(TABLES);
    if (o.indexes !== false) for (const ix of INDEXES) await tx.unsafe(ix);
  });
}

/** Build the secondary indexes (after a bulk load), each with a line on `log`. */
export async function createIndexes(sql: SQL, log: (s: string) => void = () => {}): Promise<void> {
  for (const ix of INDEXES) {
    const t0 = performance.now();
    await sql.unsafe(ix);
    log(`${/INDEX IF NOT EXISTS (\S+)/.exec(ix)![1]} built in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
}

const COPY_COLS = [
  ...RECORD_COLUMNS,
  ...FIELDS.flatMap((f) => [`r_${f}`, `c_${f}`]),
  ...NUMERIC.flatMap((f) => [`d_${f}`, `e_${f}`]),
];

/** A value in COPY's text format: \N for null, backslash escapes; a number as JS writes it (shortest round trip,
 *  so PostgreSQL reads back the same double). */
function copyText(v: unknown): string {
  if (v === null || v === undefined) return "\\N";
  if (typeof v === "number") return String(v);
  return String(v).replace(/[\\\t\n\r]/g, (c) =>
    c === "\\" ? "\\\\" : c === "\t" ? "\\t" : c === "\n" ? "\\n" : "\\r",
  );
}

/** GeoJSON (Polygon, MultiPolygon, Point, LineString…) → hex EWKB with SRID 4326 (doubles written as they are). */
function ewkbHex(g: { type: string; coordinates: any }): string {
  const parts: Buffer[] = [];
  const head = (type: number, srid: boolean) => {
    const b = Buffer.alloc(srid ? 9 : 5);
    b.writeUInt8(1, 0);
    b.writeUInt32LE(srid ? type | 0x20000000 : type, 1);
    if (srid) b.writeUInt32LE(4326, 5);
    parts.push(b);
  };
  const u32 = (n: number) => {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(n, 0);
    parts.push(b);
  };
  const pts = (ps: number[][]) => {
    u32(ps.length);
    const b = Buffer.alloc(ps.length * 16);
    ps.forEach((p, i) => {
      b.writeDoubleLE(p[0]!, i * 16);
      b.writeDoubleLE(p[1]!, i * 16 + 8);
    });
    parts.push(b);
  };
  const polygon = (rings: number[][][]) => {
    u32(rings.length);
    for (const r of rings) pts(r);
  };
  const TYPES: Record<string, number> = {
    Point: 1,
    LineString: 2,
    Polygon: 3,
    MultiPoint: 4,
    MultiLineString: 5,
    MultiPolygon: 6,
  };
  const t = TYPES[g.type];
  if (!t) throw new Error(`geometry type ${g.type} cannot be stored`);
  head(t, true);
  if (g.type === "Point") {
    const b = Buffer.alloc(16);
    b.writeDoubleLE(g.coordinates[0], 0);
    b.writeDoubleLE(g.coordinates[1], 8);
    parts.push(b);
  } else if (g.type === "LineString") pts(g.coordinates);
  else if (g.type === "Polygon") polygon(g.coordinates);
  else {
    u32(g.coordinates.length);
    for (const c of g.coordinates) {
      head(t - 3, false);
      if (t === 4) {
        const b = Buffer.alloc(16);
        b.writeDoubleLE(c[0], 0);
        b.writeDoubleLE(c[1], 8);
        parts.push(b);
      } else if (t === 5) pts(c);
      else polygon(c);
    }
  }
  return Buffer.concat(parts).toString("hex");
}

interface CopyOptions {
  progress?: boolean;
  log?: (s: string) => void;
  /** ANALYZE the tables after the county is in (default true; a bulk load runs vacuumAnalyze once at the end).
   *  Not VACUUM: at national scale it would read every index whole after each county; autovacuum clears the
   *  replaced rows, and until it has, an edge seek reads one heap page more. */
  analyze?: boolean;
}

/** Copy one county from a parcel store file (already loaded there: rows, ranks, running sums, stats, date runs)
 *  into PostGIS, replacing the county's earlier load in one transaction. Returns the number of parcels copied. */
export async function copyCounty(sql: SQL, store: Database, countyId: string, o: CopyOptions = {}): Promise<number> {
  const county = store.query("SELECT * FROM counties WHERE county_id = ?").get(countyId) as Record<string, any> | null;
  if (!county) throw new Error(`${countyId} is not in the staged store`);
  const total = (store.query("SELECT count(*) AS n FROM parcels WHERE county_id = ?").get(countyId) as { n: number }).n;
  const bar = loadBar(total, "copying into PostGIS", "parcels", o.progress !== false);
  let done = 0;
  await sql.begin(async (tx) => {
    // one load of a county at a time (another county's load goes on beside it)
    await tx.unsafe("SELECT pg_advisory_xact_lock(hashtext($1))", [`directory parcels ${countyId}`]);
    for (const t of TABLES_OF) await tx.unsafe(`DELETE FROM ${T(t)} WHERE county_id = $1`, [countyId]);
    const w = tx.unsafe(`COPY ${T("parcels")} (${COPY_COLS.join(", ")}, shape, pt) FROM STDIN`).writable();
    const out = w.getWriter();
    try {
      let chunk = "";
      const q = store.query(`SELECT ${COPY_COLS.join(", ")}, shape FROM parcels WHERE county_id = ? ORDER BY apn`);
      for (const r of q.iterate(countyId) as Iterable<Record<string, unknown>>) {
        let line = "";
        for (const c of COPY_COLS) line += copyText(r[c]) + "\t";
        const shape = r.shape as string | null;
        line += shape ? ewkbHex(JSON.parse(shape)) : "\\N";
        // a parcel point only where no shape is held (the nearest-point path reads these; see postgis-source.ts)
        line +=
          !shape && r.lon !== null && r.lat !== null
            ? `\t${ewkbHex({ type: "Point", coordinates: [r.lon, r.lat] })}\n`
            : "\t\\N\n";
        chunk += line;
        if (++done % 5000 === 0) {
          await out.write(chunk);
          chunk = "";
          bar?.update(done);
        }
      }
      if (chunk) await out.write(chunk);
      await out.close();
    } catch (e) {
      await out.abort(e).catch(() => {});
      throw e;
    }
    const c = county;
    await tx.unsafe(
      `INSERT INTO ${T("counties")} VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21)`,
      [
        c.county_id,
        c.source_name,
        c.source_url,
        c.publisher,
        c.official === 1,
        c.license,
        c.license_class,
        c.api_use === 1,
        c.as_of,
        c.value_label,
        c.parcel_url_template,
        c.fields,
        c.notes,
        c.left_road,
        c.left_water,
        c.left_condo,
        c.rows_read,
        c.rows_kept,
        c.loaded_at,
        c.coverage ?? null,
        c.deed_label ?? null,
      ],
    );
    const stats = store.query("SELECT field, n, total, median FROM county_stats WHERE county_id = ?").all(countyId) as {
      field: string;
      n: number;
      total: number | null;
      median: string | null;
    }[];
    for (const s of stats)
      await tx.unsafe(`INSERT INTO ${T("county_stats")} VALUES ($1, $2, $3, $4, $5)`, [
        countyId,
        s.field,
        s.n,
        s.total,
        s.median,
      ]);
    const runs = tx.unsafe(`COPY ${T("date_runs")} (county_id, field, sale_date, n, vals) FROM STDIN`).writable();
    const rw = runs.getWriter();
    try {
      let chunk = "";
      const q = store.query("SELECT field, sale_date, n, vals FROM date_runs WHERE county_id = ?");
      for (const r of q.iterate(countyId) as Iterable<{
        field: string;
        sale_date: string;
        n: number;
        vals: Uint8Array;
      }>) {
        chunk += `${copyText(countyId)}\t${r.field}\t${copyText(r.sale_date)}\t${r.n}\t\\\\x${Buffer.from(r.vals.buffer, r.vals.byteOffset, r.vals.byteLength).toString("hex")}\n`;
        if (chunk.length > 1 << 20) {
          await rw.write(chunk);
          chunk = "";
        }
      }
      if (chunk) await rw.write(chunk);
      await rw.close();
    } catch (e) {
      await rw.abort(e).catch(() => {});
      throw e;
    }
  });
  bar?.update(total);
  bar?.stop();
  if (o.analyze !== false) for (const t of TABLES_OF) await sql.unsafe(`ANALYZE ${T(t)}`);
  return done;
}

/** VACUUM ANALYZE the parcel tables, once after a bulk load: the planner's statistics, and the visibility map that
 *  lets the edge seeks answer from the index alone. */
export async function vacuumAnalyze(sql: SQL): Promise<void> {
  for (const t of TABLES_OF) await sql.unsafe(`VACUUM (ANALYZE) ${T(t)}`);
}
