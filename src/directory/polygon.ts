// One polygon of a boundary with its point-in-polygon acceleration (bands, a sub-grid built on first use). Used by
// the point index (boundaries.ts, rules R1–R4 there) directly or through lazy-shape.ts.
const CELL_EPS = 1e-9; // degrees (~0.1 mm): safety margin when marking per-polygon grid cells as boundary
const GRID_MIN_EDGES = 24; // polygons with fewer edges use the band test only
const GRID_CELLS_PER_EDGE = 2;
const GRID_MAX_CELLS = 1 << 19;
const EMPTY_I32 = new Int32Array(0);
const OUT = 0;
export const IN = 1;
export const EDGE = 2;

/** One polygon (of a multipolygon) with its acceleration structures. */
export class Poly {
  // Bands and sub-grid are built on the first point test that reaches this polygon (not at start): start time
  // and memory then grow only with the polygons really asked about. `edges` is dropped once they are built.
  private built = false;
  private edges: Uint16Array | Int32Array | null;
  // bands
  private nb = 1;
  private bMinY = 0;
  private bInv = 0;
  private bandOff: Int32Array = EMPTY_I32;
  // coordinate index of the edge's first point (edge = xy[k .. k+3]); 16 bits when every index fits (most polygons)
  private bandEdges: Uint16Array | Int32Array = EMPTY_I32;
  // sub-grid (null for small polygons)
  private cells: Uint8Array | null = null;
  private gnx = 0;
  private gny = 0;
  private gInvW = 0;
  private gInvH = 0;

  constructor(
    readonly feature: number,
    readonly xy: Float64Array,
    edges: Uint16Array | Int32Array,
    readonly minx: number,
    readonly miny: number,
    readonly maxx: number,
    readonly maxy: number,
  ) {
    this.edges = edges;
  }

