// GET /v1/screening: one test per status of every fact, against the loopback doubles (127.0.0.1 only), plus the
// wire rules (bad-point, outside-coverage, Cache-Control, shoreland only in Minnesota, schema).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Value } from "@sinclair/typebox/value";
import { call, PROBLEMS } from "../helpers/app";
import { screeningApp } from "../helpers/screening-app";
import { startScreeningDoubles, type ScreeningDoubles } from "../doubles/screening-services";
import * as W from "../doubles/screening-world";
import { Envelope } from "../../src/http/schemas/common";
import { Screening } from "../../src/http/schemas/screening";
import type { App } from "../../src/http/app";

let d: ScreeningDoubles, app: App;
beforeAll(async () => {
  d = startScreeningDoubles();
  ({ app } = await screeningApp(d));
}, 600_000);
afterAll(() => d.stop());

const at = async (p: { lon: number; lat: number }) => {
  const r = await call(app, `/v1/screening?lat=${p.lat}&lon=${p.lon}`);
  expect(r.status).toBe(200);
  const valid = Value.Check(Envelope(Screening), r.json);
  if (!valid) console.log([...Value.Errors(Envelope(Screening), r.json)].slice(0, 3));
  expect(valid).toBe(true);
  return r.json.data.facts;
};

describe("flood (FEMA NFHL)", () => {
  test("zone AE → sfha with BFE, panel and the panel's effective date as as_of", async () => {
    const f = (await at(W.FLOOD_POINTS.sfha)).flood;
    expect(f.status).toBe("sfha");
    expect(f.values).toMatchObject({
      zone: "AE",
      base_flood_elevation_ft: 812.5,
      firm_panel: "27053C0358F",
      sfha: true,
    });
    expect(f.as_of).toBe("2010-10-29");
    expect(f.decided_by.function).toBe("permits");
    expect(f.decided_by.office.jurisdiction_id).toBe("place:2743000");
    expect(f.resources.some((r: any) => r.topics.includes("floodplain"))).toBe(true);
  });
  test("zone X with the 0.2 % subtype → moderate; BFE -9999 is no BFE", async () => {
    const f = (await at(W.FLOOD_POINTS.moderate)).flood;
    expect(f.status).toBe("moderate");
    expect(f.values).toMatchObject({
      zone: "X",
      subtype: "0.2 PCT ANNUAL CHANCE FLOOD HAZARD",
      base_flood_elevation_ft: null,
    });
  });
  test("zone X, area of minimal flood hazard → minimal", async () => {
    expect((await at(W.FLOOD_POINTS.minimal)).flood.status).toBe("minimal");
  });
  test("zone D → unmapped; a panel without hazard areas → unmapped; no panel, no zone → unmapped", async () => {
    const dz = (await at(W.FLOOD_POINTS.unmapped_d)).flood;
    expect([dz.status, dz.values.zone]).toEqual(["unmapped", "D"]);
    const panel = (await at(W.FLOOD_POINTS.unmapped_panel_only)).flood;
    expect(panel.status).toBe("unmapped");
    expect(panel.detail).toContain("27053C0358F");
    const none = (await at(W.FLOOD_POINTS.unmapped_nothing)).flood;
    expect([none.status, none.values.firm_panel, none.as_of]).toEqual(["unmapped", null, null]);
  });
});

describe("wetlands (USFWS NWI)", () => {
  test("inside a mapped wetland → yes, with Cowardin code, type and the project's image year", async () => {
    const f = (await at(W.WETLAND_POINTS.yes)).wetlands;
    expect(f.status).toBe("yes");
    expect(f.values).toMatchObject({
      cowardin_code: "PEM1C",
      wetland_type: "Freshwater Emergent Wetland",
      acres: 3.21,
      image_year: "2015",
    });
    expect(f.as_of).toBe("2015");
    expect(f.decided_by.description).toContain("Wetland Conservation Act");
  });
  test("about 16 m from one → near (within the stated 30 m)", async () => {
    const f = (await at(W.WETLAND_POINTS.near)).wetlands;
    expect(f.status).toBe("near");
    expect(f.values.distance_m).toBeGreaterThan(10);
    expect(f.values.distance_m).toBeLessThanOrEqual(30);
    expect(f.summary).toContain("30 m");
  });
  test("none within 30 m → no", async () => {
    expect((await at(W.WETLAND_POINTS.no)).wetlands.status).toBe("no");
  });
});

describe("soils (NRCS SDA)", () => {
  test("a map unit → ok with musym, name, survey area version and date", async () => {
    const f = (await at(W.SOIL_POINTS.ok)).soils;
    expect(f.status).toBe("ok");
    expect(f.values).toMatchObject({
      map_unit: "U1A",
      mukey: "2474384",
      survey_area: "MN053",
      survey_version: "19",
      survey_version_date: "2023-09-08",
    });
    expect(f.as_of).toBe("2023-09-08");
  });
  test("zero rows ({}) → none", async () => {
    expect((await at(W.SOIL_POINTS.none)).soils.status).toBe("none");
  });
});

