// Where the point index's features come from, as columns in R3 order (rules R1 and R3 of boundaries.ts): the
// jurisdictions table of a data file (what the builder packs into boundary_pack, and the server's way for a file
// without it), or features given in memory (tests, tools). Geometry is decoded on demand by feature number.
import type { Database } from "bun:sqlite";
import { decodeSpatialiteBlob } from "./spatialite-blob";
import type { BoundaryColumns } from "./boundary-pack";

export const BOUNDARY_TYPES = ["state", "county", "cousub", "place"] as const;
export type BoundaryType = (typeof BOUNDARY_TYPES)[number];
export interface BoundaryFeatureInput {
  id: string;
  type: BoundaryType;
  rank: number;
  /** the cousub's county_id (rule R4a); absent or null: 'county:' + GEOID[0:5] */
  county?: string | null;
  /** polygons, each a list of rings [x0, y0, x1, y1, ...] (exterior first); or a loader called on the first point
   * test that reaches the feature's bounding box (then `bbox` is required) */
  polygons: Float64Array[][] | (() => Float64Array[][]);
  bbox?: [number, number, number, number];
}

/** R3 order of features: boundary_rank desc, then jurisdiction_id asc (JavaScript string order); the type needs no
 * place in it (candidate lists are per type). */
function r3Order(ids: string[], ranks: ArrayLike<number>): number[] {
  return ids
    .map((_, i) => i)
    .sort((a, b) => ranks[b]! - ranks[a]! || (ids[a]! < ids[b]! ? -1 : ids[a]! > ids[b]! ? 1 : 0));
}

const noBox = (minx: number | null, maxx: number | null) => minx === null || maxx === null || !(maxx - minx <= 60);

/** Rule R1 over the jurisdictions table: the index's columns in R3 order (what the builder packs; the server's way
 * for a file without boundary_pack). */
export function scanBoundaryColumns(db: Database): BoundaryColumns {
  const rows = db
    .query<[string, string, number | null, string | null, number | null, number, number | null, number], []>(
      `SELECT jurisdiction_id, type, boundary_rank, county_id, min_x, min_y, max_x, max_y FROM jurisdictions
      WHERE geom IS NOT NULL AND documented = 1 AND type IN ('state','county','cousub','place')`,
    )
    .values() as [string, string, number | null, string | null, number | null, number, number | null, number][];
  const order = r3Order(
    rows.map((r) => r[0]),
    rows.map((r) => r[2] ?? 0),
  );
  const n = order.length;
  const c: BoundaryColumns = {
    ids: new Array(n),
    types: new Uint8Array(n),
    counties: new Array(n),
    boxes: new Float64Array(4 * n),
  };
  for (let k = 0; k < n; k++) {
    const [id, type, , county, minx, miny, maxx, maxy] = rows[order[k]!]!;
    c.ids[k] = id;
    c.types[k] = BOUNDARY_TYPES.indexOf(type as BoundaryType);
    c.counties[k] = type === "cousub" ? county : null;
    if (noBox(minx, maxx)) c.boxes.fill(NaN, 4 * k, 4 * k + 4);
    else c.boxes.set([minx!, miny, maxx!, maxy], 4 * k);
  }
  return c;
}

/** Features given in memory (tests, tools) as columns: a loader function makes a lazy feature (its bbox required),
 * polygons given as arrays are indexed at start. */
export function columnsOfFeatures(features: BoundaryFeatureInput[]): {
  columns: BoundaryColumns;
  load: (feature: number) => Float64Array[][];
} {
  const valid = features.filter((f) => BOUNDARY_TYPES.includes(f.type));
  const order = r3Order(
    valid.map((f) => f.id),
    valid.map((f) => f.rank),
  );
  const n = order.length;
  const c: BoundaryColumns = {
    ids: new Array(n),
    types: new Uint8Array(n),
    counties: new Array(n),
    boxes: new Float64Array(4 * n).fill(NaN),
  };
  const sorted = order.map((i) => valid[i]!);
  sorted.forEach((f, k) => {
    c.ids[k] = f.id;
    c.types[k] = BOUNDARY_TYPES.indexOf(f.type);
    c.counties[k] = f.county ?? null;
    if (typeof f.polygons === "function") c.boxes.set(f.bbox!, 4 * k);
  });
  return {
    columns: c,
    load: (k) => {
      const p = sorted[k]!.polygons;
      return typeof p === "function" ? p() : p;
    },
  };
}

/** Decodes a feature's polygons from its geometry blob, by feature number. */
export function geometryLoader(db: Database, ids: string[]): (feature: number) => Float64Array[][] {
  const geomOf = db.query<{ geom: Uint8Array }, [string]>("SELECT geom FROM jurisdictions WHERE jurisdiction_id = ?");
  return (fi) => {
    const id = ids[fi]!;
    try {
      return decodeSpatialiteBlob(geomOf.get(id)!.geom).polygons.map((p) => p.rings);
    } catch (e) {
      throw new Error(`jurisdictions.geom of ${id}: ${(e as Error).message}`);
    }
  };
}
