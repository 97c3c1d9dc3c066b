// The point index's feature list and top grid, precomputed by the builder into the data file's boundary_pack table:
// the ids in R3 order, their types, cousub county ids and bounding boxes (~1.4 MB), and the top grid's arrays (~3 MB).
// Reading it at start takes a few ms, where selecting the same columns from the jurisdictions table reads all of
// its 40 MB of pages (the small geometries are stored in the rows) and makes 28k row objects (50-130 ms of a cold
// start), and building the grid walks ~200k cells (15-40 ms cold). The grid is taken only when the polygons built
// at start hash to the digest it was built on (top-grid.ts).
// The pack is derived data, covered by the file seal like every other page; a file without it (or with another
// format) is read the old way (BoundaryIndex scans the table). Rules R1 and R3 live in boundaries.ts: the builder
// writes what scanBoundaryColumns() returns, so both ways give the same columns.
import type { Database } from "bun:sqlite";
import { NTYPES, type TopGrid } from "./top-grid";

/** The features of the point index in columns, in R3 order. */
export interface BoundaryColumns {
  ids: string[];
  /** index into BOUNDARY_TYPES */
  types: Uint8Array;
  /** the cousub's county_id (rule R4a), null for other types or when the row has none */
  counties: (string | null)[];
  /** 4 per feature: min x, min y, max x, max y; NaN where the geometry is decoded at start (no box, or wider than 60°) */
  boxes: Float64Array;
}

export const BOUNDARY_PACK_FORMAT = "boundary-columns-1";
const GRID_KEYS = ["grid_cell_positions", "grid_off", "grid_entries"] as const;
const bytesOf = (a: Float64Array | Int32Array) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
const littleEndian = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Builder: write the columns into boundary_pack (the table is in schema.sql). */
export function writeBoundaryPack(
  db: Database,
  { columns: c, grid }: { columns: BoundaryColumns; grid: TopGrid | null },
): void {
  if (!littleEndian) throw new Error("boundary_pack is written little-endian only");
  const put = db.prepare("INSERT INTO boundary_pack (key, value) VALUES (?, ?)");
  put.run("format", BOUNDARY_PACK_FORMAT);
  put.run("count", String(c.ids.length));
  put.run("ids", c.ids.join("\n"));
  put.run("counties", c.counties.map((x) => x ?? "").join("\n"));
  put.run("types", c.types);
  put.run("boxes", bytesOf(c.boxes));
  if (grid) {
    const { cellIdx, off, entries, ...meta } = grid;
    put.run("grid", JSON.stringify(meta));
    // cellIdx is ~2 MB, nearly all -1 (sea): stored as the grid position of each compact cell (~110 KB)
    const positions = new Int32Array((off.length - 1) / NTYPES);
    for (let i = 0; i < cellIdx.length; i++) if (cellIdx[i]! >= 0) positions[cellIdx[i]!] = i;
    put.run("grid_cell_positions", bytesOf(positions));
    put.run("grid_off", bytesOf(off));
    put.run("grid_entries", bytesOf(entries));
  }
  put.finalize();
}

/** Server: the columns (and the grid, when stored) from boundary_pack, or null when the file has none (or a format
 * this code does not read). */
export function readBoundaryPack(db: Database): { columns: BoundaryColumns; grid: TopGrid | null } | null {
  if (!littleEndian) return null;
  if (!db.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'boundary_pack'").get()) return null;
  const v = new Map<string, string | Uint8Array>();
  for (const r of db
    .query<{ key: string; value: string | Uint8Array }, []>("SELECT key, value FROM boundary_pack")
    .all())
    v.set(r.key, r.value);
  if (v.get("format") !== BOUNDARY_PACK_FORMAT) return null;
  const n = Number(v.get("count"));
  const ids = v.get("ids"),
    counties = v.get("counties"),
    types = v.get("types"),
    boxes = v.get("boxes");
  if (
    typeof ids !== "string" ||
    typeof counties !== "string" ||
    !(types instanceof Uint8Array) ||
    !(boxes instanceof Uint8Array)
  )
    return null;
  const c: BoundaryColumns = {
    ids: n ? ids.split("\n") : [],
    counties: n ? counties.split("\n").map((x) => x || null) : [],
    types: types.slice(),
    boxes: new Float64Array(boxes.slice().buffer), // slice(): a buffer of its own, aligned for Float64Array
  };
  if (c.ids.length !== n || c.counties.length !== n || c.types.length !== n || c.boxes.length !== 4 * n) {
    throw new Error(
      `boundary_pack: ${n} features announced, columns of ${c.ids.length}, ${c.counties.length}, ${c.types.length}, ${c.boxes.length / 4}`,
    );
  }
  const int32 = (b: string | Uint8Array | undefined) =>
    b instanceof Uint8Array ? new Int32Array(b.slice().buffer) : null;
  const meta = v.get("grid"),
    positions = int32(v.get(GRID_KEYS[0])),
    off = int32(v.get(GRID_KEYS[1])),
    entries = int32(v.get(GRID_KEYS[2]));
  let grid: TopGrid | null = null;
  if (typeof meta === "string" && positions && off && entries) {
    const m = JSON.parse(meta) as Omit<TopGrid, "cellIdx" | "off" | "entries">;
    const cellIdx = new Int32Array(m.gnx * m.gny).fill(-1);
    for (let k = 0; k < positions.length; k++) cellIdx[positions[k]!] = k;
    grid = { ...m, cellIdx, off, entries };
  }
  return { columns: c, grid };
}
