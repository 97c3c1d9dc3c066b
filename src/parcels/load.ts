// load-parcels: one county's input (CSV, GeoJSON, GeoPackage, shapefile) through its mapping into the parcel
// store. Owner, taxpayer and mailing-name columns are never read. Road, water and condominium common-element
// records are left out and counted. Progress on long loads; a summary of rows read, kept and rejected by reason.
import { copyFileSync, existsSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join as joinPath } from "node:path";
import { Database } from "bun:sqlite";
import { SQL } from "bun";
import proj4 from "proj4";
import { loadBar } from "./progress";
import { FIELDS, type Field } from "./fields";
import { RECORD_COLUMNS } from "./stored-rows";
import { dropOwnerColumns, readMapping, type ColumnSpec, type Mapping } from "./mapping";
import { readInput, type InputRecord } from "./readers";
import { openForWrite } from "./schema";
import { bboxOf, centroid, inSet, mapCoords, positive, readDate } from "./values";
import { refreshStats } from "./stats";
import type { ParcelRecord } from "./source";
import { joinNotes, joinTable, type JoinCounts } from "./join";
import { copyCounty, ensureSchema, safeUrl } from "./postgis-store";

export interface LoadOptions {
  county: string;
  mappingFile: string;
  input: string;
  /** the table the mapping's `join:` names, when it is not beside the input */
  join?: string;
  store: string;
  /** a postgres:// URL: load into that PostGIS database instead of the store file (postgis-store.ts) */
  into?: string;
  progress?: boolean;
  log?: (s: string) => void;
}
export interface LoadSummary {
  county: string;
  read: number;
  kept: number;
  merged: number;
  rejected: Record<string, number>;
  leftOut: { road: number; water: number; condo: number };
  unreadable: Record<string, number>;
  dropped: string[];
  fields: Field[];
  /** the join's counts (a mapping with `join:`) */
  joined: JoinCounts | null;
}

/** A parcel as loaded: the record the store hands out (source.ts), its land use, and its shape. */
interface Row extends Omit<ParcelRecord, "countyId"> {
  shape: string | null;
  bbox: [number, number, number, number] | null;
}

const WGS84 = /^(EPSG:4326|OGC:CRS84|CRS84|WGS84|urn:ogc:def:crs:OGC:1\.3:CRS84)$/i;

function projector(crs: string): (p: [number, number]) => [number, number] {
  if (WGS84.test(crs.trim())) return (p) => p;
  const conv = proj4(crs, "EPSG:4326");
  return (p) => conv.forward(p) as [number, number];
}

const str = (v: unknown) => (v === null || v === undefined ? null : String(v).trim() || null);
const squeeze = (v: unknown) => String(v).replace(/\s+/g, "");
/** The raw value of a mapped column; a value the mapping lists as "none" reads as absent. */
const val = (r: InputRecord, s: ColumnSpec | null | undefined) => {
  const v = s ? r.props[s.column] : undefined;
  return v != null && s?.none?.some((x) => squeeze(x) === squeeze(v)) ? undefined : v;
};

