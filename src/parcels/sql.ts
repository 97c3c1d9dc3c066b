// SQL of the parcel store for a plan: every op runs on the (county_id, field, apn, rank, running sum) partial
// index of its field. Bounds on the field itself (min/max; since/until for sale_date) take index seeks only:
// count = rank difference, sum = running-sum difference, median = a seek by rank. Bounds on another field
// (since/until with a numeric field) use the field's rank and running sum in sale-date order (two seeks) for
// count and avg, the date runs (date-runs.ts) for a median there; min/max mixed with dates read the index range.
import type { Database } from "bun:sqlite";
import { medianByDateRuns } from "./date-runs";
import { FIELD_INFO, type Bounds, type Field } from "./fields";

export function whereOf(countyId: string, field: Field, b: Bounds): { sql: string; args: (string | number)[] } {
  const c = FIELD_INFO[field].column;
  const parts = [`county_id = ?`, `${c} IS NOT NULL`];
  const args: (string | number)[] = [countyId];
  if (b.min !== undefined) {
    parts.push(`${c} >= ?`);
    args.push(b.min);
  }
  if (b.max !== undefined) {
    parts.push(`${c} <= ?`);
    args.push(b.max);
  }
  if (b.since !== undefined) {
    parts.push(`sale_date >= ?`);
    args.push(b.since);
  }
  if (b.until !== undefined) {
    parts.push(`sale_date <= ?`);
    args.push(b.until);
  }
  return { sql: parts.join(" AND "), args };
}

export const hasBounds = (b: Bounds) =>
  b.min !== undefined || b.max !== undefined || b.since !== undefined || b.until !== undefined;
/** Every bound is on the field itself (so ranks and running sums answer). */
const onField = (f: Field, b: Bounds) =>
  f === "sale_date" ? b.min === undefined && b.max === undefined : b.since === undefined && b.until === undefined;

interface Edge {
  r: number;
  c: number;
  x: number;
}
/** The first (lo) or last (hi) parcel within the bounds in (field, apn) order: its rank, running sum and value. */
function edge(db: Database, countyId: string, f: Field, b: Bounds, side: "lo" | "hi"): Edge | null {
  const lowB: Bounds = f === "sale_date" ? { since: b.since } : { min: b.min };
  const highB: Bounds = f === "sale_date" ? { until: b.until } : { max: b.max };
  const w = whereOf(countyId, f, side === "lo" ? lowB : highB);
  const x = f === "sale_date" ? `julianday(${f})` : f;
  const dir = side === "lo" ? "ASC" : "DESC";
  return db
    .query(
      `SELECT r_${f} AS r, c_${f} AS c, ${x} AS x FROM parcels INDEXED BY parcels_${f} WHERE ${w.sql} ORDER BY ${f} ${dir}, apn ${dir} LIMIT 1`,
    )
    .get(...w.args) as Edge | null;
}

function span(db: Database, countyId: string, f: Field, b: Bounds): { lo: Edge; hi: Edge; n: number } | null {
  const lo = edge(db, countyId, f, b, "lo"),
    hi = edge(db, countyId, f, b, "hi");
  if (!lo || !hi || lo.r > hi.r) return null;
  return { lo, hi, n: hi.r - lo.r + 1 };
}

/** since/until only, with a numeric field: the first/last parcel in (sale_date, apn) order, by its date rank. */
const datesOnly = (f: Field, b: Bounds) =>
  f !== "sale_date" && b.min === undefined && b.max === undefined && (b.since !== undefined || b.until !== undefined);