  /** Build the y-bands and the inside / outside / boundary sub-grid. */
  private build(): void {
    this.built = true;
    const edges = this.edges!;
    this.edges = null;
    const { xy, minx, miny, maxx, maxy } = this;
    const nE = edges.length;
    const H = maxy - miny;
    // ---- y-bands
    let nb = 1;
    if (H > 0 && nE > 8) {
      let sumDy = 0;
      for (let i = 0; i < nE; i++) sumDy += Math.abs(xy[edges[i]! + 3]! - xy[edges[i]! + 1]!);
      const k = Math.max(2, sumDy / H); // mean number of edges a horizontal line meets
      nb = Math.max(1, Math.min(Math.ceil(nE / 4), Math.floor((2 * nE) / k), 1 << 16));
    }
    this.nb = nb;
    this.bMinY = miny;
    this.bInv = H > 0 ? nb / H : 0;
    const bandOf = (y: number) => {
      const b = Math.floor((y - miny) * this.bInv);
      return b < 0 ? 0 : b >= nb ? nb - 1 : b;
    };
    // every (edge, band its y-range meets), visited twice: once to count, once to fill
    const eachEdgeBand = (visit: (k: number, b: number) => void) => {
      for (let i = 0; i < nE; i++) {
        const k = edges[i]!;
        const y0 = xy[k + 1]!;
        const y1 = xy[k + 3]!;
        const b1 = bandOf(y0 < y1 ? y1 : y0);
        for (let b = bandOf(y0 < y1 ? y0 : y1); b <= b1; b++) visit(k, b);
      }
    };
    const off = new Int32Array(nb + 1);
    eachEdgeBand((_, b) => {
      off[b + 1] = off[b + 1]! + 1;
    });
    for (let b = 0; b < nb; b++) off[b + 1] = off[b + 1]! + off[b]!;
    const fill = off.slice(0, nb);
    const be = xy.length <= 0xffff ? new Uint16Array(off[nb]!) : new Int32Array(off[nb]!);
    eachEdgeBand((k, b) => {
      be[fill[b]!] = k;
      fill[b] = fill[b]! + 1;
    });
    this.bandOff = off;
    this.bandEdges = be;

    // ---- sub-grid with inside / outside / boundary cells
    const W = maxx - minx;
    if (nE >= GRID_MIN_EDGES && W > 0 && H > 0) {
      const C = Math.min(GRID_MAX_CELLS, nE * GRID_CELLS_PER_EDGE);
      const gnx = Math.max(1, Math.min(4096, Math.round(Math.sqrt((C * W) / H))));
      const gny = Math.max(1, Math.min(4096, Math.round(C / gnx)));
      this.gnx = gnx;
      this.gny = gny;
      this.gInvW = gnx / W;
      this.gInvH = gny / H;
      const cw = W / gnx;
      const ch = H / gny;
      const cells = new Uint8Array(gnx * gny);
      const colOf = (x: number) => {
        const c = Math.floor((x - minx) * this.gInvW);
        return c < 0 ? 0 : c >= gnx ? gnx - 1 : c;
      };
      const rowOf = (y: number) => {
        const r = Math.floor((y - miny) * this.gInvH);
        return r < 0 ? 0 : r >= gny ? gny - 1 : r;
      };
      // mark every cell an edge comes within CELL_EPS of (row by row clipping of the segment)
      for (let i = 0; i < nE; i++) {
        const k = edges[i]!;
        let x0 = xy[k]!,
          y0 = xy[k + 1]!,
          x1 = xy[k + 2]!,
          y1 = xy[k + 3]!;
        if (y0 > y1) {
          const tx = x0,
            ty = y0;
          x0 = x1;
          y0 = y1;
          x1 = tx;
          y1 = ty;
        }
        const r0 = rowOf(y0 - CELL_EPS);
        const r1 = rowOf(y1 + CELL_EPS);
        const exlo = Math.min(x0, x1) - CELL_EPS;
        const exhi = Math.max(x0, x1) + CELL_EPS;
        if (r0 === r1 || y1 - y0 <= 0) {
          const c0 = colOf(exlo),
            c1 = colOf(exhi);
          for (let r = r0; r <= r1; r++) for (let c = c0; c <= c1; c++) cells[r * gnx + c] = EDGE;
          continue;
        }
        const slope = (x1 - x0) / (y1 - y0);
        for (let r = r0; r <= r1; r++) {
          const ya = Math.max(y0, miny + r * ch - CELL_EPS);
          const yb = Math.min(y1, miny + (r + 1) * ch + CELL_EPS);
          let xa: number, xb: number;
          if (ya > yb) {
            xa = exlo;
            xb = exhi;
          } else {
            xa = x0 + (ya - y0) * slope;
            xb = x0 + (yb - y0) * slope;
            if (xa > xb) {
              const t = xa;
              xa = xb;
              xb = t;
            }
            xa = Math.max(xa, exlo + CELL_EPS) - CELL_EPS;
            xb = Math.min(xb, exhi - CELL_EPS) + CELL_EPS;
          }
          const c0 = colOf(xa),
            c1 = colOf(xb);
          const base = r * gnx;
          for (let c = c0; c <= c1; c++) cells[base + c] = EDGE;
        }
      }
      // inside / outside of the remaining cells: one scanline per row at the row's centre
      const xs: number[] = [];
      for (let r = 0; r < gny; r++) {
        const yc = miny + (r + 0.5) * ch;
        xs.length = 0;
        const b = bandOf(yc);
        for (let i = off[b]!; i < off[b + 1]!; i++) {
          const k = be[i]!;
          let ax = xy[k]!,
            ay = xy[k + 1]!,
            bx = xy[k + 2]!,
            by = xy[k + 3]!;
          if (ay > by) {
            const tx = ax,
              ty = ay;
            ax = bx;
            ay = by;
            bx = tx;
            by = ty;
          } else if (ay === by) continue;
          if (yc < ay || yc >= by) continue;
          xs.push(ax + ((yc - ay) * (bx - ax)) / (by - ay));
        }
        xs.sort((a, b) => a - b);
        let j = 0;
        const base = r * gnx;
        for (let c = 0; c < gnx; c++) {
          if (cells[base + c]! === EDGE) continue;
          const xc = minx + (c + 0.5) * cw;
          while (j < xs.length && xs[j]! <= xc) j++;
          cells[base + c] = ((xs.length - j) & 1) === 1 ? IN : OUT;
        }
      }
      this.cells = cells;
    }
  }

  get bandEntries(): number {
    if (!this.built) this.build();
    return this.bandEdges.length;
  }
  get gridCells(): number {
    if (!this.built) this.build();
    return this.cells ? this.cells.length : 0;
  }
  get bytes(): number {
    if (!this.built) this.build();
    return (
      this.xy.byteLength +
      this.bandOff.byteLength +
      this.bandEdges.byteLength +
      (this.cells ? this.cells.byteLength : 0)
    );
  }

  contains(px: number, py: number): boolean {
    if (px < this.minx || px > this.maxx || py < this.miny || py > this.maxy) return false;
    if (!this.built) this.build();
    const cells = this.cells;
    if (cells !== null) {
      let cx = Math.floor((px - this.minx) * this.gInvW);
      if (cx >= this.gnx) cx = this.gnx - 1;
      let cy = Math.floor((py - this.miny) * this.gInvH);
      if (cy >= this.gny) cy = this.gny - 1;
      const s = cells[cy * this.gnx + cx]!;
      if (s !== EDGE) return s === IN;
    }
    return this.exact(px, py);
  }

