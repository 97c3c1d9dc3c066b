// Boundaries decoded from the data file on first use, under one memory budget (clock eviction): random points over
// the whole country cannot make every polygon resident, and a dropped shape is decoded again when needed.
import { buildPoly, type Poly } from "./polygon";

/** A feature whose geometry is decoded from the data file on the first point test inside its bounding box
 * (most places are never asked about: their coordinates then never take memory or start time). */
export class LazyShape {
  private loaded: Poly[] | null = null;
  /** bytes charged to the budget while loaded */
  charged = 0;
  /** set by every point test inside the box; cleared by the budget's clock hand (second chance) */
  used = false;
  constructor(
    readonly feature: number,
    readonly minx: number,
    readonly miny: number,
    readonly maxx: number,
    readonly maxy: number,
    private readonly load: (feature: number) => Float64Array[][],
    private readonly budget: DecodedBudget,
  ) {}

  parts(): Poly[] {
    let parts = this.loaded;
    if (!parts) {
      parts = [];
      for (const rings of this.load(this.feature)) {
        const p = buildPoly(this.feature, rings);
        if (p) parts.push(p);
      }
      this.loaded = parts;
      this.budget.admit(this, parts);
    }
    return parts;
  }

  /** Drop the decoded polygons (they are decoded again on the next test that needs them): answers never change. */
  unload(): number {
    this.loaded = null;
    const c = this.charged;
    this.charged = 0;
    return c;
  }

  contains(px: number, py: number): boolean {
    if (px < this.minx || px > this.maxx || py < this.miny || py > this.maxy) return false;
    this.used = true;
    for (const p of this.parts()) if (p.contains(px, py)) return true;
    return false;
  }
}

/** A bound on the memory of lazily decoded polygons: past `limit` bytes (coordinates, charged at 1.5 x to cover
 * the bands and sub-grid built on them), the least recently tested shapes are dropped, by a clock (second chance)
 * sweep, so that random points over the whole country cannot make every boundary resident. */
export class DecodedBudget {
  private readonly ring: LazyShape[] = [];
  private hand = 0;
  bytes = 0;
  evictions = 0;
  constructor(readonly limit: number) {}

  admit(s: LazyShape, parts: Poly[]): void {
    let b = 0;
    for (const p of parts) b += p.xy.byteLength * 1.5;
    s.charged = b;
    this.bytes += b;
    this.ring.push(s);
    while (this.bytes > this.limit && this.ring.length > 1) this.evictOne(s);
  }

  private evictOne(keep: LazyShape): void {
    for (;;) {
      if (this.hand >= this.ring.length) this.hand = 0;
      const s = this.ring[this.hand]!;
      if (s === keep || s.used) {
        s.used = false;
        this.hand++;
        continue;
      }
      this.bytes -= s.unload();
      this.evictions++;
      this.ring[this.hand] = this.ring[this.ring.length - 1]!;
      this.ring.pop();
      return;
    }
  }
}

export type Shape = Poly | LazyShape;
export const partsOf = (s: Shape): Poly[] => (s instanceof LazyShape ? s.parts() : [s]);
