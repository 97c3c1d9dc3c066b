/** @jsxImportSource @kitajs/html */
// The screening page's drawing: the point, and the shapes of the loaded layers around it (flood zones, wetlands,
// public waters), in one inline SVG with its legend (no tiles, no outside asset). The view is a square of
// 2 × radius metres centred on the point, north up; shapes are clipped to it (lineclip) so a large zone stays small.
import { clipPolygon, clipPolyline, type Point } from "lineclip";
import { metresToDegrees } from "../lookups/screening/geometry";
import type { Drawn } from "../directory/screen-at";

const SIZE = 320;
const ROW = 24;
const LINE = 15;
/** Legend words per line: a longer label wraps at a space (the SVG is 320 units wide). */
const WRAP = 44;

function wrapped(label: string): string[] {
  const lines: string[] = [];
  let rest = label;
  while (rest.length > WRAP) {
    const cut = rest.lastIndexOf(" ", WRAP);
    if (cut <= 0) break;
    lines.push(rest.slice(0, cut));
    rest = rest.slice(cut + 1);
  }
  return [...lines, rest];
}
const EDGE: [number, number, number, number] = [-2, -2, SIZE + 2, SIZE + 2];
/** One look per tone (fill, its opacity, stroke, dashes); dashes and fills differ, not colour alone. */
const LOOKS: Record<string, { fill: string; opacity: number; stroke: string; dash: string }> = {
  flood: { fill: "#2b6cb0", opacity: 0.4, stroke: "#1a365d", dash: "" },
  "flood-moderate": { fill: "#bee3f8", opacity: 0.6, stroke: "#2b6cb0", dash: "6 3" },
  wetland: { fill: "#68d391", opacity: 0.45, stroke: "#22543d", dash: "2 2" },
  water: { fill: "#63b3ed", opacity: 0.55, stroke: "#2a4365", dash: "" },
};
const OTHER = { fill: "#d69e2e", opacity: 0.35, stroke: "#744210", dash: "" };

interface PointDrawingProps {
  lon: number;
  lat: number;
  radiusM: number;
  layers: string[];
  shapes: Drawn[];
}

/** Scale-bar length in metres: a round figure near a third of the view. */
function barMetres(radiusM: number): number {
  const want = (2 * radiusM) / 3;
  const p = 10 ** Math.floor(Math.log10(want));
  return [5, 2, 1].map((k) => k * p).find((m) => m <= want) ?? p;
}

