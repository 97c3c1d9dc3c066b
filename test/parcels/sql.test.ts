// The index-seek answers (ranks and running sums, by field and by sale date) equal a plain scan of the same rows.
import { expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { stagedParcelsFile } from "../helpers/parcels-file";
import { avgOf, countOf, medianOf } from "../../src/parcels/sql";
import { FIELDS, type Bounds } from "../../src/parcels/fields";

test("count, avg and median within bounds equal a scan, for every field of two counties", async () => {
  const db = new Database((await stagedParcelsFile()).path, { readonly: true });
  for (const county of ["county:53033", "county:39095"]) for (const f of FIELDS) {
    const vals = (db.query(`SELECT ${f} AS v FROM parcels NOT INDEXED WHERE county_id = ? AND ${f} IS NOT NULL ORDER BY ${f}`).all(county) as { v: any }[]).map((r) => r.v);
    const mid = vals[Math.floor(vals.length / 3)];
    const cases: Bounds[] = f === "sale_date"
      ? [{ since: mid }, { until: mid }, { since: vals[10], until: mid }, { since: "2100-01-01" }]
      : [{ min: mid }, { max: mid }, { min: vals[10], max: mid }, { since: "2014-09-01" }, { until: "1995-06-30" }, { since: "1996-01-01", until: "2014-12-31" }, { min: mid, since: "1996-01-01" }, { min: 1e12 }];
    for (const b of cases) {
      const w: string[] = [`county_id = ?`, `${f} IS NOT NULL`];
      const args: any[] = [county];
      if (b.min !== undefined) { w.push(`${f} >= ?`); args.push(b.min); }
      if (b.max !== undefined) { w.push(`${f} <= ?`); args.push(b.max); }
      if (b.since !== undefined) { w.push(`sale_date >= ?`); args.push(b.since); }
      if (b.until !== undefined) { w.push(`sale_date <= ?`); args.push(b.until); }
      const rows = (db.query(`SELECT ${f === "sale_date" ? `julianday(${f})` : f} AS x, ${f} AS v FROM parcels NOT INDEXED WHERE ${w.join(" AND ")} ORDER BY ${f}, apn`).all(...args) as { x: number; v: any }[]);
      const label = `${county} ${f} ${JSON.stringify(b)}`;
      expect([label, countOf(db, county, f, b)]).toEqual([label, rows.length]);
      const avg = avgOf(db, county, f, b);
      if (!rows.length) { expect(avg).toBeNull(); expect(medianOf(db, county, f, b)).toBeNull(); continue; }
      const mean = rows.reduce((a, r) => a + r.x, 0) / rows.length;
      if (f === "sale_date") expect(typeof avg).toBe("string");
      else expect(avg as number).toBeCloseTo(mean, 4);
      const n = rows.length, lo = rows[Math.floor((n - 1) / 2)]!.v;
      const med = n % 2 || typeof lo === "string" ? lo : (lo + rows[n / 2]!.v) / 2;
      expect([label, medianOf(db, county, f, b)]).toEqual([label, med]);
    }
  }
  db.close();
}, 120_000);
