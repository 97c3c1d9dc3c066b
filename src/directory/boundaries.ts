// Point -> jurisdiction chain lookup, served from memory (no mod_spatialite at run time).
//
// RULES (the implementation below follows these exactly)
//
// R1 Data. Every documented jurisdictions row of type state | county | cousub | place with a non-NULL geom is loaded. The geom
//    (SpatiaLite MULTIPOLYGON, EPSG:4326, lon/lat degrees) is decoded by spatialite-blob.ts; each polygon of a
//    multipolygon is indexed on its own. GEOID = the part of jurisdiction_id after the first ':'.
//
// R2 Containment = even-odd rule over all rings of a polygon (holes, and islands inside holes, come out right), in
//    closed form: a point exactly on an edge or on a vertex is INSIDE. Exactly:
//      - each edge is evaluated in canonical orientation (endpoint with the lower y first), so two neighbours that
//        share an edge compute bit-identical intersections for it;
//      - a point is ON an edge when it equals a vertex, or lies on a horizontal edge, or when, for a non-horizontal
//        edge with y_lo <= y <= y_hi, the computed intersection x_int = x_lo + (y - y_lo) * (x_hi - x_lo) / (y_hi - y_lo)
//        equals x exactly; ON => inside;
//      - otherwise the ray to +x is counted with the half-open rule y_lo <= y < y_hi and x_int > x; odd => inside.
//    Hence the answer is a pure function of (x, y) (deterministic), and a point on an edge shared by two
//    neighbours is contained by both, resolved by R3; a point off the edge is contained by exactly one of them.
//    Points in the "inside"/"outside" cells of the per-polygon grid (cells no edge comes within 1e-9 deg of) get
//    the same answer from the precomputed cell state as the exact test would give.
//
// R3 Several candidates of the same type containing the point (overlaps, shared edges, duplicate sources): the one
//    with the highest boundary_rank wins, then the smallest jurisdiction_id (JavaScript string order).
//
// R4 The most precise layer decides and the chain is kept consistent by GEOID prefix:
//    a) a cousub contains the point (best by R3): cousub = it; county = the cousub's county_id when the row has
//       one, else 'county:' + GEOID[0:5]; state = 'state:' + GEOID[0:2] (even where the coarse county / state
//       polygon disagrees). county_id equals 'county:' + GEOID[0:5] everywhere except Connecticut, whose town
//       GEOIDs keep the pre-2022 county codes (09001-09015) while its counties are the 2022 planning regions
//       (09110-09190): there county_id is the town's planning region (scripts/build/towns.ts), same state prefix;
//       place = best place containing the point whose GEOID[0:2] equals the chain state, else null.
//    b) else a place contains the point (best by R3 over all places): place = it; state = 'state:' + GEOID[0:2];
//       county = best county containing the point whose GEOID[0:2] equals that state, else null; cousub = null.
//    c) else a county contains the point: county = it, state = 'state:' + GEOID[0:2], cousub = place = null.
//    d) else a state contains the point: state = it, others null.
//    e) else null (outside coverage).
//    Every non-null id of a returned chain therefore carries the same two-digit state prefix.
//
// INDEX. A uniform grid (default 0.25 deg) over the extent of all polygons, with one candidate list per (cell, type),
// sorted by R3 order, so the first containing candidate is the best. Per polygon: (1) y-bands, each listing the
// edges whose y-range meets the band (the exact test of R2 reads one band only), and (2) a sub-grid of about
// 2 cells per edge whose cells are marked inside / outside / boundary; only points in boundary cells run the exact
// test. Coordinates are kept as Float64.

import type { Database } from "bun:sqlite";
import { buildPoly } from "./polygon";
import { CACHE_MB } from "../domain/cache-budget";
import { DecodedBudget, LazyShape, partsOf, type Shape } from "./lazy-shape";
import { readBoundaryPack, type BoundaryColumns } from "./boundary-pack";
import {
  BOUNDARY_TYPES,
  columnsOfFeatures,
  geometryLoader,
  scanBoundaryColumns,
  type BoundaryFeatureInput,
  type BoundaryType,
} from "./boundary-columns";

