// Date runs: per county, numeric field and last-sale date, the field's values of the parcels sold that day, sorted,
// as one blob of float64s (written when a county is loaded, by refreshStats). The median of a numeric field within
// since/until (a bound on another field, so no rank of the field answers it) reads the runs of the dates in range
// (one row per distinct date, not one per parcel) and finds the middle value(s) of their union by binary searches,
// without merging: exact, with the same rule as sql.ts (the mean of the two middle values for an even count).
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
    const flush = () => {
      if (day !== null) ins.run(countyId, f, day, vals.length, new Uint8Array(Float64Array.from(vals).sort().buffer));
    };
    const q = db.query(`SELECT sale_date AS d, ${f} AS v FROM parcels INDEXED BY parcels_date_${f}
      WHERE county_id = ? AND sale_date IS NOT NULL AND ${f} IS NOT NULL ORDER BY sale_date`);
    for (const r of q.iterate(countyId) as Iterable<{ d: string; v: number }>) {
      if (r.d !== day) {
        flush();
        day = r.d;
        vals = [];
      }
      vals.push(r.v);
    }
    flush();
  }
}

const hasRuns = new WeakMap<Database, boolean>();

/** The median of a numeric field within since/until from the date runs; undefined when the store has no runs for
 * the county (a file written before they existed: the caller reads the index instead). `n` is the count the
 * ranks give; runs holding another count are not used. */
export function medianByDateRuns(
  db: Database,
  countyId: string,
  field: Field,
  b: Bounds,
  n: number,
): number | null | undefined {
  if (!hasRuns.has(db))
    hasRuns.set(db, !!db.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'date_runs'").get());
  if (!hasRuns.get(db)) return undefined;
  const cond =
    (b.since !== undefined ? " AND sale_date >= ?" : "") + (b.until !== undefined ? " AND sale_date <= ?" : "");
  const args = [
    countyId,
    field,
    ...(b.since !== undefined ? [b.since] : []),
    ...(b.until !== undefined ? [b.until] : []),
  ];
  const runs = db.query(`SELECT n, vals FROM date_runs WHERE county_id = ? AND field = ?${cond}`).values(...args) as [
    number,
    Uint8Array,
  ][];
  let total = 0;
  for (const [k] of runs) total += k;
  if (total !== n) return undefined;
  return middle(
    runs.map(([, b]) =>
      b.byteOffset % 8
        ? new Float64Array(b.slice().buffer)
        : new Float64Array(b.buffer, b.byteOffset, b.byteLength / 8),
    ),
  );
}

/** The median of the union of sorted runs: the middle value, or the mean of the two middle ones. */
export function middle(runs: Float64Array[]): number | null {
  let n = 0;
  for (const r of runs) n += r.length;
  if (n === 0) return null;
  const k = (n - 1) >> 1;
  return n % 2 ? kth(runs, k) : (kth(runs, k) + kth(runs, k + 1)) / 2;
}

/** The k-th smallest (from 0) of the union of sorted runs, without merging them: each round takes the weighted
 * median x of the runs' middle values, counts the values < x and <= x by binary search, and keeps one side (at
 * least a quarter of what is left goes each round) until the k-th is x. */
export function kth(runs: Float64Array[], k: number): number {
  const m = runs.length;
  let lo = new Int32Array(m),
    hi = Int32Array.from(runs, (r) => r.length);
  for (;;) {
    const mids: [number, number][] = [];
    let left = 0;
    for (let i = 0; i < m; i++)
      if (hi[i]! > lo[i]!) {
        mids.push([runs[i]![(lo[i]! + hi[i]!) >> 1]!, hi[i]! - lo[i]!]);
        left += hi[i]! - lo[i]!;
      }
    mids.sort((a, b) => a[0] - b[0]);
    let x = mids[0]![0];
    for (let i = 0, acc = 0; i < mids.length; i++)
      if ((acc += mids[i]![1]) * 2 >= left) {
        x = mids[i]![0];
        break;
      }
    const below = new Int32Array(m),
      upTo = new Int32Array(m);
    let lt = 0,
      le = 0;
    for (let i = 0; i < m; i++) {
      below[i] = bound(runs[i]!, x, lo[i]!, hi[i]!, false);
      upTo[i] = bound(runs[i]!, x, below[i]!, hi[i]!, true);
      lt += below[i]! - lo[i]!;
      le += upTo[i]! - lo[i]!;
    }
    if (k < lt) hi = below;
    else if (k < le) return x;
    else {
      k -= le;
      lo = upTo;
    }
  }
}

/** The first index in a[from, to) whose value is >= x (orEqual: > x), a sorted. */
function bound(a: Float64Array, x: number, from: number, to: number, orEqual: boolean): number {
  while (from < to) {
    const mid = (from + to) >> 1;
    if (a[mid]! < x || (orEqual && a[mid] === x)) from = mid + 1;
    else to = mid;
  }
  return from;
}
