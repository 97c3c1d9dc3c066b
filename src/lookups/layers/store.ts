// Loaded offline layers, read without mod_spatialite: candidates by the R*Tree of feature boxes, geometry decoded
// in TypeScript (polygons by src/directory/spatialite-blob.ts, lines by blob-lines.ts). A load covers a point when
// the point lies inside its FIRM panels (flood) or NWI project areas (wetlands), else inside the extent of its
// layers widened by the reach (and in its state, when one was given at load time). The newest load of a kind that covers the point answers.
import { Database } from "bun:sqlite";
import { existsSync } from "node:fs";
import { LRUCache } from "lru-cache";
import { budgeted } from "../../domain/cache-budget";
import { decodeSpatialiteBlob } from "../../directory/spatialite-blob";
import { metresToDegrees, contains, type Feature } from "../screening/geometry";
import type { LayerSource } from "../screening/runner";
import type { Origin } from "../screening/types";
import { decodeLines } from "./blob-lines";
import { EXTENT_TAG, type Kind } from "./schema";

interface SourceRow {
  load_id: number;
  kind: Kind;
  tag: string;
  table_name: string;
  publisher: string;
  file_name: string;
  sha256: string;
  vintage: string | null;
  state: string | null;
  loaded_at: string;
  features: number;
  minx: number | null;
  miny: number | null;
  maxx: number | null;
  maxy: number | null;
}
interface Load {
  id: number;
  kind: Kind;
  tables: SourceRow[];
  origin: Origin;
  state: string | null;
}
const COVER_TAG: Partial<Record<Kind, string>> = { flood: "panel", wetlands: "project" };

export class LayerStore implements LayerSource {
  private readonly loads: Load[];
  private readonly features = new LRUCache<string, Feature>(budgeted<Feature>("layer_features", 50_000));
  private readonly stmts = new Map<string, ReturnType<Database["query"]>>();

  static open(path: string): LayerStore | null {
    if (!path || !existsSync(path)) return null;
    return new LayerStore(new Database(path, { readonly: true }));
  }

  constructor(private readonly db: Database) {
    const has =
      db.query<{ n: number }, []>("SELECT COUNT(*) AS n FROM sqlite_master WHERE name = 'layer_sources'").get()!.n > 0;
    const rows = has
      ? db.query<SourceRow, []>("SELECT * FROM layer_sources ORDER BY load_id DESC, table_name").all()
      : [];
    const by = new Map<number, SourceRow[]>();
    for (const r of rows) {
      const l = by.get(r.load_id);
      if (l) l.push(r);
      else by.set(r.load_id, [r]);
    }
    this.loads = [...by.entries()].map(([id, tables]) => {
      const kind = tables[0]!.kind;
      const t0 = tables[0]!;
      return {
        id,
        kind,
        tables,
        state: t0.state,
        origin: {
          dataset: `${t0.file_name} (loaded layer, ${t0.vintage ? `vintage ${t0.vintage}, ` : ""}loaded ${t0.loaded_at.slice(0, 10)})`,
          publisher: t0.publisher,
          as_of: t0.vintage,
          url: `urn:sha256:${t0.sha256}`,
          loaded: true,
        },
      };
    });
  }

  /** The loads, newest first (for `load-layer --list` and tests). */
  list() {
    return this.loads.map((l) => ({
      id: l.id,
      kind: l.kind,
      origin: l.origin,
      tables: l.tables.map((t) => ({ tag: t.tag, table: t.table_name, features: t.features })),
    }));
  }

  query(
    kind: string,
    lon: number,
    lat: number,
    reachM: number,
    state: string | null,
  ): { features: Feature[]; origin: Origin } | null {
    for (const load of this.loads) {
      if (load.kind !== kind) continue;
      if (load.state && state && load.state !== state) continue;
      if (!this.covers(load, lon, lat, reachM)) continue;
      const { dLon, dLat } = metresToDegrees(reachM + 1, lat);
      const features = load.tables
        .filter((t) => t.tag !== EXTENT_TAG)
        .flatMap((t) => this.around(t, lon - dLon, lat - dLat, lon + dLon, lat + dLat));
      return { features, origin: load.origin };
    }
    return null;
  }

  /** Coverage: inside the load's `--extent` polygon (e.g. a city's boundary for its clip of the flood map), or a
   * FIRM panel (flood) or an NWI project area (wetlands) when those layers were loaded; otherwise inside the
   * extent of the load's layers widened by the reach (PWI, SSURGO). */
  private covers(load: Load, lon: number, lat: number, reachM: number): boolean {
    const areas = load.tables.find((t) => (t.tag === EXTENT_TAG || t.tag === COVER_TAG[load.kind]) && t.features > 0);
    if (areas) return this.around(areas, lon, lat, lon, lat).some((f) => contains(f, lon, lat));
    const { dLon, dLat } = metresToDegrees(reachM, lat);
    return load.tables.some(
      (t) =>
        t.minx !== null &&
        lon >= t.minx - dLon &&
        lon <= t.maxx! + dLon &&
        lat >= t.miny! - dLat &&
        lat <= t.maxy! + dLat,
    );
  }

  private around(t: SourceRow, x0: number, y0: number, x1: number, y1: number): Feature[] {
    let q = this.stmts.get(t.table_name);
    if (!q) {
      q = this.db.query(
        `SELECT id FROM "${t.table_name}_rtree" WHERE minx <= ?3 AND maxx >= ?1 AND miny <= ?4 AND maxy >= ?2`,
      );
      this.stmts.set(t.table_name, q);
    }
    const ids = (q.all(x0, y0, x1, y1) as { id: number }[]).map((r) => r.id);
    return ids.map((id) => this.feature(t, id)).filter((f): f is Feature => !!f);
  }

  private feature(t: SourceRow, id: number): Feature | null {
    const key = `${t.table_name}:${id}`;
    const hit = this.features.get(key);
    if (hit) return hit;
    const row = this.db
      .query<Record<string, unknown>, [number]>(`SELECT * FROM "${t.table_name}" WHERE ogc_fid = ?`)
      .get(id);
    if (!row || !(row.geom instanceof Uint8Array)) return null;
    const { geom, ogc_fid: _fid, ...attrs } = row;
    const g = geom as Uint8Array;
    const f: Feature = { layer: t.tag, attrs };
    const lines = decodeLines(g);
    if (lines) f.lines = lines;
    else f.polygons = decodeSpatialiteBlob(g).polygons.map((p) => p.rings);
    this.features.set(key, f);
    return f;
  }
}