export { BOUNDARY_TYPES, geometryLoader, scanBoundaryColumns, type BoundaryFeatureInput, type BoundaryType };
import { NTYPES, buildTopGrid, gridDigest, type TopGrid } from "./top-grid";

export interface PointChain {
  state: string | null;
  county: string | null;
  cousub: string | null;
  place: string | null;
}

const T_STATE = 0;
const T_COUNTY = 1;
const T_COUSUB = 2;
const T_PLACE = 3;

interface BoundaryIndexOptions {
  /** size of the top-level grid cells in degrees (default 0.25) */
  cellSize?: number;
  /** bound on lazily decoded polygons, bytes (default 64 MiB): past it the least recently tested are dropped */
  decodedBytes?: number;
}

interface BoundaryIndexStats {
  features: number;
  featuresByType: Record<BoundaryType, number>;
  polygons: number;
  vertices: number;
  bandEntries: number;
  gridCells: number;
  topCells: number;
  topEntries: number;
  /** bytes held in typed arrays (coordinates, bands, grids, top grid) */
  typedArrayBytes: number;
}

export class BoundaryIndex {
  private readonly ids: string[];
  private readonly ftype: Uint8Array;
  private readonly fstate: string[]; // GEOID[0:2]
  private readonly fcounty: string[]; // cousubs: county_id, else 'county:' + GEOID[0:5] (R4a); others ''
  private readonly polys: Shape[];
  private readonly gx0: number;
  private readonly gy0: number;
  private readonly gInv: number;
  private readonly gnx: number;
  private readonly gny: number;
  private readonly cellIdx: Int32Array; // grid cell -> compact cell number, -1 when no box reaches it
  private readonly off: Int32Array; // (compact cell * NTYPES + type) -> start in entries
  private readonly entries: Int32Array; // poly indices, per (cell, type) in R3 order
  private readonly byType: Record<BoundaryType, number>;
  private readonly budget: DecodedBudget;
  /** the top grid as built or read (the builder stores it in boundary_pack) */
  readonly grid: TopGrid;

  /** Load every state / county / cousub / place with a geom from an open (read-only) directory database: the
   * feature columns from the builder's boundary_pack when the file has one (see boundary-pack.ts), else from the
   * jurisdictions table (scanBoundaryColumns). Geometry blobs are decoded on first use (LazyShape), except where
   * the box is missing or wider than 60° (crossing the antimeridian: indexed polygon by polygon at start). */
  static fromDatabase(db: Database, options: BoundaryIndexOptions & { usePack?: boolean } = {}): BoundaryIndex {
    const pack = options.usePack !== false ? readBoundaryPack(db) : null;
    const columns = pack?.columns ?? scanBoundaryColumns(db);
    return new BoundaryIndex({ columns, load: geometryLoader(db, columns.ids), grid: pack?.grid }, options);
  }

