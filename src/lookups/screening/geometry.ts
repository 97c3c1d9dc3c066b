// Local geometry for screening: a feature read from a service or a loaded layer, tested against the EXACT point.
// Rings and paths are [x0, y0, x1, y1, ...] in WGS84 degrees. Containment is the even-odd rule over all rings of a
// polygon (holes come out right whatever the ring orientation); a point on an edge or a vertex is inside, like
// the boundary rule of src/directory/boundaries.ts. Distances use a local equirectangular projection around the
// point (error well under 1 % at the few hundred metres screening asks about).

export interface Feature {
  /** Which layer of the service the feature came from (e.g. "hazard" and "panel" for the flood map). */
  layer: string;
  attrs: Record<string, unknown>;
  /** Polygons, each a list of rings. */
  polygons?: Float64Array[][];
  /** Lines (paths), e.g. public watercourses. */
  lines?: Float64Array[];
  /** Set when the service itself answered "this feature contains the point" / "is within the asked distance"
   * (point queries without geometry). */
  hit?: "inside" | "near";
}

const M_PER_DEG_LAT = 110_574;
const M_PER_DEG_LON_EQ = 111_320;

export function metresToDegrees(m: number, lat: number): { dLon: number; dLat: number } {
  const c = Math.max(0.01, Math.cos((lat * Math.PI) / 180));
  return { dLon: m / (M_PER_DEG_LON_EQ * c), dLat: m / M_PER_DEG_LAT };
}

/** Even-odd containment over every ring of one polygon; on an edge or vertex → inside. */
export function polygonContains(rings: Float64Array[], px: number, py: number): boolean {
  let inside = false;
  for (const r of rings) {
    const n = r.length >> 1;
    for (let i = 0, j = n - 1; i < n; j = i++) {
      const ax = r[2 * j]!,
        ay = r[2 * j + 1]!,
        bx = r[2 * i]!,
        by = r[2 * i + 1]!;
      if (onSegment(px, py, ax, ay, bx, by)) return true;
      if (ay > py !== by > py) {
        const x = ax + ((py - ay) * (bx - ax)) / (by - ay);
        if (x > px) inside = !inside;
      }
    }
  }
  return inside;
}

function onSegment(px: number, py: number, ax: number, ay: number, bx: number, by: number): boolean {
  if (px < Math.min(ax, bx) || px > Math.max(ax, bx) || py < Math.min(ay, by) || py > Math.max(ay, by)) return false;
  return (bx - ax) * (py - ay) - (by - ay) * (px - ax) === 0;
}

/** Distance in metres from the point to a segment, in the local projection around (px, py). */
function segmentMetres(px: number, py: number, ax: number, ay: number, bx: number, by: number, kx: number): number {
  const x1 = (ax - px) * kx,
    y1 = (ay - py) * M_PER_DEG_LAT,
    x2 = (bx - px) * kx,
    y2 = (by - py) * M_PER_DEG_LAT;
  const dx = x2 - x1,
    dy = y2 - y1;
  const len = dx * dx + dy * dy;
  const t = len === 0 ? 0 : Math.max(0, Math.min(1, -(x1 * dx + y1 * dy) / len));
  return Math.hypot(x1 + t * dx, y1 + t * dy);
}

function pathMetres(r: Float64Array, px: number, py: number, kx: number, closed: boolean): number {
  let best = Infinity;
  const n = r.length >> 1;
  for (let i = 1; i < n; i++)
    best = Math.min(best, segmentMetres(px, py, r[2 * i - 2]!, r[2 * i - 1]!, r[2 * i]!, r[2 * i + 1]!, kx));
  if (closed && n > 1) best = Math.min(best, segmentMetres(px, py, r[2 * n - 2]!, r[2 * n - 1]!, r[0]!, r[1]!, kx));
  if (n === 1) best = segmentMetres(px, py, r[0]!, r[1]!, r[0]!, r[1]!, kx);
  return best;
}

/** Metres from the point to the feature: 0 inside a polygon; Infinity for a feature without geometry and no hit. */
export function distanceMetres(f: Feature, px: number, py: number): number {
  if (f.hit === "inside") return 0;
  const kx = M_PER_DEG_LON_EQ * Math.cos((py * Math.PI) / 180);
  let best = Infinity;
  for (const p of f.polygons ?? []) {
    if (polygonContains(p, px, py)) return 0;
    for (const r of p) best = Math.min(best, pathMetres(r, px, py, kx, true));
  }
  for (const l of f.lines ?? []) best = Math.min(best, pathMetres(l, px, py, kx, false));
  return best;
}

export function contains(f: Feature, px: number, py: number): boolean {
  if (f.hit === "inside") return true;
  return (f.polygons ?? []).some((p) => polygonContains(p, px, py));
}

/** Within `metres` of the point (a service "near" hit counts, it was asked with that distance). */
export function within(f: Feature, px: number, py: number, metres: number): boolean {
  if (f.hit === "near") return true;
  return distanceMetres(f, px, py) <= metres;
}

/** Bounding box [minx, miny, maxx, maxy] of a ring list. */
export function bboxOf(rings: Float64Array[]): [number, number, number, number] {
  let a = Infinity,
    b = Infinity,
    c = -Infinity,
    d = -Infinity;
  for (const r of rings)
    for (let i = 0; i < r.length; i += 2) {
      a = Math.min(a, r[i]!);
      c = Math.max(c, r[i]!);
      b = Math.min(b, r[i + 1]!);
      d = Math.max(d, r[i + 1]!);
    }
  return [a, b, c, d];
}
