// Plain words for a plan and its result: the `answer` sentence says how the question was read.
import { FIELD_INFO, FIELDS, type Bounds, type Field, type ParcelQuery } from "./fields";

const int = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
const dec = new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 });

export function fmt(field: Field, v: number | string | null): string {
  if (v === null) return "unknown";
  if (typeof v === "string") return v;
  if (field === "value" || field === "sale_price") return `$${int.format(v)}`;
  if (field === "acres") return `${dec.format(v)} acres`;
  if (field === "sqft") return `${int.format(v)} sq ft`;
  if (field === "year_built") return Number.isInteger(v) ? String(v) : dec.format(v);
  return String(v);
}

function boundsText(field: Field, b: Bounds): string {
  const bits: string[] = [];
  const f = FIELD_INFO[field];
  if (b.min !== undefined && b.max !== undefined)
    bits.push(`with a ${f.noun} from ${fmt(field, b.min)} to ${fmt(field, b.max)}`);
  else if (b.min !== undefined) bits.push(`with a ${f.noun} of at least ${fmt(field, b.min)}`);
  else if (b.max !== undefined) bits.push(`with a ${f.noun} of at most ${fmt(field, b.max)}`);
  if (b.since && b.until) bits.push(`last sold from ${b.since} to ${b.until}`);
  else if (b.since) bits.push(`last sold on or after ${b.since}`);
  else if (b.until) bits.push(`last sold on or before ${b.until}`);
  return bits.length ? ` ${bits.join(" and ")}` : "";
}

/** "the 10 parcels with the most acres in King County, WA (county:53033)" */
export function describePlan(p: ParcelQuery, county: string): string {
  const f = FIELD_INFO[p.field];
  const where = ` in ${county}`;
  const b = boundsText(p.field, p.bounds);
  switch (p.op) {
    case "top":
    case "bottom": {
      const which = p.op === "top" ? f.more : f.less;
      const from = p.offset ? ` starting after the first ${p.offset}` : "";
      return `the ${p.limit} parcels with ${which}${where}${b}${from}`;
    }
    case "count":
      return `the number of parcels with a recorded ${f.noun}${where}${b}`;
    case "avg":
      return `the average ${f.noun} of parcels${where}${b}`;
    case "median":
      return `the median ${f.noun} of parcels${where}${b}`;
  }
}

export function resultText(p: ParcelQuery, n: number, value: number | string | null, rows: number): string {
  if (p.op === "top" || p.op === "bottom")
    return rows
      ? `${rows} parcel${rows === 1 ? "" : "s"} listed, ranks ${p.offset + 1} to ${p.offset + rows}.`
      : "No parcel matches.";
  if (p.op === "count") return `${int.format(n)} parcel${n === 1 ? "" : "s"}.`;
  if (n === 0) return "No parcel matches, so there is no value.";
  return `${p.op === "avg" ? "Average" : "Median"}: ${fmt(p.field, value)} over ${int.format(n)} parcels.`;
}

export const CAN_ANSWER = `I can answer, for one county: the biggest or smallest parcels (acres), the highest or lowest values or sale prices, the most recent or earliest sales, the oldest or newest buildings, the largest building areas; how many parcels are over or under a size, value or price; averages and medians of these (fields: ${FIELDS.join(", ")}). Name the county ("in King County, WA" or county:53033). Owner names are never available.`;