  /** From features (tests, tools), or from columns in R3 order with one loader of a feature's polygons. */
  constructor(
    input:
      | BoundaryFeatureInput[]
      | { columns: BoundaryColumns; load: (feature: number) => Float64Array[][]; grid?: TopGrid | null },
    options: BoundaryIndexOptions = {},
  ) {
    const { columns, load } = Array.isArray(input) ? columnsOfFeatures(input) : input;
    const cellSize = options.cellSize ?? 0.25;
    this.budget = new DecodedBudget(options.decodedBytes ?? CACHE_MB.decoded_boundaries * 1024 * 1024);
    const n = columns.ids.length;
    const boxes = columns.boxes;
    this.ids = columns.ids;
    this.ftype = columns.types;
    this.fstate = new Array(n);
    this.fcounty = new Array(n);
    this.byType = { state: 0, county: 0, cousub: 0, place: 0 };
    this.polys = [];
    for (let fi = 0; fi < n; fi++) {
      const id = this.ids[fi]!;
      const t = this.ftype[fi]!;
      const g = id.indexOf(":") + 1; // GEOID = the part after the first ':' (the whole id without one)
      this.fstate[fi] = id.slice(g, g + 2);
      this.fcounty[fi] = t === T_COUSUB ? (columns.counties[fi] ?? "county:" + id.slice(g, g + 5)) : "";
      this.byType[BOUNDARY_TYPES[t]!]++;
      if (boxes[4 * fi] === boxes[4 * fi])
        this.polys.push(
          new LazyShape(
            fi,
            boxes[4 * fi]!,
            boxes[4 * fi + 1]!,
            boxes[4 * fi + 2]!,
            boxes[4 * fi + 3]!,
            load,
            this.budget,
          ),
        ); // not NaN
      else
        for (const rings of load(fi)) {
          const p = buildPoly(fi, rings);
          if (p) this.polys.push(p);
        }
    }
    // the top-level grid: the builder's (boundary_pack) when it was built on the same polygon boxes and types
    const polys = this.polys;
    const pb = new Float64Array(4 * polys.length),
      pt = new Uint8Array(polys.length);
    for (let pi = 0; pi < polys.length; pi++) {
      const p = polys[pi]!;
      pb[4 * pi] = p.minx;
      pb[4 * pi + 1] = p.miny;
      pb[4 * pi + 2] = p.maxx;
      pb[4 * pi + 3] = p.maxy;
      pt[pi] = this.ftype[p.feature]!;
    }
    const given = !Array.isArray(input) ? input.grid : null;
    const grid =
      given && given.cellSize === cellSize && given.digest === gridDigest(pb, pt, cellSize)
        ? given
        : buildTopGrid(pb, pt, cellSize);
    this.grid = grid;
    this.gInv = 1 / cellSize;
    this.gx0 = grid.gx0;
    this.gy0 = grid.gy0;
    this.gnx = grid.gnx;
    this.gny = grid.gny;
    this.cellIdx = grid.cellIdx;
    this.off = grid.off;
    this.entries = grid.entries;
  }

  /** Index of the top-level grid slot base for a point (compact cell * NTYPES), or -1 outside the grid or in a
   * cell no box reaches. */
  cellOf(lon: number, lat: number): number {
    const c = Math.floor((lon - this.gx0) * this.gInv);
    const r = Math.floor((lat - this.gy0) * this.gInv);
    if (!(c >= 0 && c < this.gnx && r >= 0 && r < this.gny)) return -1; // also rejects NaN
    const k = this.cellIdx[r * this.gnx + c]!;
    return k < 0 ? -1 : k * NTYPES;
  }

  /** First (= best by R3) feature of type t containing the point, optionally restricted to a state prefix; -1 if none. */
  private best(slotBase: number, t: number, lon: number, lat: number, state: string | null): number {
    const end = this.off[slotBase + t + 1]!;
    const polys = this.polys;
    const entries = this.entries;
    for (let i = this.off[slotBase + t]!; i < end; i++) {
      const p = polys[entries[i]!]!;
      if (state !== null && this.fstate[p.feature]! !== state) continue;
      if (p.contains(lon, lat)) return p.feature;
    }
    return -1;
  }

  /** The jurisdiction chain for a point (lon, lat in EPSG:4326 degrees), or null outside coverage. Rules R1-R4 above. */
  lookup(lon: number, lat: number): PointChain | null {
    return this.chainOfCode(this.locate(lon, lat));
  }

  /** The features a point lookup decides on (rules R1-R4), as one number: -1 outside coverage. Equal codes give
   * equal chains, so callers can key memos by it without building id strings (see chainOfCode). */
  locate(lon: number, lat: number): number {
    const s = this.cellOf(lon, lat);
    if (s < 0) return -1;
    const cousub = this.best(s, T_COUSUB, lon, lat, null);
    if (cousub >= 0) return this.code(0, cousub, this.best(s, T_PLACE, lon, lat, this.fstate[cousub]!));
    const place = this.best(s, T_PLACE, lon, lat, null);
    if (place >= 0) return this.code(1, place, this.best(s, T_COUNTY, lon, lat, this.fstate[place]!));
    const county = this.best(s, T_COUNTY, lon, lat, null);
    if (county >= 0) return this.code(2, county, -1);
    const state = this.best(s, T_STATE, lon, lat, null);
    return state >= 0 ? this.code(3, state, -1) : -1;
  }

  private code(kind: number, f: number, g: number): number {
    return ((f + 1) * (this.ids.length + 1) + (g + 1)) * 4 + kind;
  }