function dateEdge(db: Database, countyId: string, f: Field, b: Bounds, side: "lo" | "hi"): Edge | null {
  const dir = side === "lo" ? "ASC" : "DESC";
  const cond =
    side === "lo"
      ? b.since !== undefined
        ? " AND sale_date >= ?"
        : ""
      : b.until !== undefined
        ? " AND sale_date <= ?"
        : "";
  const args: (string | number)[] = [
    countyId,
    ...(side === "lo" ? (b.since !== undefined ? [b.since] : []) : b.until !== undefined ? [b.until] : []),
  ];
  return db
    .query(
      `SELECT d_${f} AS r, e_${f} AS c, ${f} AS x FROM parcels INDEXED BY parcels_date_${f} WHERE county_id = ? AND sale_date IS NOT NULL AND ${f} IS NOT NULL${cond}
    ORDER BY sale_date ${dir}, apn ${dir} LIMIT 1`,
    )
    .get(...args) as Edge | null;
}
function dateSpan(db: Database, countyId: string, f: Field, b: Bounds): { lo: Edge; hi: Edge; n: number } | null {
  const lo = dateEdge(db, countyId, f, b, "lo"),
    hi = dateEdge(db, countyId, f, b, "hi");
  if (!lo || !hi || lo.r > hi.r) return null;
  return { lo, hi, n: hi.r - lo.r + 1 };
}

export function countOf(db: Database, countyId: string, field: Field, b: Bounds): number {
  if (onField(field, b) && hasBounds(b)) return span(db, countyId, field, b)?.n ?? 0;
  if (datesOnly(field, b)) return dateSpan(db, countyId, field, b)?.n ?? 0;
  const w = whereOf(countyId, field, b);
  const byDate = field !== "sale_date" && (b.since !== undefined || b.until !== undefined);
  const sql = byDate
    ? `FROM parcels INDEXED BY parcels_date_${field} WHERE ${w.sql} AND sale_date IS NOT NULL`
    : `FROM parcels INDEXED BY parcels_${field} WHERE ${w.sql}`;
  return (db.query(`SELECT count(*) AS n ${sql}`).get(...w.args) as { n: number }).n;
}

export function avgOf(db: Database, countyId: string, field: Field, b: Bounds): number | string | null {
  const c = FIELD_INFO[field].column;
  if (onField(field, b)) {
    const s = span(db, countyId, field, b);
    if (!s) return null;
    const mean = (s.hi.c - s.lo.c + s.lo.x) / s.n;
    return field === "sale_date" ? (db.query("SELECT date(?) AS d").get(mean) as { d: string }).d : mean;
  }
  if (datesOnly(field, b)) {
    const s = dateSpan(db, countyId, field, b);
    return s ? (s.hi.c - s.lo.c + s.lo.x) / s.n : null;
  }
  const w = whereOf(countyId, field, b);
  const expr = field === "sale_date" ? `date(avg(julianday(${c})))` : `avg(${c})`;
  return (
    db
      .query(
        `SELECT ${expr} AS v FROM parcels INDEXED BY parcels_date_${field} WHERE ${w.sql} AND sale_date IS NOT NULL`,
      )
      .get(...w.args) as { v: number | string | null }
  ).v;
}

/** The median: the middle value (the mean of the two middle values for an even count of numbers; the earlier
 * of the two middle dates). */
export function medianOf(
  db: Database,
  countyId: string,
  field: Field,
  b: Bounds,
  n = countOf(db, countyId, field, b),
): number | string | null {
  if (n === 0) return null;
  if (datesOnly(field, b)) {
    const v = medianByDateRuns(db, countyId, field, b, n);
    if (v !== undefined) return v;
  }
  const c = FIELD_INFO[field].column;
  let got: { v: number | string }[];
  const s = onField(field, b) ? span(db, countyId, field, b) : null;
  if (s) {
    const t = s.lo.r + Math.floor((n - 1) / 2);
    got = db
      .query(
        `SELECT ${c} AS v FROM parcels INDEXED BY parcels_${field}_rank WHERE county_id = ? AND r_${field} IN (?, ?) ORDER BY r_${field}`,
      )
      .all(countyId, t, t + 1) as { v: number | string }[];
  } else {
    const w = whereOf(countyId, field, b);
    got = db
      .query(
        `SELECT ${c} AS v FROM parcels INDEXED BY parcels_${field} WHERE ${w.sql} ORDER BY ${c}, apn LIMIT 2 OFFSET ?`,
      )
      .all(...w.args, Math.floor((n - 1) / 2)) as { v: number | string }[];
  }
  const lo = got[0]!.v;
  if (n % 2 === 1 || typeof lo === "string") return lo;
  return ((lo as number) + (got[1]!.v as number)) / 2;
}
