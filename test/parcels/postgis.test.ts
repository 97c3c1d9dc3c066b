// Parcels in PostGIS (issue 24, item 4) against a REAL PostgreSQL with PostGIS started here (test/helpers/services.ts;
// no mock): the staged counties loaded into it (the City of Cambridge by `load-parcels --into`, the others copied
// from the staged store by the same copy the loader ends with) answer every county-data op on every field, bounded
// every way, point in parcel (ST_Contains), "shapes around, none holds it" and the nearest point, IDENTICALLY to the
// SQLite store of the same loads: the sources' own answers, /v1/county-data through the app and get_property_facts.
// A database that refuses, never answers, holds no parcel tables or stops mid-run → 503 upstream-unavailable within
// the query timeout.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { SQL } from "bun";
import { join } from "node:path";
import { parcelsApp } from "../helpers/parcels-app";
import { call, ROOT, PROBLEMS } from "../helpers/app";
import { SHARED_DATA } from "../helpers/data-file";
import { freePort, startPostgres } from "../helpers/services";
import { parcelSourceFor } from "../../src/parcels/open";
import { copyCounty } from "../../src/parcels/postgis-store";
import { OWNER_COLUMN } from "../../src/parcels/people-words";
import { OPS, type Bounds, type Field, type ParcelQuery } from "../../src/parcels/fields";
import type { ParcelSource } from "../../src/parcels/source";
import { propertyFacts } from "../../src/mcp/property-facts";
import { runLoadParcels } from "../../src/cli/load-parcels";
import { commandNamed, parseCommand } from "../../src/cli/commands";

let pg: Awaited<ReturnType<typeof startPostgres>>;
let pgStopped = false;
let url: string;
let P: Awaited<ReturnType<typeof parcelsApp>>;
let lite: ParcelSource, gis: ParcelSource;
let raw: Database;
const COUNTIES = ["county:53033", "county:39095", "county:21067", "county:25017"];
let loadOut = "";

beforeAll(async () => {
  [pg, P] = await Promise.all([startPostgres(), parcelsApp()]);
  url = await pg.database("parcels_test");
  const admin = new SQL(url, { max: 1 });
  await admin`CREATE EXTENSION postgis`;
  // the City of Cambridge through the command itself: read, joined, mapped and staged as into the file, then copied
  const args = [
    "--county",
    "county:25017",
    "--mapping",
    join(ROOT, "data/parcels/cambridge-ma-25017.yaml"),
    "--into",
    url,
    join(SHARED_DATA, "cambridge-ma/assessing_ParcelsFY2014.topojson"),
  ];
  const log = console.log;
  console.log = (...a: unknown[]) => void (loadOut += a.join(" ") + "\n");
  try {
    expect(await runLoadParcels(P.deps.config, parseCommand(commandNamed("load-parcels")!, args))).toBe(0);
  } finally {
    console.log = log;
  }
  // the other staged counties: copied from the staged store (the copy every --into load ends with)
  raw = new Database(P.file.path, { readonly: true });
  for (const c of COUNTIES.slice(0, 3)) await copyCounty(admin, raw, c, { progress: false });
  await admin.close();
  lite = parcelSourceFor(P.deps.config, () => {}, P.file.path);
  gis = parcelSourceFor(P.deps.config, () => {}, url);
}, 120_000);

afterAll(async () => {
  raw?.close();
  if (!pgStopped) await pg?.stop();
});

/** Values of a field at a quantile of the county's rows (from the staged file). */
function at(county: string, f: Field, q: number): number | string {
  const n = (
    raw.query(`SELECT count(*) AS n FROM parcels WHERE county_id = ? AND ${f} IS NOT NULL`).get(county) as {
      n: number;
    }
  ).n;
  return (
    raw
      .query(`SELECT ${f} AS v FROM parcels WHERE county_id = ? AND ${f} IS NOT NULL ORDER BY ${f} LIMIT 1 OFFSET ?`)
      .get(county, Math.floor(n * q)) as { v: number | string }
  ).v;
}