describe("elevation (USGS EPQS)", () => {
  test("a string value → ok in feet", async () => {
    const f = (await at(W.ELEVATION_POINTS.ok)).elevation;
    expect(f.status).toBe("ok");
    expect(typeof f.values.feet).toBe("number");
    expect(f.values.feet).toBeGreaterThan(800);
    expect(f.values.resolution_m).toBe(1);
  });
  test("the no-data sentinel → unknown", async () => {
    const f = (await at(W.ELEVATION_POINTS.unknown)).elevation;
    expect(f.status).toBe("unknown");
    expect(f.detail).toContain("no data");
    const before = d.epqs.calls;
    const again = await call(
      app,
      `/v1/screening?lat=${W.ELEVATION_POINTS.unknown.lat}&lon=${W.ELEVATION_POINTS.unknown.lon}`,
    );
    expect(d.epqs.calls).toBe(before + 1); // unknown is never cached
  });
});

describe("shoreland (MN DNR PWI, Minnesota only)", () => {
  test("within 1,000 ft of a public water basin → likely", async () => {
    const f = (await at(W.SHORELAND_POINTS.basin)).shoreland;
    expect(f.status).toBe("likely");
    expect(f.values).toMatchObject({ basin: "Test Lake", basin_id: "27999900" });
    expect(f.values.basin_distance_ft).toBeGreaterThan(300);
    expect(f.values.basin_distance_ft).toBeLessThan(1000);
  });
  test("within 300 ft of a public watercourse → likely", async () => {
    const f = (await at(W.SHORELAND_POINTS.creek)).shoreland;
    expect([f.status, f.values.watercourse]).toEqual(["likely", "Test Creek"]);
  });
  test("neither → no", async () => {
    expect((await at(W.SHORELAND_POINTS.no)).shoreland.status).toBe("no");
  });
  test("outside Minnesota the shoreland fact is absent", async () => {
    const f = await at(W.WISCONSIN);
    expect(Object.keys(f).sort()).toEqual(["elevation", "flood", "radon", "soils", "wetlands"]);
  });
});

describe("radon (EPA map of radon zones, from the data file, no outside call)", () => {
  test("zone_1, zone_2, zone_3 and not_listed by county", async () => {
    const cases: [{ lon: number; lat: number }, string][] = [
      [W.C, "zone_1"], // Hennepin County, MN
      [{ lon: -118.2437, lat: 34.0522 }, "zone_2"], // Los Angeles County, CA
      [{ lon: -95.3698, lat: 29.7604 }, "zone_3"], // Harris County, TX
      [{ lon: -77.0365, lat: 38.8977 }, "not_listed"], // District of Columbia
    ];
    for (const [p, zone] of cases) {
      const f = (await at(p)).radon;
      expect(f.status).toBe(zone);
      expect(f.as_of).toBe("1993");
      expect(f.decided_by).toEqual({ description: expect.any(String), function: null, office: null });
    }
  });
  test("radon still answers with every service down", async () => {
    for (const x of d.all) x.mode = "down";
    try {
      const f = await at({ lon: W.C.lon + 0.03, lat: W.C.lat + 0.01 }); // Hennepin County, a cell not asked before
      expect(f.radon.status).toBe("zone_1");
      for (const k of ["flood", "wetlands", "soils", "elevation", "shoreland"]) expect(f[k].status).toBe("unknown");
    } finally {
      d.reset();
    }
  });
});

describe("the wire", () => {
  test("bad coordinates → 400 bad-point (missing, one alone, out of range, not a number)", async () => {
    for (const q of [
      "",
      "?lat=45",
      "?lon=-93",
      "?lat=91&lon=-93",
      "?lat=45&lon=-181",
      "?lat=abc&lon=-93",
      "?lat=45&lon=1e999",
    ]) {
      const r = await call(app, `/v1/screening${q}`);
      expect({ q, status: r.status, type: r.json.type }).toEqual({ q, status: 400, type: `${PROBLEMS}/bad-point` });
      expect(r.headers.get("cache-control")).toBe("no-store");
    }
  });
  test("a point outside every covered state → 404 outside-coverage, no outside call", async () => {
    const before = d.all.reduce((n, x) => n + x.calls, 0);
    const r = await call(app, `/v1/screening?lat=${W.OCEAN.lat}&lon=${W.OCEAN.lon}`);
    expect([r.status, r.json.type]).toEqual([404, `${PROBLEMS}/outside-coverage`]);
    expect(d.all.reduce((n, x) => n + x.calls, 0)).toBe(before);
  });
  test("200 carries Cache-Control public, max-age=3600, an ETag, and sources naming each service", async () => {
    const r = await call(app, `/v1/screening?lat=${W.C.lat}&lon=${W.C.lon}`);
    expect(r.headers.get("cache-control")).toBe("public, max-age=3600");
    expect(r.headers.get("etag")).toMatch(/^W\/"[0-9a-f]{32}"$/);
    const names = r.json.sources.map((s: any) => s.name);
    for (const n of ["FEMA National Flood Hazard Layer (NFHL)", "USFWS National Wetlands Inventory (NWI)"])
      expect(names).toContain(n);
    const again = await call(app, `/v1/screening?lat=${W.C.lat}&lon=${W.C.lon}`, {
      headers: { "If-None-Match": r.headers.get("etag")! },
    });
    expect(again.status).toBe(304);
  });
  test("every fact carries every required field, caveat and decider", async () => {
    const f = await at(W.C);
    for (const [k, v] of Object.entries<any>(f)) {
      expect({ k, keys: Object.keys(v) }).toEqual({
        k,
        keys: [
          "status",
          "summary",
          "detail",
          "values",
          "dataset",
          "publisher",
          "as_of",
          "caveat",
          "decided_by",
          "resources",
        ],
      });
      expect(v.caveat.length).toBeGreaterThan(20);
      expect(v.decided_by.description.length).toBeGreaterThan(20);
    }
  });
});