export async function loadParcels(o: LoadOptions): Promise<LoadSummary> {
  const log = o.log ?? ((s: string) => console.error(s));
  if (!/^county:\d{5}$/.test(o.county))
    throw new Error(`--county must be county:NNNNN (a 5-digit county GEOID); got '${o.county}'`);
  const { mapping: m, dropped } = readMapping(o.mappingFile);
  if (m.county && m.county !== o.county) throw new Error(`the mapping is for ${m.county}, not ${o.county}`);
  for (const d of dropped) log(`mapping: ${d}`);
  const input = await readInput(o.input);
  const ownerCols = (owners: string[], what: string) => {
    if (owners.length) log(`${what} columns ${owners.map((c) => `'${c}'`).join(", ")} hold owner data: not read`);
  };
  ownerCols(dropOwnerColumns(input.records, input.columns), "input");
  let joined: JoinCounts | null = null;
  if (m.join) {
    const j = await joinTable(input.records, m, o.input, o.join);
    log(
      `joined ${input.records.length} shapes of ${o.input} to the ${j.tableRows} records of ${j.file} by ${m.join.key}: one row per key below`,
    );
    ownerCols(j.ownerColumns, "joined table");
    input.records = j.records;
    joined = j.counts;
  }

  const project = m.coordinates ? projector(m.coordinates.crs) : null;
  const s: LoadSummary = {
    county: o.county,
    read: 0,
    kept: 0,
    merged: 0,
    rejected: {},
    leftOut: { road: joined?.roads ?? 0, water: 0, condo: 0 },
    unreadable: {},
    dropped,
    fields: [],
    joined,
  };
  const reject = (why: string) => {
    s.rejected[why] = (s.rejected[why] ?? 0) + 1;
  };
  const unreadable = (f: string, raw: unknown, got: unknown) => {
    if (raw !== undefined && raw !== null && raw !== "" && got === null) s.unreadable[f] = (s.unreadable[f] ?? 0) + 1;
  };
  const byApn = new Map<string, Row>();
  const total = input.records.length;
  const bar = loadBar(total, "reading", "rows", o.progress !== false);

  input.records.forEach((r, i) => {
    s.read++;
    if (bar && i % 1000 === 0) bar.update(i);
    const apn = "derive" in m.apn ? `${m.apn.prefix}${i + 1}` : str(r.props[m.apn.column]);
    if (!apn) return reject("no parcel number");
    const lu = m.land_use ? str(r.props[m.land_use.column]) : null;
    if (m.land_use && inSet(lu, m.land_use.road)) {
      s.leftOut.road++;
      return;
    }
    if (m.land_use && inSet(lu, m.land_use.water)) {
      s.leftOut.water++;
      return;
    }
    if (
      (m.land_use && inSet(lu, m.land_use.condo_common)) ||
      (m.condo_common && inSet(r.props[m.condo_common.column], m.condo_common.values))
    ) {
      s.leftOut.condo++;
      return;
    }

    const row: Row = {
      apn,
      situs_address: str(val(r, m.situs_address)),
      acres: null,
      value: null,
      sale_date: null,
      sale_price: null,
      year_built: null,
      sqft: null,
      land_use: lu && m.land_use?.description ? `${lu} ${str(r.props[m.land_use.description]) ?? ""}`.trim() : lu,
      units: r.units ?? null,
      deed_ref: str(val(r, m.deed))?.replace(/\s*\/\s*/g, "/") ?? null, // "42450/ 297" → "42450/297"
      lat: null,
      lon: null,
      shape: null,
      bbox: null,
    };
    const a = positive(val(r, m.acres));
    row.acres = a === null ? null : m.acres?.unit === "sqft" ? Math.round((a / 43560) * 10000) / 10000 : a;
    unreadable("acres", val(r, m.acres), row.acres);
    row.value = positive(val(r, m.value));
    unreadable("value", val(r, m.value), row.value);
    row.sale_date = readDate(val(r, m.last_sale_date), m.last_sale_date?.format);
    unreadable("last_sale_date", val(r, m.last_sale_date), row.sale_date);
    row.sale_price = positive(val(r, m.last_sale_price));
    unreadable("last_sale_price", val(r, m.last_sale_price), row.sale_price);
    const yb = positive(val(r, m.year_built));
    row.year_built = yb !== null && Number.isInteger(yb) && yb >= 1600 && yb <= 2100 ? yb : null;
    unreadable("year_built", val(r, m.year_built), row.year_built);
    row.sqft = positive(val(r, m.sqft));
    unreadable("sqft", val(r, m.sqft), row.sqft);

    if (m.coordinates && project) {
      let pt: [number, number] | null = null;
      if ("geometry" in m.coordinates) {
        if (r.geometry) {
          const g = mapCoords(r.geometry, project);
          pt = centroid(g);
          if (g.type !== "Point") {
            row.shape = JSON.stringify(g);
            row.bbox = bboxOf(g);
          }
        }
      } else {
        const x = Number(r.props[m.coordinates.lon]),
          y = Number(r.props[m.coordinates.lat]);
        if (r.props[m.coordinates.lon] !== "" && Number.isFinite(x) && Number.isFinite(y)) pt = project([x, y]);
      }
      if (pt) {
        const [lon, lat] = pt;
        if (!(Math.abs(lat) <= 90 && Math.abs(lon) <= 180))
          return reject("coordinates out of range after reprojection (check the mapping's CRS)");
        row.lon = Math.round(lon * 1e6) / 1e6;
        row.lat = Math.round(lat * 1e6) / 1e6;
        row.bbox ??= [row.lon, row.lat, row.lon, row.lat];
      }
    }
    const have = byApn.get(apn);
    if (have) {
      if (m.one_row_per !== "sale") return reject("duplicate parcel number");
      s.merged++; // several sales of one parcel: the latest sale is the parcel's last sale
      if ((row.sale_date ?? "") <= (have.sale_date ?? "")) return;
    }
    byApn.set(apn, row);
  });
  bar?.update(total);
  bar?.stop();

  s.kept = byApn.size;
  if (o.into) await writePostgis(o, o.into, m, [...byApn.values()], s, log);
  else write(o, m, [...byApn.values()], s, log);
  return s;
}

const MAPPED: Record<Field, keyof Mapping> = {
  acres: "acres",
  value: "value",
  sale_date: "last_sale_date",
  sale_price: "last_sale_price",
  year_built: "year_built",
  sqft: "sqft",
};

/** Writes into a copy of the store and renames it over the store when done: a live server never sees a
 *  half-written file (it opens the new file on its next query; src/parcels/sqlite-source.ts). */
