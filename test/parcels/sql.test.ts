// The index-seek answers (ranks and running sums, by field and by sale date) equal a plain scan of the same rows.
import { expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { stagedParcelsFile } from "../helpers/parcels-file";
import { copyFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { avgOf, countOf, medianOf } from "../../src/parcels/sql";
import { kth, medianByDateRuns, middle } from "../../src/parcels/date-runs";
import { NUMERIC } from "../../src/parcels/schema";
import { FIELDS, type Bounds } from "../../src/parcels/fields";

test("count, avg and median within bounds equal a scan, for every field of two counties", async () => {
  const db = new Database((await stagedParcelsFile()).path, { readonly: true });
  for (const county of ["county:53033", "county:39095"])
    for (const f of FIELDS) {
      const vals = (
        db
          .query(`SELECT ${f} AS v FROM parcels NOT INDEXED WHERE county_id = ? AND ${f} IS NOT NULL ORDER BY ${f}`)
          .all(county) as { v: any }[]
      ).map((r) => r.v);
      const mid = vals[Math.floor(vals.length / 3)];
      const cases: Bounds[] =
        f === "sale_date"
          ? [{ since: mid }, { until: mid }, { since: vals[10], until: mid }, { since: "2100-01-01" }]
          : [
              { min: mid },
              { max: mid },
              { min: vals[10], max: mid },
              { since: "2014-09-01" },
              { until: "1995-06-30" },
              { since: "1996-01-01", until: "2014-12-31" },
              { min: mid, since: "1996-01-01" },
              { min: 1e12 },
            ];
      for (const b of cases) {
        const w: string[] = [`county_id = ?`, `${f} IS NOT NULL`];
        const args: any[] = [county];
        if (b.min !== undefined) {
          w.push(`${f} >= ?`);
          args.push(b.min);
        }
        if (b.max !== undefined) {
          w.push(`${f} <= ?`);
          args.push(b.max);
        }
        if (b.since !== undefined) {
          w.push(`sale_date >= ?`);
          args.push(b.since);
        }
        if (b.until !== undefined) {
          w.push(`sale_date <= ?`);
          args.push(b.until);
        }
        const rows = db
          .query(
            `SELECT ${f === "sale_date" ? `julianday(${f})` : f} AS x, ${f} AS v FROM parcels NOT INDEXED WHERE ${w.join(" AND ")} ORDER BY ${f}, apn`,
          )
          .all(...args) as { x: number; v: any }[];
        const label = `${county} ${f} ${JSON.stringify(b)}`;
        expect([label, countOf(db, county, f, b)]).toEqual([label, rows.length]);
        const avg = avgOf(db, county, f, b);
        if (!rows.length) {
          expect(avg).toBeNull();
          expect(medianOf(db, county, f, b)).toBeNull();
          continue;
        }
        const mean = rows.reduce((a, r) => a + r.x, 0) / rows.length;
        if (f === "sale_date") expect(typeof avg).toBe("string");
        else expect(avg as number).toBeCloseTo(mean, 4);
        const n = rows.length,
          lo = rows[Math.floor((n - 1) / 2)]!.v;
        const med = n % 2 || typeof lo === "string" ? lo : (lo + rows[n / 2]!.v) / 2;
        expect([label, medianOf(db, county, f, b)]).toEqual([label, med]);
      }
    }
  db.close();
}, 120_000);

test("the median of each numeric field within since/until (date runs) equals a scan: odd and even counts, empty ranges", async () => {
  const db = new Database((await stagedParcelsFile()).path, { readonly: true });
  const seen = { odd: 0, even: 0, empty: 0 };
  for (const county of ["county:53033", "county:39095"])
    for (const f of NUMERIC) {
      const all = db
        .query(
          `SELECT sale_date AS d, ${f} AS v FROM parcels NOT INDEXED WHERE county_id = ? AND ${f} IS NOT NULL AND sale_date IS NOT NULL`,
        )
        .all(county) as { d: string; v: number }[];
      const days = [...new Set(all.map((r) => r.d))].sort();
      const at = (q: number) => days[Math.min(days.length - 1, Math.floor(q * days.length))]!;
      const cases: Bounds[] = [
        { since: at(0.25) },
        { until: at(0.4) },
        { since: "1900-01-01" },
        { until: "2100-01-01" },
        { since: "2100-01-01" },
        { until: "1800-01-01" },
        { since: `${days[0]!}T00:00`, until: `${days[0]!}T00:01` },
      ]; // no date between: empty
      for (let i = 0; i < days.length; i += Math.max(1, Math.floor(days.length / 40)))
        cases.push(
          { since: days[i], until: days[Math.min(days.length - 1, i + (i % 7))] },
          { since: days[i], until: days[i] },
        );
      for (const b of cases) {
        const vs = all
          .filter((r) => (b.since === undefined || r.d >= b.since) && (b.until === undefined || r.d <= b.until))
          .map((r) => r.v)
          .sort((x, y) => x - y);
        const n = vs.length,
          want = n === 0 ? null : n % 2 ? vs[(n - 1) / 2]! : (vs[n / 2 - 1]! + vs[n / 2]!) / 2;
        const label = `${county} ${f} ${JSON.stringify(b)} n=${n}`;
        expect([label, countOf(db, county, f, b)]).toEqual([label, n]);
        expect([label, medianOf(db, county, f, b)]).toEqual([label, want]);
        if (n) expect([label, medianByDateRuns(db, county, f, b, n)]).toEqual([label, want]); // the runs answered, not the index
        seen[n === 0 ? "empty" : n % 2 ? "odd" : "even"]++;
      }
    }
  expect(seen.odd).toBeGreaterThan(20);
  expect(seen.even).toBeGreaterThan(20);
  expect(seen.empty).toBeGreaterThanOrEqual(2 * NUMERIC.length * 3);
  db.close();
}, 60_000);

test("a store without date runs (written before them) or with runs of another count answers from the index", async () => {
  const path = join(mkdtempSync(join(tmpdir(), "parcels-runs-")), "p.sqlite");
  copyFileSync((await stagedParcelsFile()).path, path);
  const b: Bounds = { since: "2014-09-01", until: "2015-01-31" };
  const want = medianOf(
    new Database((await stagedParcelsFile()).path, { readonly: true }),
    "county:53033",
    "sale_price",
    b,
  );
  let db = new Database(path);
  db.run(
    "DELETE FROM date_runs WHERE county_id = 'county:53033' AND field = 'sale_price' AND sale_date = '2014-10-01'",
  );
  const n = countOf(db, "county:53033", "sale_price", b);
  expect(medianByDateRuns(db, "county:53033", "sale_price", b, n)).toBeUndefined();
  expect(medianOf(db, "county:53033", "sale_price", b)).toBe(want);
  db.run("DROP TABLE date_runs");
  db.close();
  db = new Database(path, { readonly: true });
  expect(medianByDateRuns(db, "county:53033", "sale_price", b, n)).toBeUndefined();
  expect(medianOf(db, "county:53033", "sale_price", b)).toBe(want);
  db.close();
});

test("middle: the median of sorted runs by binary search equals the median by sort (ties, one-value runs, empty runs)", () => {
  let s = 7;
  const rnd = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
  const inputs: number[][] = [[], [5], [2, 1], [3, 3, 3, 3], [1, 2, 3, 4, 5, 6], [6, 5, 4, 3, 2, 1, 0]];
  for (let t = 0; t < 300; t++) {
    const n = 1 + Math.floor(rnd() * 400),
      spread = [2, 10, 1e6][t % 3]!;
    inputs.push(Array.from({ length: n }, () => Math.floor(rnd() * spread) + (t % 2 ? 0.5 : 0)));
  }
  for (const a of inputs)
    for (const parts of [1, 3, 40]) {
      const runs: number[][] = Array.from({ length: parts }, () => []); // some runs stay empty
      for (const v of a) runs[Math.floor(rnd() * parts)]!.push(v);
      const sorted = [...a].sort((x, y) => x - y),
        n = a.length;
      const want = n === 0 ? null : n % 2 ? sorted[(n - 1) / 2]! : (sorted[n / 2 - 1]! + sorted[n / 2]!) / 2;
      expect([a, middle(runs.map((r) => Float64Array.from(r).sort()))]).toEqual([a, want]);
      for (const k of [0, n - 1, n >> 1])
        if (n)
          expect(
            kth(
              runs.map((r) => Float64Array.from(r).sort()),
              k,
            ),
          ).toBe(sorted[k]!);
    }
});
