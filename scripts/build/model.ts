// The in-memory jurisdiction record (one row of the jurisdictions table plus its GeoJSON geometry).
import type { Geometry } from "./geom";
import type { JurisdictionRow } from "../../src/directory/rows";

/** A jurisdictions-table row (src/directory/rows.ts) as the builder holds it, every column set. */
export interface JRow extends JurisdictionRow {
  funcstat: string | null;
  boundary_source: string | null;
  boundary_precision: string;
  boundary_rank: number;
  geom: Geometry | null;
  /** geometry made of several parts that must be dissolved (ST_UnaryUnion) after insert */
  dissolve?: boolean;
}

export const PRECISION_RANK: Record<string, number> = { full: 3, simplified_20m: 2, "1:10m": 1, none: 0 };

export function newRow(p: Partial<JRow> & Pick<JRow, "jurisdiction_id" | "type" | "name" | "source_id">): JRow {
  return {
    legal_type: null,
    state: null,
    state_fips: null,
    county_id: null,
    ocd_id: null,
    tiger_vintage: null,
    incorporated: null,
    funcstat: null,
    boundary_source: null,
    boundary_precision: "none",
    boundary_rank: 0,
    documented: 0,
    geom: null,
    ...p,
  };
}

/** Give the row this boundary when it is more precise than the one it holds. Returns true when taken. */
export function offerBoundary(
  r: JRow,
  geom: Geometry | null,
  source: string,
  precision: string,
  dissolve = false,
  preferOnTie = false,
): boolean {
  if (!geom) return false;
  const rank = PRECISION_RANK[precision] ?? 0;
  if (rank < r.boundary_rank || (rank === r.boundary_rank && !preferOnTie)) return false;
  r.geom = geom;
  r.boundary_source = source;
  r.boundary_precision = precision;
  r.boundary_rank = rank;
  r.dissolve = dissolve;
  return true;
}

export class Stats {
  readonly layers: { layer: string; read: number; kept: number; rejected: Record<string, number> }[] = [];
  readonly notes: string[] = [];
  constructor(private log: (s: string) => void) {}
  note(line: string) {
    this.notes.push(line);
    this.log(`  ${line}`);
  }
  layer(layer: string) {
    const e = { layer, read: 0, kept: 0, rejected: {} as Record<string, number> };
    this.layers.push(e);
    return {
      read: (n = 1) => {
        e.read += n;
      },
      kept: (n = 1) => {
        e.kept += n;
      },
      reject: (why: string, n = 1) => {
        e.rejected[why] = (e.rejected[why] ?? 0) + n;
      },
      done: () => {
        const rej = Object.entries(e.rejected)
          .map(([k, v]) => `${v} ${k}`)
          .join("; ");
        this.log(`  ${layer}: read ${e.read}, kept ${e.kept}${rej ? `, rejected ${rej}` : ""}`);
      },
    };
  }
}
