/** @jsxImportSource @kitajs/html */
// A jurisdiction's boundary as inline SVG, drawn from the geometry in the data file (no map tiles, no outside
// assets). Longitude is scaled by cos(mid latitude) so shapes keep their proportions; coordinates are rounded
// to the drawing's resolution and repeated points dropped, so a full-resolution boundary stays small.
import type { Boundary } from "../directory/records";

const WIDTH = 600;
const MAX_HEIGHT = 420;
const PAD = 8;

export function boundaryPath(b: Boundary): { d: string; width: number; height: number } {
  let [minx, miny, maxx, maxy] = b.bbox;
  // shapes across the antimeridian (Alaska's Aleutians): draw west longitudes shifted by 360
  const wrap = maxx - minx > 180;
  if (wrap) {
    minx = Infinity;
    maxx = -Infinity;
    for (const p of b.polygons)
      for (const r of p)
        for (let i = 0; i < r.length; i += 2) {
          const x = r[i]! < 0 ? r[i]! + 360 : r[i]!;
          if (x < minx) minx = x;
          if (x > maxx) maxx = x;
        }
  }
  const kx = Math.cos((((miny + maxy) / 2) * Math.PI) / 180);
  const w = Math.max((maxx - minx) * kx, 1e-9),
    h = Math.max(maxy - miny, 1e-9);
  const scale = Math.min((WIDTH - 2 * PAD) / w, (MAX_HEIGHT - 2 * PAD) / h);
  const width = Math.round(w * scale + 2 * PAD),
    height = Math.round(h * scale + 2 * PAD);
  const parts: string[] = [];
  for (const poly of b.polygons) {
    for (const ring of poly) {
      let last = "";
      let n = 0;
      const pts: string[] = [];
      for (let i = 0; i < ring.length; i += 2) {
        const lon = wrap && ring[i]! < 0 ? ring[i]! + 360 : ring[i]!;
        const x = ((lon - minx) * kx * scale + PAD).toFixed(1),
          y = ((maxy - ring[i + 1]!) * scale + PAD).toFixed(1);
        const p = `${x} ${y}`;
        if (p === last) continue;
        last = p;
        pts.push(p);
        n++;
      }
      if (n > 1 && pts[n - 1] === pts[0]) {
        pts.pop();
        n--;
      } // rings are stored closed; Z closes the path
      if (n >= 3) parts.push(`M${pts.join("L")}Z`);
    }
  }
  return { d: parts.join(""), width, height };
}

export function BoundaryFigure({ b, name, sourceName }: { b: Boundary; name: string; sourceName: string | null }) {
  const { d, width, height } = boundaryPath(b);
  const scale =
    b.precision === "full"
      ? "a detailed map"
      : b.precision === "simplified_20m"
        ? "a simplified map at 1:500,000 scale"
        : b.precision === "1:10m"
          ? "a coarse map at 1:10,000,000 scale"
          : "a map of unstated detail";
  return (
    <figure class="boundary">
      <svg
        xmlns="http://www.w3.org/2000/svg"
        viewBox={`0 0 ${width} ${height}`}
        width={String(width)}
        height={String(height)}
        role="img"
        aria-labelledby="boundary-title"
      >
        <title id="boundary-title" safe>{`Outline of ${name}`}</title>
        <path d={d} />
      </svg>
      <figcaption safe>
        {`Outline of ${name}, north up, drawn from ${scale}: for orientation only, not a survey.${sourceName ? ` Map data: ${sourceName}.` : ""}`}
      </figcaption>
    </figure>
  );
}