/** Every bound a plan can carry, for one field of one county (both edges, each side alone, empty ranges, the
 *  dates with a numeric field, both at once, a fractional bound on an integer field). */
function boundsFor(county: string, f: Field, fields: Field[]): Bounds[] {
  const out: Bounds[] = [{}];
  const dates = fields.includes("sale_date");
  const d1 = dates ? (at(county, "sale_date", 0.3) as string) : undefined,
    d2 = dates ? (at(county, "sale_date", 0.8) as string) : undefined;
  if (f === "sale_date")
    return [
      ...out,
      { since: d1 },
      { until: d2 },
      { since: d1, until: d2 },
      { since: "2100-01-01" },
      { until: "1000-01-01" },
    ];
  const lo = at(county, f, 0.25) as number,
    hi = at(county, f, 0.75) as number;
  out.push({ min: lo }, { max: hi }, { min: lo, max: hi }, { min: lo + 0.5 }, { max: hi - 0.5 }, { min: 1e15 });
  if (dates)
    out.push(
      { since: d1 },
      { until: d2 },
      { since: d1, until: d2 },
      { min: lo, since: d1 },
      { max: hi, since: d1, until: d2 },
    );
  return out;
}

describe("the same loads answer identically from PostGIS and from the SQLite store", () => {
  test("load-parcels --into: the summary of the file load, the copy said, no owner column in the database", async () => {
    expect(loadOut).toContain("county:25017: 13022 rows read, 13021 parcels kept");
    expect(loadOut).toContain("2,131 condominium buildings: their 14,395 unit records are folded");
    expect(loadOut).toMatch(/into postgres:\/\/dir@127\.0\.0\.1:\d+\/parcels_test in [\d.]+ s/);
    const sql = new SQL(url, { max: 1 });
    const cols = (
      await sql`SELECT column_name AS c FROM information_schema.columns WHERE table_schema = 'parcels'`
    ).map((r: { c: string }) => r.c);
    await sql.close();
    expect(cols).toContain("apn");
    expect(cols.filter((c: string) => OWNER_COLUMN.test(c))).toEqual([]);
  });

  test("counties and each county's facts", async () => {
    expect(await gis.counties()).toEqual(await lite.counties());
    expect((await gis.counties()).map((c) => c.countyId)).toEqual([...COUNTIES].sort());
    for (const c of [...COUNTIES, "county:99999"]) expect(await gis.county(c)).toEqual(await lite.county(c));
  });

  test("every op on every field, every kind of bound, two pages: the same rows and aggregates", async () => {
    let compared = 0;
    for (const county of COUNTIES) {
      const fields = (await lite.county(county))!.fields;
      for (const field of fields)
        for (const bounds of boundsFor(county, field, fields))
          for (const op of OPS)
            for (const [limit, offset] of op === "top" || op === "bottom"
              ? [
                  [10, 0],
                  [7, 23],
                ]
              : [[10, 0]]) {
              const plan: ParcelQuery = { countyId: county, op, field, bounds, limit: limit!, offset: offset! };
              const rowOp = op === "top" || op === "bottom";
              const [a, b] = await Promise.all(
                [lite, gis].map((s) => (rowOp ? s.rows(plan) : s.aggregate(plan)) as Promise<unknown>),
              );
              expect({ plan, answer: b }).toEqual({ plan, answer: a });
              compared++;
            }
    }
    expect(compared).toBeGreaterThan(600);
  }, 30_000);

  test("a parcel by its number", async () => {
    for (const [c, apn] of [
      ["county:25017", "17-28"],
      ["county:25017", "8-61"],
      ["county:53033", "1020069017"],
      ["county:25017", "nope"],
    ] as const) {
      const a = await lite.parcel(c, apn);
      expect(await gis.parcel(c, apn)).toEqual(a);
      if (apn !== "nope") expect(a?.apn).toBe(apn);
    }
  });

  test("points: inside a parcel, between parcels, near a parcel point, far away; and a sample around every county", async () => {
    const named: [number, number, number][] = [
      [-71.080628, 42.367733, 25], // inside 17-28 (Cambridge)
      [-71.074563, 42.369403, 25], // inside 8-61, a condominium building
      [-71.0809, 42.3679, 25], // the street between the lots of Charles St and Third St
      [-84.4428, 38.05445, 30], // Lexington
      [-98.5, 39.8, 1000], // far from every parcel
      [0, 0, 25],
    ];
    // around the parcels' points of each county: at the point, 12 m and 60 m off (King and Lucas: points only,
    // the nearest-point path; Cambridge and Lexington: shapes)
    const sample: [number, number, number][] = [];
    for (const county of COUNTIES) {
      const pts = raw
        .query("SELECT lon, lat FROM parcels WHERE county_id = ? AND lat IS NOT NULL ORDER BY apn")
        .all(county) as { lon: number; lat: number }[];
      const step = Math.max(1, Math.floor(pts.length / 120));
      for (let i = 0; i < pts.length; i += step) {
        const p = pts[i]!;
        sample.push([p.lon, p.lat, 25], [p.lon + 0.00015, p.lat - 0.0001, 25], [p.lon - 0.0005, p.lat + 0.0004, 100]);
      }
    }
    const kinds = { inside: 0, between: 0, nearest: 0, none: 0 };
    for (const [lon, lat, m] of [...named, ...sample]) {
      const a = await lite.near(lon, lat, m);
      expect({ lon, lat, m, hit: await gis.near(lon, lat, m) }).toEqual({ lon, lat, m, hit: a });
      kinds[!a ? "none" : a.inside ? "inside" : a.record ? "nearest" : "between"]++;
    }
    // every path was taken, many times (none: the far points)
    expect(kinds.inside).toBeGreaterThan(100);
    expect(kinds.between).toBeGreaterThan(20);
    expect(kinds.nearest).toBeGreaterThan(100);
    expect(kinds.none).toBeGreaterThanOrEqual(2);
    expect((await gis.near(-71.080628, 42.367733, 25))?.record?.apn).toBe("17-28");
    expect(await gis.near(-71.0809, 42.3679, 25)).toEqual({ record: null, distanceM: null, inside: false });
  }, 30_000);

  test("/v1/county-data through the app: the same answers (plans and questions), and get_property_facts", async () => {
    const asks: string[] = [];
    for (const county of ["county:25017", "county:53033", "county:39095", "county:21067"]) {
      const fields = (await lite.county(county))!.fields;
      for (const field of fields)
        for (const op of OPS) {
          asks.push(`jurisdiction_id=${county}&op=${op}&field=${field}&limit=5`);
          const b = boundsFor(county, field, fields).at(-1)!;
          const qs = Object.entries(b)
            .filter(([k]) => !(field === "sale_date" && (k === "min" || k === "max")))
            .map(([k, v]) => `&${k}=${v}`)
            .join("");
          asks.push(`jurisdiction_id=${county}&op=${op}&field=${field}${qs}&offset=3`);
        }
    }
    for (const q of [
      "biggest parcel in King County, WA",
      "how many parcels over 5 acres in Lucas County Ohio",
      "most recent sales in county:53033",
      "average sale price since 2015 in King County, WA",
      "median value in Middlesex County, MA",
      "oldest buildings in county:25017",
      "who owns the most land in King County",
    ])
      asks.push(`q=${encodeURIComponent(q)}`);
    const answer = async (s: ParcelSource, qs: string) => {
      P.deps.parcels = s;
      const r = await call(P.app, `/v1/county-data?${qs}`);
      return { qs, status: r.status, data: r.json?.data ?? r.json, etag: r.headers.get("etag") };
    };
    for (const qs of asks) expect(await answer(gis, qs)).toEqual(await answer(lite, qs));
    // the MCP tool's domain call, by point and by parcel number
    for (const i of [
      { lat: 42.367733, lon: -71.080628 },
      { lat: 42.369403, lon: -71.074563 },
      { lat: 42.3679, lon: -71.0809 },
      { lat: 38.05445, lon: -84.4428, max_distance_m: 30 },
      { apn: "17-28", county: "county:25017" },
      { apn: "1020069017", county: "King County, WA" },
    ]) {
      const [a, b] = [
        await propertyFacts(lite, P.deps.directory as any, i),
        await propertyFacts(gis, P.deps.directory as any, i),
      ];
      expect(b).toEqual(a);
    }
    P.deps.parcels = lite;
  }, 30_000);

  test("loading a county again replaces its rows in one transaction; another county's rows are untouched", async () => {
    const sql = new SQL(url, { max: 1 });
    const count = async (c: string) =>
      Number((await sql`SELECT count(*) AS n FROM parcels.parcels WHERE county_id = ${c}`)[0].n);
    const before = [await count("county:53033"), await count("county:25017")];
    // a copy that fails half-way (a county the staged store does not hold) changes nothing
    await expect(copyCounty(sql, raw, "county:99999", { progress: false })).rejects.toThrow();
    await copyCounty(sql, raw, "county:53033", { progress: false, analyze: false });
    expect([await count("county:53033"), await count("county:25017")]).toEqual(before);
    expect(before).toEqual([21436, 13021]);
    await sql.close();
    const plan: ParcelQuery = {
      countyId: "county:53033",
      op: "median",
      field: "sale_price",
      bounds: { since: "2015-01-01" },
      limit: 10,
      offset: 0,
    };
    expect(await gis.aggregate(plan)).toEqual(await lite.aggregate(plan));
  });
});

