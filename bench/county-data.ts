// bench/county-data.ts: a SYNTHETIC 1,000,000-parcel county (county:99001, labelled synthetic in its source)
// drawn from the King County sales file's distributions (each field sampled from its column, points jittered
// within King County's extent), then the median time of each op over each field, unbounded and bounded, and the
// ratio to a full scan of the same table (the same aggregate with the indexes bypassed) in the same run.
//   bun bench/county-data.ts [parcels] [runs] [King County CSV] [reuse: a store this script built before] [--only op,op]
// (--only: time those ops alone; a reused store written before date runs existed gets them first.)
//   bun bench/county-data.ts --cambridge [runs]: the same table over the REAL City of Cambridge FY2014 roll
// (../shared/data/cambridge-ma, loaded with its shipped mapping), then point lookups per second: the parcel whose
// polygon holds the point against the nearest-point path (the same parcels with their shapes dropped), same points.
import { openForBulkLoad } from "./bulk-store";
import { copyFileSync, existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { loadParcels } from "../src/parcels/load";
import { parseCsv } from "../scripts/build/csv";
import { NUMERIC, openForWrite } from "../src/parcels/schema";
import { buildDateRuns } from "../src/parcels/date-runs";
import { refreshStats } from "../src/parcels/stats";
import { SqliteParcelSource } from "../src/parcels/sqlite-source";
import { FIELDS, OPS, FIELD_INFO, type Field, type Op, type ParcelQuery, type Bounds } from "../src/parcels/fields";

const CAMBRIDGE = process.argv.includes("--cambridge");
const onlyAt = process.argv.indexOf("--only");
const ONLY = onlyAt > 0 ? process.argv[onlyAt + 1]!.split(",") : null;
const argv = (onlyAt > 0 ? process.argv.filter((_, i) => i !== onlyAt && i !== onlyAt + 1) : process.argv).filter(
  (a) => a !== "--cambridge",
);
const N = CAMBRIDGE ? 0 : Number(argv[2] ?? 1_000_000);
const RUNS = Number((CAMBRIDGE ? argv[2] : argv[3]) ?? 9);
const csvPath = argv[4] || join(import.meta.dir, "../../shared/data/parcels/king_county_wa_house_sales_2014_2015.csv");
const COUNTY = CAMBRIDGE ? "county:25017" : "county:99001";
/** The date bounds: within the file's sale dates. */
const [SINCE, UNTIL] = CAMBRIDGE ? ["2010-01-01", "2012-06-30"] : ["2014-08-01", "2015-02-28"];
const SHARED = join(import.meta.dir, "../../shared/data");

let s = 20261122;
const rnd = () => {
  s = (s + 0x6d2b79f5) | 0;
  let t = Math.imul(s ^ (s >>> 15), 1 | s);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const pick = <T>(a: T[]) => a[Math.floor(rnd() * a.length)]!;

const king = CAMBRIDGE ? [] : parseCsv(readFileSync(csvPath, "utf8"));
const col = (k: string) => king.map((r) => Number(r[k])).filter((v) => Number.isFinite(v) && v > 0);
const lots = col("sqft_lot"),
  prices = col("price"),
  years = col("yr_built"),
  living = col("sqft_living"),
  lats = col("lat"),
  lons = king.map((r) => Number(r.long));
const dates = king.map((r) => `${r.date.slice(0, 4)}-${r.date.slice(4, 6)}-${r.date.slice(6, 8)}`);

const reuse = !CAMBRIDGE && argv[5] && existsSync(argv[5]) ? argv[5] : null;
const path = reuse ?? join(mkdtempSync(join(tmpdir(), "bench-parcels-")), "parcels.sqlite");
let t0 = performance.now();
if (CAMBRIDGE)
  await loadParcels({
    county: COUNTY,
    mappingFile: join(import.meta.dir, "../data/parcels/cambridge-ma-25017.yaml"),
    input: join(SHARED, "cambridge-ma/assessing_ParcelsFY2014.topojson"),
    store: path,
    progress: false,
    log: () => {},
  });
else if (!reuse) build();
else {
  const { db } = openForWrite(reuse); // a store from before date runs: add them (the schema creates the table)
  if (!db.query("SELECT 1 FROM date_runs LIMIT 1").get()) db.transaction(() => buildDateRuns(db, COUNTY, NUMERIC))();
  db.close();
}
function build() {
  const { db, rebuildIndexes } = openForBulkLoad(path);
  const ins = db.prepare(
    "INSERT INTO parcels (county_id, apn, acres, value, sale_date, sale_price, year_built, sqft, lat, lon) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  const rt = db.prepare("INSERT INTO parcels_rtree (id, minx, maxx, miny, maxy) VALUES (?, ?, ?, ?, ?)");
  db.transaction(() => {
    for (let i = 1; i <= N; i++) {
      const price = pick(prices);
      // value: no value in the King file; the synthetic one is the sampled sale price times 0.8–1.1
      const lat = pick(lats) + (rnd() - 0.5) * 0.002,
        lon = pick(lons) + (rnd() - 0.5) * 0.002;
      ins.run(
        COUNTY,
        `SYN${String(i).padStart(7, "0")}`,
        Math.round((pick(lots) / 43560) * 1e4) / 1e4,
        Math.round(price * (0.8 + rnd() * 0.3)),
        pick(dates),
        pick(prices),
        pick(years),
        pick(living),
        lat,
        lon,
      );
      rt.run(i, lon, lon, lat, lat);
    }
    rebuildIndexes();
    db.run(
      `INSERT INTO counties VALUES (?, ?, ?, NULL, 0, 'synthetic', 'unknown', 1, '2015-05-27', 'synthetic value', NULL, ?, '[]', 0, 0, 0, ?, ?, ?, NULL, NULL)`,
      [
        COUNTY,
        "SYNTHETIC county: 1,000,000 parcels drawn from the King County (WA) sales file's distributions — not real data",
        "https://example.invalid/synthetic",
        JSON.stringify(FIELDS),
        N,
        N,
        new Date().toISOString(),
      ],
    );
    refreshStats(db, COUNTY);
  })();
  db.run("ANALYZE");
  db.close();
}
console.log(
  CAMBRIDGE
    ? `REAL roll ${COUNTY} (the City of Cambridge only, FY2014): loaded in ${((performance.now() - t0) / 1000).toFixed(1)} s (${path})`
    : `SYNTHETIC county ${COUNTY}: ${N.toLocaleString("en-US")} parcels ${reuse ? "reused" : "built"} in ${((performance.now() - t0) / 1000).toFixed(1)} s (${path})`,
);
console.log(
  `each figure: median of ${RUNS} runs, ms; the machine is shared with other work, so figures are disturbed by its load\n`,
);

const src = new SqliteParcelSource(path);
const raw = new (await import("bun:sqlite")).Database(path, { readonly: true });
const median = (xs: number[]) => {
  const a = [...xs].sort((x, y) => x - y);
  return a[Math.floor(a.length / 2)]!;
};
async function time(f: () => unknown): Promise<number> {
  await f(); // warm
  const xs: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await f();
    xs.push(performance.now() - t);
  }
  return median(xs);
}

/** A bound that keeps about 3/4 of the rows (the 25th percentile of the field, or a date 3 months in). */
function boundFor(f: Field): Bounds {
  if (f === "sale_date") return { since: SINCE };
  const c = FIELD_INFO[f].column;
  const n = (raw.query(`SELECT n FROM county_stats WHERE county_id = ? AND field = ?`).get(COUNTY, f) as { n: number })
    .n;
  const v = (
    raw
      .query(`SELECT ${c} AS v FROM parcels WHERE county_id = ? AND ${c} IS NOT NULL ORDER BY ${c} LIMIT 1 OFFSET ?`)
      .get(COUNTY, Math.floor(n / 4)) as { v: number }
  ).v;
  return { min: v };
}

/** The same answer by a full scan: the table read row by row, no index (SQLite's NOT INDEXED). */
function fullScan(op: Op, f: Field, b: Bounds) {
  const c = FIELD_INFO[f].column;
  const w = [
    `county_id = ?`,
    `${c} IS NOT NULL`,
    ...(b.min !== undefined ? [`${c} >= ${b.min}`] : []),
    ...(b.since ? [`sale_date >= '${b.since}'`] : []),
  ].join(" AND ");
  const sql =
    op === "top"
      ? `SELECT * FROM parcels NOT INDEXED WHERE ${w} ORDER BY ${c} DESC, apn DESC LIMIT 10`
      : op === "bottom"
        ? `SELECT * FROM parcels NOT INDEXED WHERE ${w} ORDER BY ${c}, apn LIMIT 10`
        : op === "count"
          ? `SELECT count(*) FROM parcels NOT INDEXED WHERE ${w}`
          : op === "avg"
            ? `SELECT avg(${f === "sale_date" ? `julianday(${c})` : c}) FROM parcels NOT INDEXED WHERE ${w}`
            : `SELECT ${c} FROM parcels NOT INDEXED WHERE ${w} ORDER BY ${c} LIMIT 1 OFFSET (SELECT count(*) / 2 FROM parcels NOT INDEXED WHERE ${w})`;
  return raw.query(sql).all(...(op === "median" ? [COUNTY, COUNTY] : [COUNTY]));
}

const rows: string[][] = [
  [
    "op",
    "field",
    "plain ms",
    "bounded ms",
    "since-bounded ms",
    "since+until ms",
    "full scan ms",
    "plain/scan",
    "bounded/scan",
  ],
];
let worstCross = 0;
let worst = 0;
const held = JSON.parse(
  (raw.query("SELECT fields FROM counties WHERE county_id = ?").get(COUNTY) as { fields: string }).fields,
) as Field[];
for (const op of OPS.filter((o) => !ONLY || ONLY.includes(o)))
  for (const f of FIELDS.filter((x) => held.includes(x))) {
    const b = boundFor(f);
    const plan = (bounds: Bounds): ParcelQuery => ({
      countyId: COUNTY,
      op,
      field: f,
      bounds,
      limit: 10,
      offset: op === "top" || op === "bottom" ? 1000 : 0,
    });
    const run = (p: ParcelQuery) => () => (op === "top" || op === "bottom" ? src.rows(p) : src.aggregate(p));
    const plain = await time(run(plan({})));
    const bounded = await time(run(plan(b)));
    // a bound on another field than the op's (since with a numeric field): the date range is read row by row
    const cross = f === "sale_date" ? bounded : await time(run(plan({ since: SINCE })));
    const window = f === "sale_date" ? bounded : await time(run(plan({ since: SINCE, until: UNTIL })));
    const scan = await time(() => fullScan(op, f, b));
    worst = Math.max(worst, plain, bounded);
    worstCross = Math.max(worstCross, cross, window);
    rows.push([
      op,
      f,
      plain.toFixed(2),
      bounded.toFixed(2),
      cross.toFixed(2),
      window.toFixed(2),
      scan.toFixed(1),
      `1/${Math.round(scan / plain)}`,
      `1/${Math.round(scan / bounded)}`,
    ]);
  }
const w = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
for (const r of rows) console.log(r.map((c, i) => c.padEnd(w[i]!)).join("  "));
console.log(
  `\ntop/bottom: limit 10 at offset 1000 (the deepest page); bounded: min at the field's 25th percentile (sale_date: since ${SINCE}), about 3/4 of the rows`,
);
console.log(
  `since-bounded: since ${SINCE} (since+until: ${SINCE}..${UNTIL}) with a numeric field (a bound on another field: count and avg by date rank and running sum; the median by binary search over the sorted date runs)`,
);
console.log(
  `slowest op, plain or bounded on its own field: ${worst.toFixed(1)} ms (target < 50 ms); slowest since-bounded: ${worstCross.toFixed(1)} ms; ${CAMBRIDGE ? "REAL Cambridge roll" : `SYNTHETIC ${N.toLocaleString("en-US")}-parcel county`}`,
);
if (CAMBRIDGE) await pointLookups();

/** Point lookups per second on the same points: the polygon path (the loaded roll) against the nearest-point path
 * (a copy with the shapes dropped and each parcel's box shrunk to its point), alternating one-second windows. */
async function pointLookups() {
  const pts = (
    raw.query("SELECT lon, lat FROM parcels WHERE lat IS NOT NULL ORDER BY apn").all() as {
      lon: number;
      lat: number;
    }[]
  ).map((p, i) => [p.lon + ((i % 7) - 3) * 1e-5, p.lat + ((i % 5) - 2) * 1e-5] as const);
  const points = join(dirname(path), "points-only.sqlite");
  copyFileSync(path, points);
  const { db } = openForWrite(points);
  db.run("UPDATE parcels SET shape = NULL");
  db.run("DELETE FROM parcels_rtree");
  db.run("INSERT INTO parcels_rtree SELECT id, lon, lon, lat, lat FROM parcels WHERE lat IS NOT NULL");
  db.close();
  const bySource = { polygon: new SqliteParcelSource(path), "nearest point": new SqliteParcelSource(points) };
  const done = { polygon: 0, "nearest point": 0 };
  const found = { polygon: 0, "nearest point": 0 };
  let i = 0;
  for (let round = 0; round < 6; round++)
    for (const k of ["polygon", "nearest point"] as const) {
      const end = performance.now() + 500;
      while (performance.now() < end) {
        const [x, y] = pts[i++ % pts.length]!;
        if ((await bySource[k].near(x, y, 25))?.record) found[k]++;
        done[k]++;
      }
    }
  const rate = (k: keyof typeof done) => done[k] / 3;
  console.log(
    `\npoint lookups (get_property_facts by a point, 25 m), ${pts.length.toLocaleString("en-US")} points near the parcels' centres, alternating half-second windows, 3 s each:`,
  );
  for (const k of ["polygon", "nearest point"] as const)
    console.log(
      `  ${k.padEnd(13)} ${Math.round(rate(k)).toLocaleString("en-US")} lookups/s (${((100 * found[k]) / done[k]).toFixed(1)} % found a parcel)`,
    );
  console.log(`  polygon / nearest point: ${(rate("polygon") / rate("nearest point")).toFixed(2)}`);
}
