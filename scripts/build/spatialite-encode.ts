// Encoder of GeoJSON (Multi)Polygons into SpatiaLite BLOB-Geometry MULTIPOLYGON XY (little-endian, uncompressed),
// the layout src/directory/spatialite-blob.ts documents and decodes. It replaces mod_spatialite's GeomFromGeoJSON
// at build time, which parses large town layers slowly (seconds for the New Jersey file alone). Anything unusual
// (Z ordinates, non-finite numbers, a ring of fewer than 4 points, no polygon) returns null: the caller then lets
// SpatiaLite parse the GeoJSON as before.
import { BLOB_END, BLOB_ENTITY, BLOB_MBR_END, BLOB_START } from "../../src/directory/spatialite-blob";
import { polygonsOf, type Geometry } from "./geom";

const MULTIPOLYGON = 6,
  POLYGON = 3;

export function multiPolygonBlob(g: Geometry | null, srid = 4326): Uint8Array | null {
  const polys = polygonsOf(g);
  if (!polys.length) return null;
  let size = 39 + 4 + 4 + 1;
  let minx = Infinity,
    miny = Infinity,
    maxx = -Infinity,
    maxy = -Infinity;
  for (const p of polys) {
    if (!p.length) return null;
    size += 1 + 4 + 4;
    for (const r of p) {
      if (!Array.isArray(r) || r.length < 4) return null;
      size += 4 + r.length * 16;
      for (const pt of r) {
        if (pt.length !== 2) return null;
        const x = pt[0]!,
          y = pt[1]!;
        if (!Number.isFinite(x) || !Number.isFinite(y)) return null;
        if (x < minx) minx = x;
        if (x > maxx) maxx = x;
        if (y < miny) miny = y;
        if (y > maxy) maxy = y;
      }
    }
  }
  const buf = new Uint8Array(size);
  const dv = new DataView(buf.buffer);
  let o = 0;
  buf[o++] = BLOB_START;
  buf[o++] = 0x01;
  dv.setInt32(o, srid, true);
  o += 4;
  for (const v of [minx, miny, maxx, maxy]) {
    dv.setFloat64(o, v, true);
    o += 8;
  }
  buf[o++] = BLOB_MBR_END;
  dv.setInt32(o, MULTIPOLYGON, true);
  o += 4;
  dv.setInt32(o, polys.length, true);
  o += 4;
  for (const p of polys) {
    buf[o++] = BLOB_ENTITY;
    dv.setInt32(o, POLYGON, true);
    o += 4;
    dv.setInt32(o, p.length, true);
    o += 4;
    for (const r of p) {
      dv.setInt32(o, r.length, true);
      o += 4;
      for (const pt of r) {
        dv.setFloat64(o, pt[0]!, true);
        dv.setFloat64(o + 8, pt[1]!, true);
        o += 16;
      }
    }
  }
  buf[o++] = BLOB_END;
  return buf;
}
