// GET /v1/county-data over the real staged inputs: questions and plans, rows, aggregates, paging, refusals.
import { describe, expect, test, beforeAll } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Value } from "@sinclair/typebox/value";
import { parseCsv } from "../../scripts/build/csv";
import { CountyData } from "../../src/http/schemas/county-data";
import { SHARED_DATA } from "../helpers/data-file";
import { parcelsApp, ROW_KEYS } from "../helpers/parcels-app";

let P: Awaited<ReturnType<typeof parcelsApp>>;
beforeAll(async () => {
  P = await parcelsApp();
}, 600_000);

const csv = (f: string) => parseCsv(readFileSync(join(SHARED_DATA, "parcels", f), "utf8"));
const ok = (r: any) => {
  expect(r.status).toBe(200);
  expect(Value.Check(CountyData, r.json.data)).toBe(true);
  for (const row of r.json.data.rows) expect(Object.keys(row).sort()).toEqual(ROW_KEYS);
  return r.json.data;
};

describe("questions over the staged counties", () => {
  test("biggest parcel in King County, WA: top acres, read back in the answer", async () => {
    const d = ok(await P.q("biggest parcel in King County, WA", "&limit=5"));
    expect(d.state).toBe("ok");
    expect(d.answer).toContain("most acres in King County, WA (county:53033)");
    expect(d.rows.map((r: any) => r.rank)).toEqual([1, 2, 3, 4, 5]);
    expect(d.rows[0].apn).toBe("1020069017");
    expect(d.rows[0].acres).toBeCloseTo(1651359 / 43560, 3);
    for (let i = 1; i < 5; i++) expect(d.rows[i].acres).toBeLessThanOrEqual(d.rows[i - 1].acres);
    expect(d.rows[0].parcel_gis_url).toBe(
      "https://blue.kingcounty.com/Assessor/eRealProperty/Detail.aspx?ParcelNbr=1020069017",
    );
    expect(d.source).toEqual({ name: expect.stringContaining("King County"), as_of: "2015-05-27" });
    expect(d.notes.some((n: string) => /0 road, 0 water and 0 condominium/.test(n))).toBe(true);
  });

  test("how many parcels over 5 acres in Lucas County Ohio: a count equal to the source file's", async () => {
    const want = csv("house_lucas_county_oh_1993_1998.csv").filter(
      (r) => Math.round((Number(r.lotsize) / 43560) * 1e4) / 1e4 >= 5,
    ).length;
    const d = ok(await P.q("how many parcels over 5 acres in Lucas County Ohio"));
    expect(d.state).toBe("ok");
    expect(d.value).toBe(want);
    expect(d.rows).toEqual([]);
    expect(d.answer).toContain("at least 5 acres");
  });

  test("most recent sales in county:53033: latest sale dates first", async () => {
    const d = ok(await P.q("most recent sales in county:53033"));
    expect(d.rows).toHaveLength(10);
    expect(d.rows[0].last_sale_date).toBe("2015-05-27");
    for (let i = 1; i < d.rows.length; i++) expect(d.rows[i].last_sale_date <= d.rows[i - 1].last_sale_date).toBe(true);
  });

  test("oldest building (county from jurisdiction_id): bottom year_built", async () => {
    const d = ok(await P.q("oldest building", "&jurisdiction_id=county:39095&limit=3"));
    const min = Math.min(...csv("house_lucas_county_oh_1993_1998.csv").map((r) => Number(r.yrbuilt)));
    expect(d.rows[0].year_built).toBe(min);
    expect(d.rows[0].value_label).toContain("assessed value");
    expect(d.answer).toContain("oldest buildings in Lucas County, OH");
  });

  test("average sale price since 2015 in King County: the mean over parcels whose latest sale is in 2015", async () => {
    const latest = new Map<string, { date: string; price: number }>();
    for (const r of csv("king_county_wa_house_sales_2014_2015.csv")) {
      const h = latest.get(r.id);
      if (!h || r.date > h.date) latest.set(r.id, { date: r.date, price: Number(r.price) });
    }
    const since = [...latest.values()].filter((v) => v.date >= "20150101");
    const d = ok(await P.q("average sale price since 2015 in King County, WA"));
    expect(d.value).toBeCloseTo(since.reduce((a, v) => a + v.price, 0) / since.length, 2);
    expect(d.answer).toContain(`over ${since.length.toLocaleString("en-US")} parcels`);
  });

  test("median value in Lucas County, OH: the middle assessed value", async () => {
    const vals = csv("house_lucas_county_oh_1993_1998.csv")
      .map((r) => Number(r.avalue))
      .filter((v) => v > 0)
      .sort((a, b) => a - b);
    const mid =
      vals.length % 2 ? vals[(vals.length - 1) / 2]! : (vals[vals.length / 2 - 1]! + vals[vals.length / 2]!) / 2;
    const d = ok(await P.q("median value in Lucas County, OH"));
    expect(d.value).toBe(mid);
    // the same median through a plan, and a bounded median computed on the index (not the stored one)
    expect(ok(await P.ask("jurisdiction_id=county:39095&op=median&field=value")).value).toBe(mid);
    const over = vals.filter((v) => v >= 100000);
    const m2 =
      over.length % 2 ? over[(over.length - 1) / 2]! : (over[over.length / 2 - 1]! + over[over.length / 2]!) / 2;
    expect(ok(await P.ask("jurisdiction_id=county:39095&op=median&field=value&min=100000")).value).toBe(m2);
  });

  test("avg and median of sale dates are dates in the answer, value null", async () => {
    const d = ok(await P.ask("jurisdiction_id=county:53033&op=median&field=sale_date"));
    expect(d.value).toBeNull();
    expect(d.answer).toMatch(/Median: 2014-\d\d-\d\d over 21,436 parcels/);
    expect(d.question).toBe("jurisdiction_id=county:53033 op=median field=sale_date");
  });
});