describe("a database that does not answer → 503 upstream-unavailable, within the query timeout", () => {
  const Q = "/v1/county-data?jurisdiction_id=county:53033&op=count";
  const expect503 = async (where: string, timeoutMs = 600) => {
    const cfg = { ...P.deps.config, parcels: { ...P.deps.config.parcels, query_timeout_ms: timeoutMs } };
    P.deps.parcels = parcelSourceFor(cfg, () => {}, where);
    const t0 = performance.now();
    const r = await call(P.app, Q);
    const ms = performance.now() - t0;
    P.deps.parcels = lite;
    expect(r.status).toBe(503);
    expect(r.json.type).toBe(`${PROBLEMS}/upstream-unavailable`);
    expect(r.headers.get("cache-control")).toBe("no-store");
    expect(r.headers.get("content-type")).toContain("application/problem+json");
    expect(ms).toBeLessThan(timeoutMs + 1000);
    return ms;
  };

  test("nobody listens at the address", async () => {
    await expect503(`postgres://dir@127.0.0.1:${freePort()}/parcels_test`);
  });

  test("a server that accepts and never answers: the guard's timeout", async () => {
    const hole = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
    try {
      expect(await expect503(`postgres://dir@127.0.0.1:${hole.port}/parcels_test`, 500)).toBeGreaterThanOrEqual(450);
    } finally {
      hole.stop(true);
    }
  });

  test("a database without parcel tables (not a parcel store)", async () => {
    await expect503(pg.url);
  });

  test("a query slower than the timeout is cancelled by the database (statement_timeout)", async () => {
    const { PostgisParcelSource } = await import("../../src/parcels/postgis-source");
    const s = new PostgisParcelSource(url, { timeoutMs: 300, max: 1 });
    const t0 = performance.now();
    await expect(s.sql.unsafe("SELECT pg_sleep(5)")).rejects.toThrow(/statement timeout/);
    expect(performance.now() - t0).toBeLessThan(2000);
    await s.close();
  });

  test("PostgreSQL stopped mid-run: the source that answered now answers 503", async () => {
    P.deps.parcels = gis;
    expect((await call(P.app, Q)).status).toBe(200);
    await pg.stop();
    pgStopped = true;
    await expect503(url);
    P.deps.parcels = gis; // the source that was answering, its connections cut
    const r = await call(P.app, Q);
    expect(r.status).toBe(503);
    expect(r.json.type).toBe(`${PROBLEMS}/upstream-unavailable`);
    P.deps.parcels = lite;
  });
});