function write(o: LoadOptions, m: Mapping, rows: Row[], s: LoadSummary, log: (s: string) => void) {
  const tmp = `${o.store}.loading-${process.pid}`;
  if (existsSync(o.store)) copyFileSync(o.store, tmp);
  try {
    writeInto(tmp, o, m, rows, s, log);
    renameSync(tmp, o.store);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}

/** Into PostGIS: the same load into a temporary store file (ranks, running sums, stats and date runs by the same
 *  code), then that county copied into the database in one transaction (postgis-store.ts); the file removed. */
async function writePostgis(
  o: LoadOptions,
  url: string,
  m: Mapping,
  rows: Row[],
  s: LoadSummary,
  log: (s: string) => void,
) {
  const dir = mkdtempSync(joinPath(tmpdir(), "parcels-into-"));
  const sql = new SQL(url, { max: 1 });
  try {
    const staged = joinPath(dir, "staged.sqlite");
    writeInto(staged, o, m, rows, s, log, false);
    await ensureSchema(sql);
    const db = new Database(staged, { readonly: true });
    try {
      const t0 = performance.now();
      const n = await copyCounty(sql, db, o.county, { progress: o.progress, log });
      log(`${o.county}: ${n} parcels copied into ${safeUrl(url)} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    } finally {
      db.close();
    }
  } finally {
    await sql.close().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  }
}

function writeInto(
  path: string,
  o: LoadOptions,
  m: Mapping,
  rows: Row[],
  s: LoadSummary,
  log: (s: string) => void,
  spatialite = true,
) {
  const { db, spatial } = openForWrite(path, { spatialite });
  if (!spatial && spatialite)
    log("mod_spatialite is not available: the store is plain SQLite (no geom column for QGIS); answers are the same");
  try {
    const cols = [...RECORD_COLUMNS, "shape"];
    const geomExpr = spatial ? ", geom" : "";
    const ins = db.prepare(
      `INSERT INTO parcels (${cols.join(", ")}${geomExpr}) VALUES (${cols.map(() => "?").join(", ")}${spatial ? ", SetSRID(GeomFromGeoJSON(?), 4326)" : ""}) RETURNING id`,
    );
    const rt = db.prepare("INSERT INTO parcels_rtree (id, minx, maxx, miny, maxy) VALUES (?, ?, ?, ?, ?)");
    db.transaction(() => {
      db.run("DELETE FROM parcels_rtree WHERE id IN (SELECT id FROM parcels WHERE county_id = ?)", [o.county]);
      db.run("DELETE FROM parcels WHERE county_id = ?", [o.county]);
      db.run("DELETE FROM counties WHERE county_id = ?", [o.county]);
      for (const r of rows) {
        const args: any[] = [
          o.county,
          r.apn,
          r.situs_address,
          r.acres,
          r.value,
          r.sale_date,
          r.sale_price,
          r.year_built,
          r.sqft,
          r.land_use,
          r.units,
          r.deed_ref,
          r.lat,
          r.lon,
          r.shape,
        ];
        if (spatial)
          args.push(
            r.shape ?? (r.lon !== null ? JSON.stringify({ type: "Point", coordinates: [r.lon, r.lat] }) : null),
          );
        const { id } = ins.get(...args) as { id: number };
        if (r.bbox) rt.run(id, r.bbox[0], r.bbox[2], r.bbox[1], r.bbox[3]);
      }
      s.fields = FIELDS.filter(
        (f) => m[MAPPED[f]] && rows.some((r) => r[f === "sale_date" ? "sale_date" : f] !== null),
      );
      const notes = [...(m.notes ?? []), ...(s.joined ? joinNotes(s.joined) : [])];
      db.run(`INSERT INTO counties VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, [
        o.county,
        m.source.name,
        m.source.url,
        m.source.publisher,
        m.source.official ? 1 : 0,
        m.source.license,
        m.source.license_class,
        m.source.api_use ? 1 : 0,
        m.source.as_of,
        m.value?.label ?? null,
        m.parcel_url_template ?? null,
        JSON.stringify(s.fields),
        JSON.stringify(notes),
        s.leftOut.road,
        s.leftOut.water,
        s.leftOut.condo,
        s.read,
        s.kept,
        new Date().toISOString(),
        m.coverage ?? null,
        m.deed?.label ?? null,
      ]);
      refreshStats(db, o.county);
    })();
  } finally {
    db.close();
  }
}

/** The summary as printed by the CLI. */
export function summaryLines(s: LoadSummary): string[] {
  const rejected = Object.values(s.rejected).reduce((a, b) => a + b, 0);
  const lines = [
    `${s.county}: ${s.read} rows read, ${s.kept} parcels kept, ${rejected} rejected` +
      (s.merged ? `, ${s.merged} earlier sales of a parcel merged into its latest sale` : ""),
  ];
  for (const [why, n] of Object.entries(s.rejected)) lines.push(`  rejected ${n}: ${why}`);
  const lo = s.leftOut;
  if (lo.road + lo.water + lo.condo)
    lines.push(
      `  left out (counted in notes): ${lo.road} road, ${lo.water} water, ${lo.condo} condominium common-element records`,
    );
  for (const [f, n] of Object.entries(s.unreadable)) lines.push(`  ${n} unreadable ${f} values stored as null`);
  for (const n of s.joined ? joinNotes(s.joined) : []) lines.push(`  ${n}`);
  lines.push(`  fields held: ${s.fields.join(", ") || "none"}`);
  return lines;
}
