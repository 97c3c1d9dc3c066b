// A real assessor roll with parcel polygons (../shared/data/cambridge-ma: the City of Cambridge, FY2014, ODC
// PDDL): the shapes (TopoJSON) joined to the assessor's table by ML, loaded by the staged mapping as `npx bun run
// start` does; get_property_facts by a point answers the parcel whose polygon holds it; county-data on the roll.
// Expectations are read from the raw files here, independently of the loader.
import { beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { feature } from "topojson-client";
import { Value } from "@sinclair/typebox/value";
import { parseCsv } from "../../scripts/build/csv";
import { CountyData } from "../../src/http/schemas/county-data";
import { propertyFacts } from "../../src/mcp/property-facts";
import { SHARED_DATA } from "../helpers/data-file";
import { propsHolding } from "../helpers/raw-shapes";
import { parcelsApp, ROW_KEYS } from "../helpers/parcels-app";

const DIR = join(SHARED_DATA, "cambridge-ma");
let P: Awaited<ReturnType<typeof parcelsApp>>;
beforeAll(async () => {
  P = await parcelsApp();
}, 600_000);

// the raw roll, one representative record per ML (a condominium's building record, else the first), values added
const rows = parseCsv(readFileSync(join(DIR, "assessing_TaxFY14.csv"), "utf8"));
const byMl = new Map<string, Record<string, string>[]>();
for (const r of rows) if (r.ML!.trim()) byMl.set(r.ML!.trim(), [...(byMl.get(r.ML!.trim()) ?? []), r]);
const parcels = [...byMl.entries()].map(([ml, rs]) => {
  const rep = rs.find((r) => r.UseCode === "199") ?? rs[0]!;
  const value = rs.reduce((n, r) => n + Math.max(0, Number(r.TotalAppraisedParcelValue) || 0), 0);
  return { ml, rep, value, acres: Math.round((Number(rep.LandArea) / 43560) * 1e4) / 1e4 };
});
// the raw shapes
const topo = JSON.parse(readFileSync(join(DIR, "assessing_ParcelsFY2014.topojson"), "utf8"));
const shapes = (feature(topo, topo.objects.ASSESSING_ParcelsFY2014) as any).features as any[];
const CHARLES = { lon: -71.080628, lat: 42.367733 }; // inside 17-28, 91 Charles St (a single-family house)
const CANAL = { lon: -71.074563, lat: 42.369403 }; // inside 8-61, 4 Canal Park (a condominium building)
const STREET = { lon: -71.0809, lat: 42.3679 }; // between the lots of Charles St and Third St

const ok = (r: any) => {
  expect(r.status).toBe(200);
  expect(Value.Check(CountyData, r.json.data)).toBe(true);
  for (const row of r.json.data.rows) expect(Object.keys(row).sort()).toEqual(ROW_KEYS);
  expect(r.json.data.state).toBe("ok");
  expect(r.json.data.answer).toContain(
    "Middlesex County, MA (county:25017; its loaded data covers the City of Cambridge only, fiscal year 2014, values as assessed)",
  );
  expect(r.json.data.notes.some((n: string) => n.startsWith("This is the City of Cambridge only"))).toBe(true);
  return r.json.data;
};

describe("get_property_facts on the Cambridge roll: the parcel whose polygon holds the point", () => {
  test("the points of the test lie where the raw shapes say", () => {
    expect(propsHolding(shapes, CHARLES.lon, CHARLES.lat).map((p) => p.ML)).toEqual(["17-28"]);
    expect(propsHolding(shapes, CANAL.lon, CANAL.lat).map((p) => p.ML)).toEqual(["8-61"]);
    expect(propsHolding(shapes, STREET.lon, STREET.lat).map((p) => p.ML)).toEqual(["ROAD"]); // the layer's road shape, no assessor record
  });

  test("a house: its number, address, assessed value, year built, land use and deed reference", async () => {
    const f = ((await propertyFacts(P.deps.parcels!, P.deps.directory as any, CHARLES)) as any).facts;
    const raw = byMl.get("17-28")![0]!;
    expect(f.found).toBe(true);
    expect(f.match).toMatchObject({ by: "point", inside_parcel_shape: true, distance_m: 0 });
    expect(f.parcel).toMatchObject({
      apn: "17-28",
      situs_address: raw.Location,
      value: Number(raw.TotalAppraisedParcelValue),
      year_built: Number(raw.AYBYrBuilt),
      land_use: `${raw.UseCode} ${raw.UseDescription}`,
      units: null,
      deed_reference: { text: raw.BookPage!.replace(/\s+/g, ""), what: expect.stringContaining("Southern Middlesex") },
    });
    expect(f.parcel).toMatchObject({ situs_address: "91 CHARLES ST", value: 412200, year_built: 1905 });
    expect(f.county).toBe("county:25017");
    expect(f.coverage).toBe("the City of Cambridge only, fiscal year 2014, values as assessed");
    expect(f.source.name).toContain("Cambridge");
    expect(f.jurisdictions.map((j: any) => j.jurisdiction_id)).toContain("place:2511000");
  });

  test("a condominium: the building's parcel with its unit count and the units' values added up, never a unit", async () => {
    const f = ((await propertyFacts(P.deps.parcels!, P.deps.directory as any, CANAL)) as any).facts;
    const recs = byMl.get("8-61")!;
    expect(f.parcel.apn).toBe("8-61");
    expect(f.parcel.situs_address).toBe(recs.find((r) => r.UseCode === "199")!.Location);
    expect(f.parcel.units).toBe(recs.length - 1);
    expect(f.parcel.value).toBe(recs.reduce((n, r) => n + Number(r.TotalAppraisedParcelValue), 0));
    expect(f.parcel.deed_reference).toBeNull(); // the building record has none; each unit has its own deed
  });

  test("a point on the street between lots: no parcel, said plainly, no nearest-parcel guess", async () => {
    const f = (
      (await propertyFacts(P.deps.parcels!, P.deps.directory as any, { ...STREET, max_distance_m: 200 })) as any
    ).facts;
    expect(f.found).toBe(false);
    expect(f.parcel).toBeNull();
    expect(f.nearest_parcel).toBeUndefined();
    expect(f.note).toContain("in no parcel's shape");
    expect(f.note).toContain("the City of Cambridge only");
  });
});

describe("county-data on the Cambridge roll", () => {
  const positive = (xs: number[]) => xs.filter((x) => Number.isFinite(x) && x > 0);
  test("notes: the road shapes left out and counted, the condominiums folded, the coverage", async () => {
    const d = ok(await P.q("biggest parcels in county:25017"));
    const roads = shapes.filter((f) => f.properties.ML === "ROAD").length;
    expect(d.notes[0]).toBe(
      `Left out of every answer: ${roads} road, 0 water and 0 condominium common-element records of this county's data.`,
    );
    const condos = [...byMl.values()].filter((rs) => rs.length > 1 && rs.some((r) => r.UseCode === "199"));
    expect(d.notes.join(" ")).toContain(`${condos.length.toLocaleString("en-US")} condominium buildings`);
  });
  test("the biggest parcels", async () => {
    const d = ok(await P.q("biggest parcels in Middlesex County, MA", "&limit=3"));
    const best = [...parcels].sort((a, b) => b.acres - a.acres || (a.ml < b.ml ? 1 : -1))[0]!;
    expect(d.rows[0].apn).toBe(best.ml);
    expect(d.rows[0].acres).toBe(best.acres);
    expect(d.rows[0].value_label).toContain("fiscal year 2014");
  });
  test("counts over a size and over a value", async () => {
    expect(ok(await P.q("how many parcels over 1 acre in county:25017")).value).toBe(
      parcels.filter((p) => p.acres >= 1).length,
    );
    expect(ok(await P.q("how many parcels with a value over $1,000,000 in county:25017")).value).toBe(
      parcels.filter((p) => p.value >= 1_000_000).length,
    );
  });
  test("the oldest buildings", async () => {
    const d = ok(await P.q("oldest buildings in county:25017", "&limit=5"));
    expect(d.rows[0].year_built).toBe(Math.min(...positive(parcels.map((p) => Number(p.rep.AYBYrBuilt)))));
  });
  test("the average and the median assessed value", async () => {
    const vals = positive(parcels.map((p) => p.value)).sort((a, b) => a - b);
    const avg = ok(await P.q("average value in county:25017"));
    expect(avg.value).toBeCloseTo(vals.reduce((a, b) => a + b, 0) / vals.length, 2);
    const med = ok(await P.q("median value in county:25017"));
    const mid = vals.length >> 1;
    expect(med.value).toBe(vals.length % 2 ? vals[mid]! : (vals[mid - 1]! + vals[mid]!) / 2);
  });
  test("the most recent sales (1/1/1900 is no sale, never a date)", async () => {
    const d = ok(await P.q("most recent sales in county:25017", "&limit=3"));
    const dates = parcels.map((p) => p.rep.SaleDate!).filter((s) => s && s !== "1/1/1900");
    const iso = dates.map((s) => {
      const [m, dd, y] = s.split("/");
      return `${y}-${m!.padStart(2, "0")}-${dd!.padStart(2, "0")}`;
    });
    expect(d.rows[0].last_sale_date).toBe(iso.sort().at(-1));
    const early = ok(await P.q("earliest sales in county:25017", "&limit=1"));
    expect(early.rows[0].last_sale_date).toBe(iso[0]);
  });
});
