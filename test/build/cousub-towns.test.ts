// Town (county subdivision) boundaries of Connecticut, Massachusetts, Maine, New Hampshire, Rhode Island and New
// Jersey (scripts/build/towns.ts) on the real data file: a point in a town resolves to that town over HTTP, the
// town-level functions of the state rules name the town, Connecticut towns sit in their 2022 planning region,
// and town/place twins stay one answer by name.
import { beforeAll, afterAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { Value } from "@sinclair/typebox/value";
import { call } from "../helpers/app";
import { fullApp, fullDirectory } from "../helpers/directory-app";
import { fullDataFile } from "../helpers/data-file";
import { Envelope } from "../../src/http/schemas/common";
import { ResolveResult } from "../../src/http/schemas/directory";
import type { App } from "../../src/http/app";

let app: App, db: Database;
beforeAll(async () => {
  ({ app } = await fullApp());
  db = new Database(await fullDataFile(), { readonly: true });
}, 600_000);
afterAll(() => db?.close());

// One town per state. Each point is the grid point farthest from the town's edges in the file's own geometry
// (about 3 km or more inside), so it is inside the town whatever the neighbouring layers say.
const TOWNS = [
  {
    town: "Bethel, CT (Western planning region)",
    lon: -73.38884,
    lat: 41.37245,
    cousub: "cousub:0900104720",
    county: "county:09190",
    town_level: ["assessment", "tax_collection", "recording"],
  },
  {
    town: "Lenox, MA",
    lon: -73.26941,
    lat: 42.37653,
    cousub: "cousub:2500334970",
    county: "county:25003",
    town_level: ["assessment", "tax_collection"],
  },
  {
    town: "Brunswick, ME",
    lon: -70.00709,
    lat: 43.8922,
    cousub: "cousub:2300508430",
    county: "county:23005",
    town_level: ["assessment", "tax_collection"],
  },
  {
    town: "Hanover, NH",
    lon: -72.18465,
    lat: 43.71482,
    cousub: "cousub:3300933860",
    county: "county:33009",
    town_level: ["assessment", "tax_collection"],
  },
  {
    town: "South Kingstown, RI",
    lon: -71.54973,
    lat: 41.4594,
    cousub: "cousub:4400967460",
    county: "county:44009",
    town_level: ["assessment", "tax_collection", "recording"],
  },
  {
    town: "Cherry Hill township, NJ",
    lon: -74.98956,
    lat: 39.89257,
    cousub: "cousub:3400712280",
    county: "county:34007",
    town_level: ["assessment", "tax_collection"],
  },
] as const;

const resolve = async (lat: number, lon: number) => {
  const r = await call(app, `/v1/jurisdictions/resolve?lat=${lat}&lon=${lon}`);
  expect(r.status).toBe(200);
  expect(Value.Check(Envelope(ResolveResult), r.json)).toBe(true);
  return r.json.data as {
    jurisdictions: { jurisdiction_id: string; type: string; name: string; same_as: string[] }[];
    functions: Record<string, any>;
  };
};

describe("a point in a town resolves to its county subdivision (GET /v1/jurisdictions/resolve)", () => {
  for (const t of TOWNS) {
    test(`${t.town}: chain state → county → ${t.cousub}; town-level functions name the town`, async () => {
      const d = await resolve(t.lat, t.lon);
      const ids = d.jurisdictions.map((j) => j.jurisdiction_id);
      expect(ids.slice(0, 3)).toEqual([`state:${t.cousub.slice(7, 9)}`, t.county, t.cousub]);
      const body = d.jurisdictions.find((j) => j.jurisdiction_id === t.cousub)!;
      expect(body.type).toBe("cousub");
      expect(body.name.toLowerCase()).toContain(t.town.split(/[ ,]/)[0]!.toLowerCase());
      for (const fn of t.town_level) expect({ fn, id: d.functions[fn].jurisdiction_id }).toEqual({ fn, id: t.cousub });
    });
  }

  test("a city-town that OCD lists only as a place: Bristol, CT is cousub + place twins, in the Naugatuck Valley region", async () => {
    const d = await resolve(41.68139, -72.94097);
    expect(d.jurisdictions.map((j) => j.jurisdiction_id)).toEqual([
      "state:09",
      "county:09140",
      "cousub:0900308490",
      "place:0908420",
    ]);
    expect(d.jurisdictions[2]!.same_as).toContain("place:0908420");
    expect(d.functions.assessment.jurisdiction_id).toBe("cousub:0900308490");
  });

  test("the answer's sources cite the town layer that placed the point (Hanover NH: the derived ODbL layer)", async () => {
    const r = await call(app, "/v1/jurisdictions/resolve?lat=43.71482&lon=-72.18465");
    const names = r.json.sources.map((s: any) => s.name);
    expect(names).toContainEqual(
      expect.stringMatching(/^New Hampshire towns, cities and unincorporated places dissolved from the MGGG/),
    );
    const byId = await call(app, "/v1/jurisdictions/resolve?jurisdiction_id=cousub:3300933860");
    expect(
      byId.json.sources.map((s: any) => s.name).filter((n: string) => n.startsWith("New Hampshire towns")),
    ).toEqual([]);
  });

  test("Princeton, NJ: the post-2013 code 3402160900 (census2010 field), same_as the place", async () => {
    const d = await resolve(40.35228, -74.67505);
    expect(d.jurisdictions.map((j) => j.jurisdiction_id)).toEqual([
      "state:34",
      "county:34021",
      "cousub:3402160900",
      "place:3460900",
    ]);
    expect(d.functions.assessment.jurisdiction_id).toBe("cousub:3402160900");
  });
});

describe("states whose town boundaries are not held say so", () => {
  test("a point in a New York town (Brighton, Monroe County) has no county subdivision, and a notice says why", async () => {
    const r = await call(app, "/v1/jurisdictions/resolve?lat=43.12&lon=-77.58");
    expect(r.status).toBe(200);
    expect(r.json.data.jurisdictions.map((j: any) => j.type)).toEqual(["state", "county"]);
    expect(r.json.notices).toContainEqual(
      expect.stringMatching(/^County subdivision \(town, township\) boundaries for New York are not held/),
    );
    expect(r.json.data.functions.assessment.jurisdiction_id).toBeNull();
  });
  test("no such notice in a state with town boundaries, nor when resolving by id", async () => {
    const t = TOWNS[0];
    const r = await call(app, `/v1/jurisdictions/resolve?lat=${t.lat}&lon=${t.lon}`);
    expect(r.json.notices.filter((n: string) => n.startsWith("County subdivision"))).toEqual([]);
    const byId = await call(app, "/v1/jurisdictions/resolve?jurisdiction_id=county:36055");
    expect(byId.json.notices.filter((n: string) => n.startsWith("County subdivision"))).toEqual([]);
  });
});

describe("the data file", () => {
  const all = <T>(sql: string, ...p: any[]) => db.query(sql).all(...p) as T[];
  const one = <T>(sql: string, ...p: any[]) => db.query(sql).get(...p) as T;

  test("town boundaries per state, at full precision from the declared files", () => {
    const got = Object.fromEntries(
      all<{ state: string; n: number }>(
        "SELECT state, count(*) n FROM jurisdictions WHERE type='cousub' AND geom IS NOT NULL AND boundary_precision='full' AND state IN ('CT','MA','ME','NH','RI','NJ') GROUP BY state",
      ).map((r) => [r.state, r.n]),
    );
    // NH: 259 features less the 3 grants without a GEOID
    expect(got).toEqual({ CT: 169, MA: 351, ME: 532, NH: 256, NJ: 565, RI: 39 });
    const src = all<{ boundary_source: string }>(
      "SELECT DISTINCT boundary_source FROM jurisdictions WHERE type='cousub' AND state IN ('CT','MA','ME','NH','RI','NJ') AND geom IS NOT NULL",
    )
      .map((r) => r.boundary_source)
      .sort();
    expect(src).toEqual([
      "census-cb2020-ct-towns",
      "census-tiger-2019-me-cousub",
      "massgis-ma-towns-2020",
      "mggg-nh-towns-2020-derived",
      "njogis-nj-municipalities-2021",
      "rigis-ri-municipalities-1997",
    ]);
    for (const s of src)
      expect(
        one<{ documented: number; sha256: string }>("SELECT documented, sha256 FROM sources WHERE source_id=?", s),
      ).toMatchObject({ documented: 1 });
  });

  test("records the OCD list lacks are added with the file as their source, and documented", () => {
    const r = one<any>(
      "SELECT name, source_id, documented, county_id FROM jurisdictions WHERE jurisdiction_id='cousub:3402160900'",
    );
    expect(r).toEqual({
      name: "Princeton",
      source_id: "njogis-nj-municipalities-2021",
      documented: 1,
      county_id: "county:34021",
    });
    expect(one<any>("SELECT legal_type FROM jurisdictions WHERE jurisdiction_id='cousub:2301315125'").legal_type).toBe(
      "unorganized territory",
    );
  });

  test("every Connecticut town has a 2022 planning region as county_id (old county codes 001–015 replaced)", () => {
    const rows = all<{ jurisdiction_id: string; name: string; county_id: string | null }>(
      "SELECT jurisdiction_id, name, county_id FROM jurisdictions WHERE type='cousub' AND state='CT'",
    );
    expect(rows.length).toBe(169);
    for (const r of rows)
      expect({ id: r.jurisdiction_id, county: r.county_id }).toEqual({
        id: r.jurisdiction_id,
        county: expect.stringMatching(/^county:091[1-9]0$/),
      });
    const region = (id: string) => rows.find((r) => r.jurisdiction_id === id)!.county_id;
    expect(region("cousub:0900337070")).toBe("county:09110"); // Hartford: Capitol
    expect(region("cousub:0900370550")).toBe("county:09110"); // Southington (old Hartford County): Capitol
    expect(region("cousub:0900308490")).toBe("county:09140"); // Bristol (old Hartford County): Naugatuck Valley
    expect(region("cousub:0900174190")).toBe("county:09120"); // Stratford: Greater Bridgeport
    expect(region("cousub:0901586790")).toBe("county:09180"); // Windham town: Southeastern
    expect(region("cousub:0901157040")).toBe("county:09130"); // Old Lyme (old New London County): Lower CT River Valley
  });

  test("recoded Massachusetts towns: the 2020 code is added and same_as the OCD record of the old code", () => {
    const twins = (id: string) =>
      all<{ other_id: string }>("SELECT other_id FROM same_as WHERE jurisdiction_id=?", id).map((r) => r.other_id);
    expect(twins("cousub:2501724960")).toContain("cousub:2501724925"); // Framingham city <- Framingham town
    expect(twins("cousub:2501724925")).toContain("cousub:2501724960");
    expect(twins("cousub:2501501370")).toContain("cousub:2501501325"); // Amherst Town city <- Amherst town
    expect(twins("cousub:2303165725")).toContain("cousub:2303165760"); // Sanford city <- Sanford town (ME)
  });

  test("the in-memory index chains a Connecticut town to its planning region, state prefix consistent", async () => {
    const idx = (await fullDirectory()).directory.index;
    expect(idx.lookup(-72.94097, 41.68139)).toEqual({
      state: "state:09",
      county: "county:09140",
      cousub: "cousub:0900308490",
      place: "place:0908420",
    });
  });
});

describe("names: a town that is also a place stays one answer", () => {
  for (const [place, state] of [
    ["Princeton", "NJ"],
    ["Hartford", "CT"],
    ["Framingham", "MA"],
    ["Warwick", "RI"],
    ["Concord", "NH"],
  ]) {
    test(`${place}, ${state} → 200, the place`, async () => {
      const r = await call(app, `/v1/jurisdictions/resolve?place=${place}&state=${state}`);
      expect(r.status).toBe(200);
      expect(r.json.data.match.by).toBe("place");
    });
  }
  test("Providence, RI is the county or the city (409 with two choices), never the town twin as a third", async () => {
    const r = await call(app, "/v1/jurisdictions/resolve?place=Providence&state=RI");
    expect(r.status).toBe(409);
    expect(r.json.choices.map((c: any) => c.jurisdiction_id)).toEqual(["county:44007", "place:4459000"]);
  });
});