describe("bounds and paging", () => {
  test("min and max bound the field; since and until bound the last sale date", async () => {
    const d = ok(
      await P.ask(
        "jurisdiction_id=county:53033&op=top&field=sale_price&min=500000&max=600000&since=2014-06-01&until=2014-06-30&limit=50",
      ),
    );
    expect(d.rows.length).toBeGreaterThan(0);
    for (const r of d.rows) {
      expect(r.last_sale_price).toBeGreaterThanOrEqual(500000);
      expect(r.last_sale_price).toBeLessThanOrEqual(600000);
      expect(r.last_sale_date >= "2014-06-01" && r.last_sale_date <= "2014-06-30").toBe(true);
    }
    const c = ok(await P.ask("jurisdiction_id=county:53033&op=count&field=acres&since=2015-01-01"));
    const c2 = ok(await P.ask("jurisdiction_id=county:53033&op=count&field=sale_date&since=2015-01-01"));
    expect(c.value).toBe(c2.value);
    expect(
      ok(await P.ask("jurisdiction_id=county:53033&op=count&field=acres&min=1&max=1")).value,
    ).toBeGreaterThanOrEqual(0);
  });

  test("offset pages through the same order", async () => {
    const all = ok(await P.ask("jurisdiction_id=county:39095&op=bottom&field=acres&limit=15")).rows;
    const page = ok(await P.ask("jurisdiction_id=county:39095&op=bottom&field=acres&limit=5&offset=10"));
    expect(page.rows.map((r: any) => r.rank)).toEqual([11, 12, 13, 14, 15]);
    expect(page.rows.map((r: any) => r.apn)).toEqual(all.slice(10).map((r: any) => r.apn));
    expect(page.answer).toContain("ranks 11 to 15");
    const far = ok(await P.ask("jurisdiction_id=county:21067&op=top&field=acres&offset=1000"));
    expect(far.state).toBe("no_data");
  });
});

describe("refusals, unreadable questions and counties without data", () => {
  for (const question of [
    "who owns the most land in King County, WA",
    "owner of 1234 Main St",
    "largest landowners in Lucas County, OH",
    "taxpayer names in county:53033",
  ]) {
    test(`owners: ${question}`, async () => {
      const d = ok(await P.q(question));
      expect(d.state).toBe("owners_unavailable");
      expect(d.rows).toEqual([]);
      expect(d.answer).toContain("never available");
    });
  }

  test("a question it cannot read: unavailable, saying what it can answer", async () => {
    const d = ok(await P.q("what is the weather like in King County, WA"));
    expect(d.state).toBe("unavailable");
    expect(d.answer).toContain("I can answer");
    expect(d.rows).toEqual([]);
    const none = ok(await P.q("biggest parcel"));
    expect(none.state).toBe("unavailable");
    expect(none.answer).toContain("names no county");
    const twins = ok(await P.q("biggest parcel in Washington County"));
    expect(twins.state).toBe("unavailable");
    expect(twins.answer).toMatch(/names \d+ counties/);
  });

  test("a field the county's data does not hold: unavailable with the fields it has", async () => {
    const d = ok(await P.q("highest value in King County, WA"));
    expect(d.state).toBe("unavailable");
    expect(d.answer).toContain("holds no value");
    expect(d.answer).toContain("last sale price");
  });

  test("no_data: a county not licensed for API use, a county without data, an id of no county", async () => {
    const lex = ok(await P.q("biggest parcel in Fayette County, KY"));
    expect(lex.state).toBe("no_data");
    expect(lex.answer).toContain("not licensed for API use");
    expect(lex.rows).toEqual([]);
    const hennepin = ok(await P.ask("jurisdiction_id=county:27053"));
    expect(hennepin.state).toBe("no_data");
    expect(hennepin.answer).toContain("No parcel data is loaded for Hennepin County, MN");
    const nowhere = ok(await P.ask("jurisdiction_id=county:99999&op=count"));
    expect(nowhere.state).toBe("no_data");
    expect(nowhere.answer).toContain("No county has the id county:99999");
  });
});
