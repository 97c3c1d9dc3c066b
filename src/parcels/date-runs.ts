// Date runs: per county, numeric field and last-sale date, the field's values of the parcels sold that day as one
// blob of float64s (written when a county is loaded, by refreshStats). The median of a numeric field within
// since/until (a bound on another field, so no rank of the field answers it) reads the runs of the dates in range
// (one row per distinct date, not one per parcel) into one typed array and selects the middle value(s) in O(n),
// no sort: exact, with the same rule as sql.ts (the mean of the two middle values for an even count).
// Blobs are in the machine's byte order (little-endian on every platform Bun builds for).
import type { Database } from "bun:sqlite";
import type { Bounds, Field } from "./fields";

export const DATE_RUNS_SCHEMA = `CREATE TABLE IF NOT EXISTS date_runs (
  county_id TEXT NOT NULL, field TEXT NOT NULL, sale_date TEXT NOT NULL, n INTEGER NOT NULL, vals BLOB NOT NULL,
  PRIMARY KEY (county_id, field, sale_date)) WITHOUT ROWID;`;

/** Write the county's runs for each numeric field (replacing earlier ones). */
export function buildDateRuns(db: Database, countyId: string, fields: readonly Field[]): void {
  db.run("DELETE FROM date_runs WHERE county_id = ?", [countyId]);
  const ins = db.prepare("INSERT INTO date_runs (county_id, field, sale_date, n, vals) VALUES (?, ?, ?, ?, ?)");
  for (const f of fields) {
    let day: string | null = null;
    let vals: number[] = [];
    const flush = () => { if (day !== null) ins.run(countyId, f, day, vals.length, new Uint8Array(new Float64Array(vals).buffer)); };
    const q = db.query(`SELECT sale_date AS d, ${f} AS v FROM parcels INDEXED BY parcels_date_${f}
      WHERE county_id = ? AND sale_date IS NOT NULL AND ${f} IS NOT NULL ORDER BY sale_date`);
    for (const r of q.iterate(countyId) as Iterable<{ d: string; v: number }>) {
      if (r.d !== day) { flush(); day = r.d; vals = []; }
      vals.push(r.v);
    }
    flush();
  }
}

const hasRuns = new WeakMap<Database, boolean>();

/** The median of a numeric field within since/until from the date runs; undefined when the store has no runs for
 * the county (a file written before they existed: the caller reads the index instead). `n` is the count the
 * ranks give; runs holding another count are not used. */
export function medianByDateRuns(db: Database, countyId: string, field: Field, b: Bounds, n: number): number | null | undefined {
  if (!hasRuns.has(db)) hasRuns.set(db, !!db.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'date_runs'").get());
  if (!hasRuns.get(db)) return undefined;
  const cond = (b.since !== undefined ? " AND sale_date >= ?" : "") + (b.until !== undefined ? " AND sale_date <= ?" : "");
  const args = [countyId, field, ...(b.since !== undefined ? [b.since] : []), ...(b.until !== undefined ? [b.until] : [])];
  const runs = db.query(`SELECT n, vals FROM date_runs WHERE county_id = ? AND field = ?${cond}`).values(...args) as [number, Uint8Array][];
  let total = 0;
  for (const [k] of runs) total += k;
  if (total !== n) return undefined;
  const a = new Float64Array(total);
  const bytes = new Uint8Array(a.buffer);
  let at = 0;
  for (const [k, blob] of runs) { bytes.set(blob, at * 8); at += k; }
  return middle(a);
}

/** The median of the values (reordered in place): the middle one, or the mean of the two middle ones. */
export function middle(a: Float64Array): number | null {
  const n = a.length;
  if (n === 0) return null;
  const k = (n - 1) >> 1;
  select(a, k);
  if (n % 2 === 1) return a[k]!;
  let next = a[k + 1]!;
  for (let i = k + 2; i < n; i++) if (a[i]! < next) next = a[i]!;
  return (a[k]! + next) / 2;
}

/** Wirth's selection (Hoare partitioning around a median of three): afterwards a[k] is the k-th smallest, every
 * element before it is <= it and every element after it >= it. */
export function select(a: Float64Array, k: number): void {
  let l = 0, r = a.length - 1;
  while (l < r) {
    const p = a[l]!, q = a[(l + r) >> 1]!, s = a[r]!;
    const x = p < q ? (q < s ? q : p < s ? s : p) : (p < s ? p : q < s ? s : q);
    let i = l, j = r;
    do {
      while (a[i]! < x) i++;
      while (x < a[j]!) j--;
      if (i <= j) { const t = a[i]!; a[i] = a[j]!; a[j] = t; i++; j--; }
    } while (i <= j);
    if (j < k) l = i;
    if (k < i) r = j;
  }
}
