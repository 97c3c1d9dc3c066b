// Small GeoJSON helpers used at build time: bbox, polygon-part lists, point in polygon, a grid index.
export type Ring = number[][];
export type Poly = Ring[];
export interface Geometry {
  type: string;
  coordinates: any;
}

/** All polygons of a Polygon / MultiPolygon (anything else: empty). */
export function polygonsOf(g: Geometry | null | undefined): Poly[] {
  if (!g) return [];
  if (g.type === "Polygon") return [g.coordinates];
  if (g.type === "MultiPolygon") return g.coordinates;
  if (g.type === "GeometryCollection") return (g as any).geometries.flatMap((x: Geometry) => polygonsOf(x));
  return [];
}

/** A MultiPolygon made of the polygon parts of all given geometries (not dissolved; see spatialite.ts). */
export function toMulti(geoms: (Geometry | null | undefined)[]): Geometry | null {
  const parts = geoms.flatMap((g) => polygonsOf(g)).filter((p) => p.length && p[0]!.length >= 4);
  return parts.length ? { type: "MultiPolygon", coordinates: parts } : null;
}

export function bboxOf(g: Geometry | null): [number, number, number, number] | null {
  let a = Infinity,
    b = Infinity,
    c = -Infinity,
    d = -Infinity;
  for (const p of polygonsOf(g))
    for (const pt of p[0] ?? []) {
      const x = pt[0]!,
        y = pt[1]!;
      if (x < a) a = x;
      if (y < b) b = y;
      if (x > c) c = x;
      if (y > d) d = y;
    }
  return a === Infinity ? null : [a, b, c, d];
}

function inRing(x: number, y: number, r: Ring): boolean {
  let inside = false;
  for (let i = 0, j = r.length - 1; i < r.length; j = i++) {
    const xi = r[i]![0]!,
      yi = r[i]![1]!,
      xj = r[j]![0]!,
      yj = r[j]![1]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

export function pointInGeometry(x: number, y: number, g: Geometry | null): boolean {
  for (const p of polygonsOf(g)) {
    if (!p.length || !inRing(x, y, p[0]!)) continue;
    let hole = false;
    for (let k = 1; k < p.length; k++)
      if (inRing(x, y, p[k]!)) {
        hole = true;
        break;
      }
    if (!hole) return true;
  }
  return false;
}

/** Coarse 1-degree grid of bounding boxes for point-in-polygon candidates. */
export class BoxIndex<T> {
  private cells = new Map<string, { box: number[]; item: T }[]>();
  add(box: number[] | null, item: T) {
    if (!box) return;
    const [x0, y0, x1, y1] = box as [number, number, number, number];
    for (let x = Math.floor(x0); x <= Math.floor(x1); x++)
      for (let y = Math.floor(y0); y <= Math.floor(y1); y++) {
        const k = x + "," + y;
        let a = this.cells.get(k);
        if (!a) this.cells.set(k, (a = []));
        a.push({ box, item });
      }
  }
  candidates(x: number, y: number): T[] {
    return (this.cells.get(Math.floor(x) + "," + Math.floor(y)) ?? [])
      .filter((e) => x >= e.box[0]! && x <= e.box[2]! && y >= e.box[1]! && y <= e.box[3]!)
      .map((e) => e.item);
  }
}
