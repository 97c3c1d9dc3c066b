// The parcel store file as a ParcelSource: opened read-only on first use (and again after a failure), every
// query on its field's index. Failures (missing, locked, corrupt) surface as errors for the guard to map.
// SQLite calls are synchronous: a lock is never waited for (busy_timeout 0: a locked store fails at once, the guard
// answers 503 busy) so the event loop is never held. The file is opened again when it changes on disk
// (load-parcels writes a new file and renames it over the old one). No file at the path: the server holds no parcel
// data (holdsNone; every county no_data), never an answer from an old handle.
import { Database } from "bun:sqlite";
import { existsSync, statSync } from "node:fs";
import { FIELD_INFO, type Field, type ParcelQuery } from "./fields";
import { avgOf, countOf, hasBounds, medianOf, whereOf } from "./sql";
import type { Aggregate, CountyInfo, NearHit, ParcelRecord, ParcelSource } from "./source";
import { countyInfoOf, RECORD_SELECT } from "./stored-rows";
import { boxAround, nearestPoint } from "./near";

const COLS = RECORD_SELECT;

export class SqliteParcelSource implements ParcelSource {
  private db: Database | null = null;
  private opened: string | null = null; // the file's identity when opened: inode, size and mtime
  private readonly infos = new Map<string, CountyInfo>(); // loaded counties only: a miss is not kept (any id may be asked)

  constructor(readonly path: string) {}

  holdsNone(): boolean {
    if (existsSync(this.path)) return false;
    if (this.db) this.reset();
    return true;
  }

  private identity(): string | null {
    try {
      const st = statSync(this.path);
      return `${st.ino}:${st.size}:${st.mtimeMs}`;
    } catch {
      return null;
    }
  }

  private open(): Database {
    const id = this.identity();
    if (this.db && id === this.opened) return this.db;
    if (this.db) this.reset(); // replaced, changed or deleted on disk: never answer from the old file
    if (!id || !existsSync(this.path)) throw new Error(`parcel store not found: ${this.path}`);
    const db = new Database(this.path, { readonly: true });
    try {
      db.run("PRAGMA busy_timeout = 0");
      db.query("SELECT count(*) FROM counties").get(); // a file that is not a parcel store fails here
    } catch (e) {
      db.close();
      throw e;
    }
    this.opened = id;
    return (this.db = db);
  }

  /** Forget the handle (after a failure the next call opens the file again). */
  reset(): void {
    try {
      this.db?.close();
    } catch {}
    this.db = null;
    this.opened = null;
    this.infos.clear();
  }

  private guard<T>(f: (db: Database) => T): T {
    try {
      return f(this.open());
    } catch (e) {
      this.reset();
      throw e;
    }
  }

  async counties(): Promise<CountyInfo[]> {
    if (this.holdsNone()) return [];
    return this.guard((db) =>
      (db.query("SELECT county_id FROM counties ORDER BY county_id").all() as { county_id: string }[]).map((r) =>
        this.info(db, r.county_id)!,
      ),
    );
  }

  async county(countyId: string): Promise<CountyInfo | null> {
    if (this.holdsNone()) return null;
    return this.guard((db) => this.info(db, countyId));
  }

  private info(db: Database, countyId: string): CountyInfo | null {
    const known = this.infos.get(countyId);
    if (known) return known;
    const r = db.query("SELECT * FROM counties WHERE county_id = ?").get(countyId) as Record<string, any> | null;
    const info = r && countyInfoOf(r);
    if (info) this.infos.set(countyId, info);
    return info;
  }

  async rows(plan: ParcelQuery): Promise<ParcelRecord[]> {
    if (this.holdsNone()) return [];
    return this.guard((db) => {
      const w = whereOf(plan.countyId, plan.field, plan.bounds);
      const c = FIELD_INFO[plan.field].column;
      const dir = plan.op === "top" ? "DESC" : "ASC";
      return db
        .query(
          `SELECT ${COLS} FROM parcels INDEXED BY parcels_${plan.field} WHERE ${w.sql} ORDER BY ${c} ${dir}, apn ${dir} LIMIT ? OFFSET ?`,
        )
        .all(...w.args, plan.limit, plan.offset) as ParcelRecord[];
    });
  }

