// Per-county, per-field count, total and median, computed when a county is loaded: unbounded count, avg and
// median are then one primary-key read at any size. Ranks and running sums per field serve bounded ones (sql.ts),
// date runs the median of a numeric field within since/until (date-runs.ts).
import type { Database } from "bun:sqlite";
import { FIELDS, FIELD_INFO } from "./fields";
import { buildDateRuns } from "./date-runs";
import { NUMERIC } from "./schema";
import { countOf, medianOf } from "./sql";

export function refreshStats(db: Database, countyId: string): void {
  db.run("DELETE FROM county_stats WHERE county_id = ?", [countyId]);
  const ins = db.prepare("INSERT INTO county_stats (county_id, field, n, total, median) VALUES (?, ?, ?, ?, ?)");
  for (const f of FIELDS) {
    const x = f === "sale_date" ? `julianday(${f})` : f;
    db.run(
      `UPDATE parcels SET r_${f} = w.r, c_${f} = w.c FROM (SELECT id, row_number() OVER o AS r, sum(${x}) OVER o AS c FROM parcels
      WHERE county_id = ? AND ${f} IS NOT NULL WINDOW o AS (ORDER BY ${f}, apn ROWS UNBOUNDED PRECEDING)) AS w WHERE parcels.id = w.id`,
      [countyId],
    );
    if (f !== "sale_date")
      db.run(
        `UPDATE parcels SET d_${f} = w.r, e_${f} = w.c FROM (SELECT id, row_number() OVER o AS r, sum(${f}) OVER o AS c FROM parcels
      WHERE county_id = ? AND ${f} IS NOT NULL AND sale_date IS NOT NULL WINDOW o AS (ORDER BY sale_date, apn ROWS UNBOUNDED PRECEDING)) AS w WHERE parcels.id = w.id`,
        [countyId],
      );
    const n = countOf(db, countyId, f, {});
    const c = FIELD_INFO[f].column;
    const total =
      f === "sale_date"
        ? (
            db
              .query(`SELECT sum(julianday(${c})) AS t FROM parcels WHERE county_id = ? AND ${c} IS NOT NULL`)
              .get(countyId) as { t: number | null }
          ).t
        : (
            db.query(`SELECT sum(${c}) AS t FROM parcels WHERE county_id = ? AND ${c} IS NOT NULL`).get(countyId) as {
              t: number | null;
            }
          ).t;
    const med = medianOf(db, countyId, f, {}, n);
    ins.run(countyId, f, n, total, med === null ? null : String(med));
  }
  buildDateRuns(db, countyId, NUMERIC);
}
