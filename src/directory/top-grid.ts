// The point index's top-level grid: a uniform grid (default 0.25°) over the extent of all polygon boxes, with one
// candidate list per (cell, type) in polygon order (= R3 order). Built on the boxes and types of the polygons only,
// so the builder can store it in boundary_pack and the server take it as is when its polygons' boxes and types hash
// to the same digest (else it is built again here: answers never depend on where it came from).
export const NTYPES = 4;

export interface TopGrid {
  cellSize: number;
  /** xxHash3 of the polygon boxes and types it was built on */
  digest: string;
  gx0: number;
  gy0: number;
  gnx: number;
  gny: number;
  /** grid cell -> compact cell number, -1 when no box reaches it */
  cellIdx: Int32Array;
  /** (compact cell * NTYPES + type) -> start in entries */
  off: Int32Array;
  /** polygon indices, per (cell, type) in polygon order */
  entries: Int32Array;
}

/** Digest of the polygon boxes (4 per polygon) and types (1 per polygon) a grid is built on. */
export function gridDigest(boxes: Float64Array, types: Uint8Array, cellSize: number): string {
  const h = Bun.hash.xxHash3(
    new Uint8Array(boxes.buffer, boxes.byteOffset, boxes.byteLength),
    Bun.hash.xxHash3(types, BigInt(Math.round(cellSize * 1e9))),
  );
  return h.toString(16).padStart(16, "0");
}

export function buildTopGrid(boxes: Float64Array, types: Uint8Array, cellSize: number): TopGrid {
  const np = types.length;
  let minX = Infinity,
    minY = Infinity,
    maxX = -Infinity,
    maxY = -Infinity;
  for (let pi = 0; pi < np; pi++) {
    if (boxes[4 * pi]! < minX) minX = boxes[4 * pi]!;
    if (boxes[4 * pi + 1]! < minY) minY = boxes[4 * pi + 1]!;
    if (boxes[4 * pi + 2]! > maxX) maxX = boxes[4 * pi + 2]!;
    if (boxes[4 * pi + 3]! > maxY) maxY = boxes[4 * pi + 3]!;
  }
  if (np === 0) minX = minY = maxX = maxY = 0;
  const gInv = 1 / cellSize;
  const gx0 = Math.floor(minX);
  const gy0 = Math.floor(minY);
  const gnx = Math.floor((maxX - gx0) * gInv) + 1;
  const gny = Math.floor((maxY - gy0) * gInv) + 1;
  // each polygon's cell range [c0, r0, c1, r1], computed once for every pass
  const ranges = new Int32Array(np * 4);
  for (let pi = 0; pi < np; pi++) {
    ranges[4 * pi] = Math.floor((boxes[4 * pi]! - gx0) * gInv);
    ranges[4 * pi + 1] = Math.floor((boxes[4 * pi + 1]! - gy0) * gInv);
    ranges[4 * pi + 2] = Math.floor((boxes[4 * pi + 2]! - gx0) * gInv);
    ranges[4 * pi + 3] = Math.floor((boxes[4 * pi + 3]! - gy0) * gInv);
  }
  // only cells some box reaches get slots (most of the extent, from Guam to the Virgin Islands, is sea):
  // cellIdx maps a grid cell to its compact number, -1 when empty (a point there is outside coverage)
  const cellIdx = new Int32Array(gnx * gny).fill(-1);
  let nCells = 0;
  for (let pi = 0; pi < np; pi++) {
    const c0 = ranges[4 * pi]!,
      r0 = ranges[4 * pi + 1]!,
      c1 = ranges[4 * pi + 2]!,
      r1 = ranges[4 * pi + 3]!;
    for (let r = r0; r <= r1; r++)
      for (let c = c0; c <= c1; c++) if (cellIdx[r * gnx + c] === -1) cellIdx[r * gnx + c] = nCells++;
  }
  const nSlots = nCells * NTYPES;
  const off = new Int32Array(nSlots + 1);
  for (let pi = 0; pi < np; pi++) {
    const c0 = ranges[4 * pi]!,
      r0 = ranges[4 * pi + 1]!,
      c1 = ranges[4 * pi + 2]!,
      r1 = ranges[4 * pi + 3]!;
    const t = types[pi]!;
    for (let r = r0; r <= r1; r++) {
      for (let c = c0; c <= c1; c++) {
        const j = cellIdx[r * gnx + c]! * NTYPES + t + 1;
        off[j] = off[j]! + 1;
      }
    }
  }
  for (let i = 0; i < nSlots; i++) off[i + 1] = off[i + 1]! + off[i]!;
  const fill = off.slice(0, nSlots);
  const entries = new Int32Array(off[nSlots]!);
  // polygons are in feature (R3) order, so each slot comes out sorted
  for (let pi = 0; pi < np; pi++) {
    const c0 = ranges[4 * pi]!,
      r0 = ranges[4 * pi + 1]!,
      c1 = ranges[4 * pi + 2]!,
      r1 = ranges[4 * pi + 3]!;
    const t = types[pi]!;
    for (let r = r0; r <= r1; r++) {
      for (let c = c0; c <= c1; c++) {
        const j = cellIdx[r * gnx + c]! * NTYPES + t;
        entries[fill[j]!] = pi;
        fill[j] = fill[j]! + 1;
      }
    }
  }
  return { cellSize, digest: gridDigest(boxes, types, cellSize), gx0, gy0, gnx, gny, cellIdx, off, entries };
}
