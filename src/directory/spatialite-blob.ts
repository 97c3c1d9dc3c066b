// Decoder for the SpatiaLite BLOB-Geometry format (the internal format of SpatiaLite geometry columns), so that the
// server can read directory.sqlite without loading mod_spatialite.
//
// Layout (SpatiaLite "BLOB-Geometry", non-compressed):
//   byte 0       0x00 START
//   byte 1       endianness: 0x01 little-endian, 0x00 big-endian (applies to every int32 / double below)
//   bytes 2..5   int32 SRID
//   bytes 6..37  4 doubles MBR: min_x, min_y, max_x, max_y
//   byte 38      0x7C MBR_END
//   bytes 39..42 int32 class type (WKB-like: 3 POLYGON, 6 MULTIPOLYGON, 7 GEOMETRYCOLLECTION; +1000 XYZ,
//                +2000 XYM, +3000 XYZM; +1000000 compressed variants)
//   body         POLYGON: int32 ring count; each ring: int32 point count, then the points (2..4 doubles each)
//                MULTI* / COLLECTION: int32 entity count; each entity: 0x69 ENTITY marker, int32 class type, body
//   last byte    0xFE END
//
// Only polygonal geometries are decoded (POLYGON, MULTIPOLYGON, and GEOMETRYCOLLECTIONs holding only those).
// Z / M ordinates are skipped. Compressed geometries (class types >= 1000000) are rejected with an Error.
//
// Output: one entry per polygon, each a list of rings (first = exterior, then holes), each ring a Float64Array
// [x0, y0, x1, y1, ...] exactly as stored (SpatiaLite rings are closed: the last point repeats the first). The rings
// of one polygon are views (subarray) on one shared Float64Array, reachable through `ring.buffer` / `coords`.

export const BLOB_START = 0x00;
export const BLOB_MBR_END = 0x7c;
export const BLOB_ENTITY = 0x69;
export const BLOB_END = 0xfe;
const HEADER_LENGTH = 39; // START .. MBR_END inclusive

interface DecodedPolygon {
  /** every ring of this polygon back to back, [x, y, x, y, ...] */
  coords: Float64Array;
  /** rings[i] is a subarray view on coords; rings[0] is the exterior ring */
  rings: Float64Array[];
}

interface DecodedGeometry {
  srid: number;
  /** MBR from the header: [min_x, min_y, max_x, max_y] */
  mbr: [number, number, number, number];
  /** top-level class type as stored (e.g. 6 for MULTIPOLYGON XY, 1006 for MULTIPOLYGON XYZ) */
  classType: number;
  polygons: DecodedPolygon[];
}

class SpatialiteBlobError extends Error {
  constructor(message: string) {
    super(`SpatiaLite BLOB-Geometry: ${message}`);
    this.name = "SpatialiteBlobError";
  }
}

/** Number of doubles per point for a (non-compressed) class type, and its base type (1..7). */
function dims(classType: number): { base: number; nd: number } {
  if (classType >= 1000000) {
    throw new SpatialiteBlobError(
      `compressed geometry class type ${classType} is not supported (store geometries uncompressed)`,
    );
  }
  const family = Math.floor(classType / 1000);
  const base = classType % 1000;
  if (family < 0 || family > 3 || base < 1 || base > 7) {
    throw new SpatialiteBlobError(`unknown geometry class type ${classType}`);
  }
  return { base, nd: family === 0 ? 2 : family === 3 ? 4 : 3 };
}

class Reader {
  pos: number;
  constructor(
    readonly view: DataView,
    readonly le: boolean,
    pos: number,
  ) {
    this.pos = pos;
  }
  need(n: number) {
    if (this.pos + n > this.view.byteLength) {
      throw new SpatialiteBlobError(
        `truncated blob (need ${n} bytes at offset ${this.pos}, length ${this.view.byteLength})`,
      );
    }
  }
  u8(): number {
    this.need(1);
    return this.view.getUint8(this.pos++);
  }
  i32(): number {
    this.need(4);
    const v = this.view.getInt32(this.pos, this.le);
    this.pos += 4;
    return v;
  }
  f64(): number {
    const v = this.view.getFloat64(this.pos, this.le);
    this.pos += 8;
    return v;
  }
}