  /** The exact test of rule R2. */
  exact(px: number, py: number): boolean {
    if (!this.built) this.build();
    let b = Math.floor((py - this.bMinY) * this.bInv);
    if (b < 0) b = 0;
    else if (b >= this.nb) b = this.nb - 1;
    const xy = this.xy;
    const be = this.bandEdges;
    const end = this.bandOff[b + 1]!;
    let inside = false;
    for (let i = this.bandOff[b]!; i < end; i++) {
      const k = be[i]!;
      let ax = xy[k]!,
        ay = xy[k + 1]!,
        bx = xy[k + 2]!,
        by = xy[k + 3]!;
      if (ay > by) {
        const tx = ax,
          ty = ay;
        ax = bx;
        ay = by;
        bx = tx;
        by = ty;
      } else if (ay === by) {
        // horizontal edge: never crosses the ray; on it => inside
        if (py === ay && (ax <= bx ? px >= ax && px <= bx : px >= bx && px <= ax)) return true;
        continue;
      }
      if (py < ay || py > by) continue;
      if (py === by) {
        if (px === bx) return true; // upper vertex
        continue; // half-open: the upper endpoint does not count
      }
      const xint = ax + ((py - ay) * (bx - ax)) / (by - ay);
      if (xint === px) return true; // on the edge (includes the lower vertex)
      if (xint > px) inside = !inside;
    }
    return inside;
  }
}

/** Build one Poly from rings (closing any open ring), or null when it has no edge. */
export function buildPoly(feature: number, rings: Float64Array[]): Poly | null {
  let total = 0;
  let allClosed = true;
  let shared: ArrayBufferLike | null = rings.length > 0 ? rings[0]!.buffer : null;
  for (const r of rings) {
    const n = r.length >> 1;
    if (n === 0) continue;
    total += n;
    if (r[0]! !== r[2 * n - 2]! || r[1]! !== r[2 * n - 1]!) allClosed = false;
    if (r.buffer !== shared) shared = null;
  }
  if (total < 2) return null;
  // Reuse the decoder's shared buffer when the rings are closed and fill it exactly; else copy (closing rings).
  let xy: Float64Array;
  let ringStarts: number[] = [];
  let ringEnds: number[] = [];
  const first = rings[0]!;
  const whole = shared !== null ? new Float64Array(shared, first.byteOffset, total * 2) : null;
  let contiguous = allClosed && whole !== null && whole.byteLength === shared!.byteLength;
  if (contiguous) {
    let o = 0;
    for (const r of rings) {
      if (r.byteOffset !== first.byteOffset + o * 8) {
        contiguous = false;
        break;
      }
      o += r.length;
    }
  }
  if (contiguous) {
    xy = whole!;
    let o = 0;
    for (const r of rings) {
      ringStarts.push(o);
      o += r.length;
      ringEnds.push(o);
    }
  } else {
    let size = 0;
    for (const r of rings) {
      const n = r.length >> 1;
      if (n === 0) continue;
      size += r.length + (r[0]! !== r[2 * n - 2]! || r[1]! !== r[2 * n - 1]! ? 2 : 0);
    }
    xy = new Float64Array(size);
    let o = 0;
    ringStarts = [];
    ringEnds = [];
    for (const r of rings) {
      const n = r.length >> 1;
      if (n === 0) continue;
      ringStarts.push(o);
      xy.set(r, o);
      o += r.length;
      if (r[0]! !== r[2 * n - 2]! || r[1]! !== r[2 * n - 1]!) {
        xy[o++] = r[0]!;
        xy[o++] = r[1]!;
      }
      ringEnds.push(o);
    }
  }
  let nE = 0;
  for (let i = 0; i < ringStarts.length; i++) nE += Math.max(0, (ringEnds[i]! - ringStarts[i]!) / 2 - 1);
  if (nE === 0) return null;
  const edges = xy.length <= 0xffff ? new Uint16Array(nE) : new Int32Array(nE);
  let e = 0;
  let minx = Infinity,
    miny = Infinity,
    maxx = -Infinity,
    maxy = -Infinity;
  for (let i = 0; i < ringStarts.length; i++) {
    for (let k = ringStarts[i]!; k < ringEnds[i]!; k += 2) {
      const x = xy[k]!,
        y = xy[k + 1]!;
      if (!Number.isFinite(x) || !Number.isFinite(y)) throw new Error("non-finite coordinate in boundary geometry");
      if (x < minx) minx = x;
      if (x > maxx) maxx = x;
      if (y < miny) miny = y;
      if (y > maxy) maxy = y;
      if (k + 2 < ringEnds[i]!) edges[e++] = k;
    }
  }
  return new Poly(feature, xy, edges, minx, miny, maxx, maxy);
}
