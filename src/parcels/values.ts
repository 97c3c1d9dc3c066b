// Reading one input value: numbers, dates in a mapping's format, points and polygon centroids.
/** A positive finite number, or null. */
export function positive(v: unknown): number | null {
  if (v === null || v === undefined || v === "") return null;
  const n = typeof v === "number" ? v : Number(String(v).replace(/[$,\s]/g, ""));
  return Number.isFinite(n) && n > 0 ? n : null;
}

/** Is the value one of the list (trimmed, any case)? */
export const inSet = (v: unknown, list?: string[]) =>
  !!list && v != null && list.map((x) => x.toUpperCase()).includes(String(v).trim().toUpperCase());

/** A date in the given format (tokens YYYY, YY, MM, DD at fixed positions; "M/D/YYYY" for US dates without
 * leading zeros; "ISO" for ISO 8601) → YYYY-MM-DD. */
export function readDate(v: unknown, format = "ISO"): string | null {
  if (v === null || v === undefined || v === "") return null;
  const s = String(v).trim();
  let y: number, m: number, d: number;
  if (format === "M/D/YYYY") {
    const r = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(s);
    if (!r) return null;
    [m, d, y] = [Number(r[1]), Number(r[2]), Number(r[3])];
  } else if (format === "ISO") {
    const r = /^(\d{4})-(\d{2})-(\d{2})/.exec(s);
    if (!r) return null;
    [y, m, d] = [Number(r[1]), Number(r[2]), Number(r[3])];
  } else {
    // an all-digit value shorter than its format lost leading zeros (a YYMMDD year 2003 written 30423)
    const str = /^\d+$/.test(s) && s.length < format.length ? s.padStart(format.length, "0") : s;
    const t = (tok: string) => {
      const i = format.indexOf(tok);
      return i < 0 ? NaN : Number(str.slice(i, i + tok.length));
    };
    if (format.includes("YYYY")) y = t("YYYY");
    else {
      const yy = t("YY");
      y = yy < 50 ? 2000 + yy : 1900 + yy;
    } // two-digit years: 00–49 → 20xx, 50–99 → 19xx
    m = t("MM");
    d = t("DD");
  }
  if (![y, m, d].every(Number.isInteger) || m < 1 || m > 12 || d < 1 || d > 31) return null;
  const iso = `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
  const dt = new Date(`${iso}T00:00:00Z`);
  return Number.isNaN(dt.getTime()) || dt.toISOString().slice(0, 10) !== iso ? null : iso;
}

type Ring = [number, number][];
/** Area-weighted centroid of a Polygon or MultiPolygon's outer rings (planar; fine at parcel scale). */
export function centroid(geom: { type: string; coordinates: any }): [number, number] | null {
  if (geom.type === "Point") return geom.coordinates as [number, number];
  const polys: Ring[][] =
    geom.type === "Polygon" ? [geom.coordinates] : geom.type === "MultiPolygon" ? geom.coordinates : [];
  // relative to the first vertex: products of raw degrees (~3,000) would cancel away a parcel's digits
  const [ox, oy] = polys[0]?.[0]?.[0] ?? [0, 0];
  let a = 0,
    cx = 0,
    cy = 0;
  for (const poly of polys) {
    const ring = poly[0] ?? [];
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const x0 = ring[j]![0] - ox,
        y0 = ring[j]![1] - oy,
        x1 = ring[i]![0] - ox,
        y1 = ring[i]![1] - oy;
      const f = x0 * y1 - x1 * y0;
      a += f;
      cx += (x0 + x1) * f;
      cy += (y0 + y1) * f;
    }
  }
  if (a === 0) {
    const first = polys[0]?.[0]?.[0];
    return first ? [first[0], first[1]] : null;
  }
  return [ox + cx / (3 * a), oy + cy / (3 * a)];
}

/** Map every coordinate pair of a geometry. */
export function mapCoords(geom: { type: string; coordinates: any }, f: (p: [number, number]) => [number, number]) {
  const walk = (c: any): any => (typeof c[0] === "number" ? f([c[0], c[1]]) : c.map(walk));
  return { type: geom.type, coordinates: walk(geom.coordinates) };
}

export function bboxOf(geom: { type: string; coordinates: any }): [number, number, number, number] {
  let minx = Infinity,
    miny = Infinity,
    maxx = -Infinity,
    maxy = -Infinity;
  const walk = (c: any) => {
    if (typeof c[0] === "number") {
      minx = Math.min(minx, c[0]);
      maxx = Math.max(maxx, c[0]);
      miny = Math.min(miny, c[1]);
      maxy = Math.max(maxy, c[1]);
    } else for (const x of c) walk(x);
  };
  walk(geom.coordinates);
  return [minx, miny, maxx, maxy];
}
