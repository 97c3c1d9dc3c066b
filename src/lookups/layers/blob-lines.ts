// Lines from a SpatiaLite BLOB-Geometry (LINESTRING 2 / MULTILINESTRING 5, XY/XYZ/XYM/XYZM), the companion of
// src/directory/spatialite-blob.ts (which decodes polygons; same layout: header of 39 bytes, class type, body,
// 0xFE END; MULTI entities each start with 0x69). Returns null for any non-line class type.
export function decodeLines(b: Uint8Array): Float64Array[] | null {
  if (b.byteLength < 44 || b[0] !== 0x00 || (b[1] !== 0 && b[1] !== 1) || b[38] !== 0x7c) return null;
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const le = b[1] === 1;
  const cls = v.getInt32(39, le);
  if (cls >= 1000000) return null;
  const base = cls % 1000,
    fam = Math.floor(cls / 1000);
  if (base !== 2 && base !== 5) return null;
  let pos = 43;
  const readLine = (nd: number): Float64Array => {
    const n = v.getInt32(pos, le);
    pos += 4;
    if (n < 0 || pos + n * nd * 8 > b.byteLength) throw new Error("SpatiaLite line blob: truncated");
    const out = new Float64Array(n * 2);
    for (let i = 0; i < n; i++) {
      out[2 * i] = v.getFloat64(pos, le);
      out[2 * i + 1] = v.getFloat64(pos + 8, le);
      pos += nd * 8;
    }
    return out;
  };
  const nd = (f: number) => (f === 0 ? 2 : f === 3 ? 4 : 3);
  if (base === 2) return [readLine(nd(fam))];
  const count = v.getInt32(pos, le);
  pos += 4;
  const lines: Float64Array[] = [];
  for (let i = 0; i < count; i++) {
    if (b[pos] !== 0x69) throw new Error("SpatiaLite line blob: missing ENTITY marker");
    const sub = v.getInt32(pos + 1, le);
    pos += 5;
    lines.push(readLine(nd(Math.floor(sub / 1000))));
  }
  return lines;
}