  /** The chain of a locate() code, or null for -1. */
  chainOfCode(code: number): PointChain | null {
    if (code < 0) return null;
    const kind = code % 4,
      rest = (code - kind) / 4,
      m = this.ids.length + 1;
    const g = (rest % m) - 1,
      f = Math.floor(rest / m) - 1;
    if (kind === 0)
      return {
        state: "state:" + this.fstate[f]!,
        county: this.fcounty[f]!,
        cousub: this.ids[f]!,
        place: g >= 0 ? this.ids[g]! : null,
      };
    if (kind === 1)
      return {
        state: "state:" + this.fstate[f]!,
        county: g >= 0 ? this.ids[g]! : null,
        cousub: null,
        place: this.ids[f]!,
      };
    if (kind === 2) return { state: "state:" + this.fstate[f]!, county: this.ids[f]!, cousub: null, place: null };
    return { state: this.ids[f]!, county: null, cousub: null, place: null };
  }

  /** Every loaded feature containing the point (rule R2), all types, in R3 order per type. For diagnostics / tests. */
  containing(lon: number, lat: number): string[] {
    const s = this.cellOf(lon, lat);
    if (s < 0) return [];
    const out: string[] = [];
    for (let t = 0; t < NTYPES; t++) {
      for (let i = this.off[s + t]!; i < this.off[s + t + 1]!; i++) {
        const p = this.polys[this.entries[i]!]!;
        const id = this.ids[p.feature]!;
        if (out[out.length - 1] !== id && p.contains(lon, lat) && !out.includes(id)) out.push(id);
      }
    }
    return out;
  }

  /** Two-digit state prefixes (GEOID[0:2]) that have at least one county subdivision polygon loaded. */
  cousubStates(): Set<string> {
    const out = new Set<string>();
    for (let i = 0; i < this.ids.length; i++) if (this.ftype[i] === T_COUSUB) out.add(this.fstate[i]!);
    return out;
  }

  /** Bounding boxes of the loaded features of one type: [id, minx, miny, maxx, maxy] (union over their polygons). */
  featureBoxes(type: BoundaryType): Array<[string, number, number, number, number]> {
    const t = BOUNDARY_TYPES.indexOf(type);
    const m = new Map<number, [string, number, number, number, number]>();
    for (const p of this.polys) {
      if (this.ftype[p.feature]! !== t) continue;
      const b = m.get(p.feature);
      if (!b) m.set(p.feature, [this.ids[p.feature]!, p.minx, p.miny, p.maxx, p.maxy]);
      else {
        b[1] = Math.min(b[1], p.minx);
        b[2] = Math.min(b[2], p.miny);
        b[3] = Math.max(b[3], p.maxx);
        b[4] = Math.max(b[4], p.maxy);
      }
    }
    return [...m.values()];
  }

  /** Lazily decoded polygons held now (bytes charged), the bound, and how many were dropped to stay under it. */
  decoded(): { bytes: number; limit: number; evictions: number } {
    return { bytes: this.budget.bytes, limit: this.budget.limit, evictions: this.budget.evictions };
  }

  stats(): BoundaryIndexStats {
    let vertices = 0,
      bandEntries = 0,
      gridCells = 0,
      bytes = 0;
    for (const p of this.polys.flatMap(partsOf)) {
      vertices += p.xy.length / 2;
      bandEntries += p.bandEntries;
      gridCells += p.gridCells;
      bytes += p.bytes;
    }
    bytes += this.cellIdx.byteLength + this.off.byteLength + this.entries.byteLength;
    return {
      features: this.ids.length,
      featuresByType: { ...this.byType },
      polygons: this.polys.flatMap(partsOf).length,
      vertices,
      bandEntries,
      gridCells,
      topCells: this.gnx * this.gny,
      topEntries: this.entries.length,
      typedArrayBytes: bytes,
    };
  }
}

/** What the builder stores in boundary_pack: the columns (rules R1, R3) and the top grid built on them. */
export function boundaryPackOf(db: Database): { columns: BoundaryColumns; grid: TopGrid } {
  const columns = scanBoundaryColumns(db);
  return { columns, grid: new BoundaryIndex({ columns, load: geometryLoader(db, columns.ids) }).grid };
}