function readPolygon(r: Reader, nd: number): DecodedPolygon {
  const nRings = r.i32();
  if (nRings < 0) throw new SpatialiteBlobError(`negative ring count at offset ${r.pos - 4}`);
  // First pass: count points so that one Float64Array holds every ring of the polygon.
  const start = r.pos;
  const counts: number[] = new Array(nRings);
  let total = 0;
  for (let i = 0; i < nRings; i++) {
    const n = r.i32();
    if (n < 0) throw new SpatialiteBlobError(`negative point count at offset ${r.pos - 4}`);
    counts[i] = n;
    total += n;
    r.need(n * nd * 8);
    r.pos += n * nd * 8;
  }
  // Second pass: copy x, y (skipping z / m).
  r.pos = start;
  const coords = new Float64Array(total * 2);
  const rings: Float64Array[] = new Array(nRings);
  const skip = (nd - 2) * 8;
  let o = 0;
  for (let i = 0; i < nRings; i++) {
    r.pos += 4;
    const n = counts[i]!;
    const ringStart = o;
    for (let k = 0; k < n; k++) {
      coords[o++] = r.f64();
      coords[o++] = r.f64();
      r.pos += skip;
    }
    rings[i] = coords.subarray(ringStart, o);
  }
  return { coords, rings };
}

function readBody(r: Reader, classType: number, out: DecodedPolygon[], depth: number) {
  const { base, nd } = dims(classType);
  if (base === 3) {
    out.push(readPolygon(r, nd));
    return;
  }
  if (base === 6 || base === 7) {
    if (depth > 8) throw new SpatialiteBlobError("collections nested too deep");
    const n = r.i32();
    if (n < 0) throw new SpatialiteBlobError(`negative entity count at offset ${r.pos - 4}`);
    for (let i = 0; i < n; i++) {
      const marker = r.u8();
      if (marker !== BLOB_ENTITY) {
        throw new SpatialiteBlobError(
          `expected ENTITY marker 0x69 at offset ${r.pos - 1}, got 0x${marker.toString(16)}`,
        );
      }
      const t = r.i32();
      const sub = dims(t);
      if (base === 6 && sub.base !== 3) {
        throw new SpatialiteBlobError(`MULTIPOLYGON holds an entity of class type ${t}`);
      }
      readBody(r, t, out, depth + 1);
    }
    return;
  }
  throw new SpatialiteBlobError(`class type ${classType} is not polygonal (expected POLYGON or MULTIPOLYGON)`);
}

/** Decode a SpatiaLite BLOB-Geometry holding a POLYGON / MULTIPOLYGON (XY, XYZ, XYM or XYZM). Throws on anything else. */
export function decodeSpatialiteBlob(blob: Uint8Array): DecodedGeometry {
  if (!(blob instanceof Uint8Array)) throw new SpatialiteBlobError("not a BLOB");
  if (blob.byteLength < HEADER_LENGTH + 5) throw new SpatialiteBlobError(`blob too short (${blob.byteLength} bytes)`);
  if (blob[0]! !== BLOB_START) throw new SpatialiteBlobError(`bad START byte 0x${blob[0]!.toString(16)}`);
  const e = blob[1]!;
  if (e !== 0x00 && e !== 0x01) {
    throw new SpatialiteBlobError(
      `bad endianness byte 0x${e.toString(16)} (TinyPoint / GeoPackage blobs are not supported)`,
    );
  }
  if (blob[HEADER_LENGTH - 1]! !== BLOB_MBR_END) {
    throw new SpatialiteBlobError(`bad MBR_END byte 0x${blob[HEADER_LENGTH - 1]!.toString(16)}`);
  }
  if (blob[blob.byteLength - 1]! !== BLOB_END) {
    throw new SpatialiteBlobError(`bad END byte 0x${blob[blob.byteLength - 1]!.toString(16)}`);
  }
  const view = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
  const le = e === 0x01;
  const r = new Reader(view, le, 2);
  const srid = r.i32();
  const mbr: [number, number, number, number] = [r.f64(), r.f64(), r.f64(), r.f64()];
  r.pos = HEADER_LENGTH;
  const classType = r.i32();
  const polygons: DecodedPolygon[] = [];
  readBody(r, classType, polygons, 0);
  if (r.pos !== blob.byteLength - 1) {
    throw new SpatialiteBlobError(`trailing bytes: body ends at ${r.pos}, END expected at ${blob.byteLength - 1}`);
  }
  return { srid, mbr, classType, polygons };
}