export function PointDrawing({ lon, lat, radiusM, layers, shapes }: PointDrawingProps) {
  const { dLon, dLat } = metresToDegrees(radiusM, lat);
  const px = (x: number, y: number): Point => [
    SIZE / 2 + ((x - lon) / dLon) * (SIZE / 2),
    SIZE / 2 - ((y - lat) / dLat) * (SIZE / 2),
  ];
  const pts = (r: Float64Array): Point[] => {
    const out: Point[] = [];
    for (let i = 0; i + 1 < r.length; i += 2) out.push(px(r[i]!, r[i + 1]!));
    return out;
  };
  const d = (ps: Point[], close: boolean) =>
    `M${ps.map(([x, y]) => `${x.toFixed(1)} ${y.toFixed(1)}`).join("L")}${close ? "Z" : ""}`;
  const classes: { label: string; tone: string; line: boolean }[] = [];
  const paths: { d: string; cls: number; line: boolean }[] = [];
  for (const s of shapes) {
    const parts: string[] = [];
    for (const poly of s.polygons ?? [])
      for (const ring of poly) {
        const c = clipPolygon(pts(ring), EDGE);
        if (c.length >= 3) parts.push(d(c, true));
      }
    const lines: string[] = [];
    for (const l of s.lines ?? [])
      for (const part of clipPolyline(pts(l), EDGE)) if (part.length >= 2) lines.push(d(part, false));
    if (!parts.length && !lines.length) continue;
    let cls = classes.findIndex((c) => c.label === s.label);
    if (cls < 0) cls = classes.push({ label: s.label, tone: s.tone, line: !parts.length }) - 1;
    if (parts.length) paths.push({ d: parts.join(""), cls, line: false });
    if (lines.length) paths.push({ d: lines.join(""), cls, line: true });
  }
  const bar = barMetres(radiusM);
  const barPx = (bar / (2 * radiusM)) * SIZE;
  // each legend row is as tall as its wrapped label
  const rowsAt: number[] = [];
  let next = SIZE + 12 + ROW;
  for (const c of classes) {
    rowsAt.push(next);
    next += ROW + (wrapped(c.label).length - 1) * LINE;
  }
  const height = next;
  const described = classes.length
    ? `Drawn around the point: ${classes.map((c) => c.label).join("; ")}.`
    : "No shape of the loaded layers lies in this square.";
  return (
    <figure class="point-drawing">
      <svg
        xmlns="http://www.w3.org/2000/svg"
        viewBox={`0 0 ${SIZE} ${height}`}
        width={String(SIZE)}
        height={String(height)}
        role="img"
        aria-labelledby="drawing-title drawing-desc"
      >
        <title
          id="drawing-title"
          safe
        >{`The point and the loaded map layers within ${radiusM} m of it, north up`}</title>
        <desc id="drawing-desc" safe>
          {described}
        </desc>
        <defs>
          <clipPath id="drawing-view">
            <rect x="0" y="0" width={String(SIZE)} height={String(SIZE)} />
          </clipPath>
        </defs>
        <rect class="view" x="0.5" y="0.5" width={String(SIZE - 1)} height={String(SIZE - 1)} />
        <g clip-path="url(#drawing-view)">
          {paths.map((p) => {
            const k = LOOKS[classes[p.cls]!.tone] ?? OTHER;
            return p.line ? (
              <path d={p.d} fill="none" stroke={k.stroke} stroke-width="3" stroke-dasharray={k.dash || undefined} />
            ) : (
              <path
                d={p.d}
                fill={k.fill}
                fill-opacity={String(k.opacity)}
                fill-rule="evenodd"
                stroke={k.stroke}
                stroke-width="1.5"
                stroke-dasharray={k.dash || undefined}
              />
            );
          })}
        </g>
        <circle cx={String(SIZE / 2)} cy={String(SIZE / 2)} r="6" class="point" />
        <g class="scale">
          <rect x="8" y={String(SIZE - 30)} width={String(barPx + 16)} height="22" />
          <path d={`M16 ${SIZE - 14}h${barPx.toFixed(1)}`} />
          <text x="16" y={String(SIZE - 17)} safe>{`${bar} m`}</text>
        </g>
        <text class="north" x={String(SIZE - 12)} y="20" text-anchor="end">
          N ↑
        </text>
        <g class="legend">
          <circle cx="14" cy={String(SIZE + 12 + ROW / 2)} r="6" class="point" />
          <text x="30" y={String(SIZE + 12 + ROW / 2 + 4)}>
            The point screened
          </text>
          {classes.map(({ label, tone, line }, i) => {
            const k = LOOKS[tone] ?? OTHER;
            const y = rowsAt[i]!;
            return (
              <>
                {line ? (
                  <path
                    d={`M4 ${y + ROW / 2}h20`}
                    stroke={k.stroke}
                    stroke-width="3"
                    stroke-dasharray={k.dash || undefined}
                  />
                ) : (
                  <rect
                    x="6"
                    y={String(y + 5)}
                    width="16"
                    height="14"
                    fill={k.fill}
                    fill-opacity={String(k.opacity)}
                    stroke={k.stroke}
                    stroke-width="1.5"
                    stroke-dasharray={k.dash || undefined}
                  />
                )}
                <text x="30" y={String(y + ROW / 2 + 4)}>
                  {wrapped(label).map((line, k) => (
                    <tspan x="30" dy={k ? String(LINE) : "0"} safe>
                      {line}
                    </tspan>
                  ))}
                </text>
              </>
            );
          })}
        </g>
      </svg>
      <figcaption safe>
        {`${described} A square of ${2 * radiusM} m around the point, north up, from the map layers loaded on this server (${layers.join("; ")}): for orientation only, not a survey.`}
      </figcaption>
    </figure>
  );
}
