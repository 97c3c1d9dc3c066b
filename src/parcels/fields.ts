// The county-data vocabulary: the ONE table of fields (spec part 4 `field`) and ops, with the store column, the
// kind of value and the words an answer uses. Which bounds apply where is decided here too (see boundsFor).
export const FIELDS = ["acres", "value", "sale_date", "sale_price", "year_built", "sqft"] as const;
export type Field = (typeof FIELDS)[number];
export const OPS = ["top", "bottom", "count", "avg", "median"] as const;
export type Op = (typeof OPS)[number];

interface FieldInfo {
  column: string;
  kind: "number" | "integer" | "date";
  noun: string;
  more: string;
  less: string;
  unit: string;
}

export const FIELD_INFO: Record<Field, FieldInfo> = {
  acres: {
    column: "acres",
    kind: "number",
    noun: "lot size (acres)",
    more: "the most acres",
    less: "the fewest acres",
    unit: "acres",
  },
  value: {
    column: "value",
    kind: "number",
    noun: "value",
    more: "the highest value",
    less: "the lowest value",
    unit: "USD",
  },
  sale_date: {
    column: "sale_date",
    kind: "date",
    noun: "last sale date",
    more: "the most recent sales",
    less: "the earliest sales",
    unit: "",
  },
  sale_price: {
    column: "sale_price",
    kind: "number",
    noun: "last sale price",
    more: "the highest sale prices",
    less: "the lowest sale prices",
    unit: "USD",
  },
  year_built: {
    column: "year_built",
    kind: "integer",
    noun: "year built",
    more: "the newest buildings",
    less: "the oldest buildings",
    unit: "",
  },
  sqft: {
    column: "sqft",
    kind: "number",
    noun: "building area (sq ft)",
    more: "the largest building areas",
    less: "the smallest building areas",
    unit: "sq ft",
  },
};

/** Bounds of a plan. min/max bound the plan's own field (never sale_date: dates take since/until);
 * since/until bound the last sale date, whatever the op and field. All bounds are inclusive. */
export interface Bounds {
  min?: number;
  max?: number;
  since?: string;
  until?: string;
}

export interface ParcelQuery {
  countyId: string;
  op: Op;
  field: Field;
  bounds: Bounds;
  limit: number;
  offset: number;
}

/** The rule of which bound applies to which op and field, as one sentence per case (README and errors). */
export function checkBounds(field: Field, b: Bounds): string | null {
  if (field === "sale_date" && (b.min !== undefined || b.max !== undefined)) {
    return "min and max bound numeric fields; for field=sale_date give since and until (dates).";
  }
  if (b.min !== undefined && b.max !== undefined && b.min > b.max) return "min is greater than max.";
  if (b.since !== undefined && b.until !== undefined && b.since > b.until) return "since is after until.";
  return null;
}

export const isRowOp = (op: Op) => op === "top" || op === "bottom";