  async aggregate(plan: ParcelQuery): Promise<Aggregate> {
    if (this.holdsNone()) return { n: 0, value: null };
    return this.guard((db) => {
      if (!hasBounds(plan.bounds)) return this.unbounded(db, plan.countyId, plan.field, plan.op);
      const n = countOf(db, plan.countyId, plan.field, plan.bounds);
      if (plan.op === "count") return { n, value: n };
      if (plan.op === "avg") return { n, value: n ? avgOf(db, plan.countyId, plan.field, plan.bounds) : null };
      return { n, value: medianOf(db, plan.countyId, plan.field, plan.bounds, n) };
    });
  }

  private unbounded(db: Database, countyId: string, field: Field, op: ParcelQuery["op"]): Aggregate {
    const s = db
      .query("SELECT n, total, median FROM county_stats WHERE county_id = ? AND field = ?")
      .get(countyId, field) as { n: number; total: number | null; median: string | null } | null;
    if (!s || s.n === 0) return { n: 0, value: op === "count" ? 0 : null };
    if (op === "count") return { n: s.n, value: s.n };
    const date = FIELD_INFO[field].kind === "date";
    if (op === "avg") {
      if (!date) return { n: s.n, value: s.total! / s.n };
      return { n: s.n, value: (db.query("SELECT date(?) AS d").get(s.total! / s.n) as { d: string }).d };
    }
    return { n: s.n, value: date ? s.median : Number(s.median) };
  }

  async parcel(countyId: string, apn: string): Promise<ParcelRecord | null> {
    if (this.holdsNone()) return null;
    return this.guard(
      (db) =>
        db
          .query(`SELECT ${COLS} FROM parcels WHERE county_id = ? AND apn = ?`)
          .get(countyId, apn) as ParcelRecord | null,
    );
  }

  async near(lon: number, lat: number, maxMeters: number): Promise<NearHit | null> {
    if (this.holdsNone()) return null;
    return this.guard((db) => {
      // 1. the parcel whose shape holds the point: only shapes whose box holds it are decoded
      const holding = db
        .query(
          `SELECT p.id, ${COLS}, p.shape FROM parcels_rtree r JOIN parcels p ON p.id = r.id
         WHERE r.minx <= ?1 AND r.maxx >= ?1 AND r.miny <= ?2 AND r.maxy >= ?2 AND p.shape IS NOT NULL
         ORDER BY p.apn LIMIT 200`,
        )
        .all(lon, lat) as (ParcelRecord & { id: number; shape: string })[];
      for (const c of holding) {
        const { id: _id, shape, ...record } = c;
        if (contains(JSON.parse(shape), lon, lat)) return { record, distanceM: 0, inside: true };
      }
      const [w, s, e, n] = boxAround(lon, lat, maxMeters);
      const box = [w, e, s, n];
      // 2. shapes are held around the point and none holds it: between parcels, never a nearest-point guess
      if (holding.length) return { record: null, distanceM: null, inside: false };
      const shaped = db
        .query(
          `SELECT 1 FROM parcels_rtree r JOIN parcels p ON p.id = r.id
         WHERE r.maxx >= ? AND r.minx <= ? AND r.maxy >= ? AND r.miny <= ? AND p.shape IS NOT NULL LIMIT 1`,
        )
        .get(...box);
      if (shaped) return { record: null, distanceM: null, inside: false };
      // 3. no shape held here: the nearest parcel point within maxMeters
      const cands = db
        .query(
          `SELECT ${COLS} FROM parcels_rtree r JOIN parcels p ON p.id = r.id
         WHERE r.maxx >= ? AND r.minx <= ? AND r.maxy >= ? AND r.miny <= ? LIMIT 5000`,
        )
        .all(...box) as ParcelRecord[];
      return nearestPoint(cands, lon, lat, maxMeters);
    });
  }
}

/** Even-odd point in (Multi)Polygon, rings included (holes count out). */
function contains(g: { type: string; coordinates: any }, x: number, y: number): boolean {
  const polys: number[][][][] = g.type === "Polygon" ? [g.coordinates] : g.type === "MultiPolygon" ? g.coordinates : [];
  let inside = false;
  for (const poly of polys)
    for (const ring of poly) {
      for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
        const [xi, yi] = ring[i]!,
          [xj, yj] = ring[j]!;
        if (yi! > y !== yj! > y && x < ((xj! - xi!) * (y - yi!)) / (yj! - yi!) + xi!) inside = !inside;
      }
    }
  return inside;
}
