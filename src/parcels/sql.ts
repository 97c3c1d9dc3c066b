// SQL of the parcel store for a plan: every op runs on the (county_id, field, apn) partial index of its field.
import type { Database } from "bun:sqlite";
import { FIELD_INFO, type Bounds, type Field } from "./fields";

export function whereOf(countyId: string, field: Field, b: Bounds): { sql: string; args: (string | number)[] } {
  const c = FIELD_INFO[field].column;
  const parts = [`county_id = ?`, `${c} IS NOT NULL`];
  const args: (string | number)[] = [countyId];
  if (b.min !== undefined) { parts.push(`${c} >= ?`); args.push(b.min); }
  if (b.max !== undefined) { parts.push(`${c} <= ?`); args.push(b.max); }
  if (b.since !== undefined) { parts.push(`sale_date >= ?`); args.push(b.since); }
  if (b.until !== undefined) { parts.push(`sale_date <= ?`); args.push(b.until); }
  return { sql: parts.join(" AND "), args };
}

export const hasBounds = (b: Bounds) => b.min !== undefined || b.max !== undefined || b.since !== undefined || b.until !== undefined;

export function countOf(db: Database, countyId: string, field: Field, b: Bounds): number {
  const w = whereOf(countyId, field, b);
  return (db.query(`SELECT count(*) AS n FROM parcels INDEXED BY parcels_${field} WHERE ${w.sql}`).get(...w.args) as { n: number }).n;
}

export function avgOf(db: Database, countyId: string, field: Field, b: Bounds): number | string | null {
  const w = whereOf(countyId, field, b);
  const c = FIELD_INFO[field].column;
  const expr = field === "sale_date" ? `date(avg(julianday(${c})))` : `avg(${c})`;
  return (db.query(`SELECT ${expr} AS v FROM parcels INDEXED BY parcels_${field} WHERE ${w.sql}`).get(...w.args) as { v: number | string | null }).v;
}

/** The median: the middle value (the mean of the two middle values for an even count of numbers; the earlier
 * of the two middle dates). */
export function medianOf(db: Database, countyId: string, field: Field, b: Bounds, n = countOf(db, countyId, field, b)): number | string | null {
  if (n === 0) return null;
  const w = whereOf(countyId, field, b);
  const c = FIELD_INFO[field].column;
  const at = db.query(`SELECT ${c} AS v FROM parcels INDEXED BY parcels_${field} WHERE ${w.sql} ORDER BY ${c}, apn LIMIT 2 OFFSET ?`);
  const got = at.all(...w.args, Math.floor((n - 1) / 2)) as { v: number | string }[];
  const lo = got[0]!.v;
  if (n % 2 === 1 || typeof lo === "string") return lo;
  return ((lo as number) + (got[1]!.v as number)) / 2;
}
