// Town and township boundaries kept in the layers file (never the data file): polygons the Census Bureau's
// TIGERweb service answered (kept, so the next point inside one is answered here with no outside call) and
// county-subdivision files an operator loaded (`directory load-boundaries --kind cousub FILE`). One table with
// the trail of every polygon, and an R*Tree of their boxes; a point is always tested against the exact polygon
// (even-odd rule, on an edge = inside), never a cell.
import { Database } from "bun:sqlite";
import { LRUCache } from "lru-cache";
import { budgeted } from "../../domain/cache-budget";
import { polygonContains } from "../screening/geometry";
import type { TownBoundaryOrigin } from "../../directory/town-at-point";
import type { TownPolygon } from "./tigerweb";

const DDL = [
  `CREATE TABLE IF NOT EXISTS town_boundaries (
     id INTEGER PRIMARY KEY, geoid TEXT NOT NULL, name TEXT NOT NULL, funcstat TEXT,
     rings TEXT NOT NULL, origin_kind TEXT NOT NULL, dataset TEXT NOT NULL, publisher TEXT NOT NULL, url TEXT NOT NULL,
     vintage TEXT, fetched_at TEXT NOT NULL, UNIQUE (geoid, origin_kind, dataset))`,
  `CREATE VIRTUAL TABLE IF NOT EXISTS town_boundaries_rtree USING rtree(id, minx, maxx, miny, maxy)`,
];

interface Row {
  id: number;
  geoid: string;
  name: string;
  funcstat: string | null;
  rings: string;
  origin_kind: "service" | "file";
  dataset: string;
  publisher: string;
  url: string;
  vintage: string | null;
  fetched_at: string;
}
interface KeptTown {
  geoid: string;
  name: string;
  funcstat: string | null;
  origin: TownBoundaryOrigin;
}

export class TownStore {
  private readonly db: Database;
  private readonly shapes = new LRUCache<number, Float64Array[][]>(
    budgeted<Float64Array[][]>("town_shapes", 2000, (s) => s.flat().reduce((n, r) => n + r.byteLength, 64)),
  );

  /** Opens (creating if needed) the towns tables of the layers file at `path`. */
  constructor(path: string) {
    this.db = new Database(path, { create: true });
    this.db.run("PRAGMA busy_timeout = 2000");
    for (const s of DDL) this.db.run(s);
  }

  close(): void {
    this.db.close();
  }

  /** The kept or loaded town whose polygon contains the point (a loaded file before a fetched polygon; then the
   *  newest), or null. */
  find(lon: number, lat: number): KeptTown | null {
    const rows = this.db
      .query<Row, [number, number]>(
        `SELECT b.* FROM town_boundaries_rtree r JOIN town_boundaries b ON b.id = r.id
         WHERE r.minx <= ?1 AND r.maxx >= ?1 AND r.miny <= ?2 AND r.maxy >= ?2
         ORDER BY b.origin_kind = 'file' DESC, b.fetched_at DESC, b.geoid`,
      )
      .all(lon, lat);
    for (const r of rows) if (this.shape(r).some((p) => polygonContains(p, lon, lat))) return kept(r);
    return null;
  }

  /** Keep polygons with their trail (a polygon of the same GEOID from the same dataset is replaced). */
  put(towns: TownPolygon[], origin: TownBoundaryOrigin): number {
    const del = this.db.query<{ id: number }, [string, string, string]>(
      "SELECT id FROM town_boundaries WHERE geoid = ? AND origin_kind = ? AND dataset = ?",
    );
    const ins = this.db.query(
      `INSERT INTO town_boundaries (geoid, name, funcstat, rings, origin_kind, dataset, publisher, url, vintage, fetched_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    );
    const box = this.db.query("INSERT INTO town_boundaries_rtree (id, minx, maxx, miny, maxy) VALUES (?, ?, ?, ?, ?)");
    let n = 0;
    this.db.transaction(() => {
      for (const t of towns) {
        const b = bbox(t.polygons);
        if (!b) continue;
        for (const old of del.all(t.geoid, origin.kind, origin.dataset)) {
          this.db.run("DELETE FROM town_boundaries WHERE id = ?", [old.id]);
          this.db.run("DELETE FROM town_boundaries_rtree WHERE id = ?", [old.id]);
          this.shapes.delete(old.id);
        }
        const rings = JSON.stringify(t.polygons.map((p) => p.map((r) => Array.from(r))));
        const { id } = ins.get(
          t.geoid,
          t.name,
          t.funcstat,
          rings,
          origin.kind,
          origin.dataset,
          origin.publisher,
          origin.url,
          origin.vintage,
          origin.fetched_at,
        ) as { id: number };
        box.run(id, b[0], b[2], b[1], b[3]);
        n++;
      }
    })();
    return n;
  }

  /** Counts of kept polygons by origin and dataset (for `load-boundaries --list` and the coverage line). */
  list(): { origin_kind: string; dataset: string; towns: number; states: string }[] {
    return this.db
      .query<{ origin_kind: string; dataset: string; towns: number; states: string }, []>(
        `SELECT origin_kind, dataset, COUNT(*) AS towns, GROUP_CONCAT(DISTINCT substr(geoid, 1, 2)) AS states
         FROM town_boundaries GROUP BY origin_kind, dataset ORDER BY origin_kind, dataset`,
      )
      .all();
  }

  private shape(r: Row): Float64Array[][] {
    let s = this.shapes.get(r.id);
    if (!s) {
      s = (JSON.parse(r.rings) as number[][][]).map((p) => p.map((ring) => Float64Array.from(ring)));
      this.shapes.set(r.id, s);
    }
    return s;
  }
}

function kept(r: Row): KeptTown {
  return {
    geoid: r.geoid,
    name: r.name,
    funcstat: r.funcstat,
    origin: {
      kind: r.origin_kind,
      dataset: r.dataset,
      publisher: r.publisher,
      url: r.url,
      vintage: r.vintage,
      fetched_at: r.fetched_at,
    },
  };
}

function bbox(polys: Float64Array[][]): [number, number, number, number] | null {
  let minx = Infinity,
    miny = Infinity,
    maxx = -Infinity,
    maxy = -Infinity;
  for (const p of polys)
    for (const r of p)
      for (let i = 0; i + 1 < r.length; i += 2) {
        minx = Math.min(minx, r[i]!);
        maxx = Math.max(maxx, r[i]!);
        miny = Math.min(miny, r[i + 1]!);
        maxy = Math.max(maxy, r[i + 1]!);
      }
  return Number.isFinite(minx) ? [minx, miny, maxx, maxy] : null;
}
