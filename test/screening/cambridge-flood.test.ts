// Flood zones loaded offline, for real: the City of Cambridge's clip of the FEMA flood map (S_FLD_HAZ_AR fields in
// lower case, static_bfe -9999 for none, DFIRM 25017C, effective 2025-07-08; ../shared/data/cambridge-ma), its 1 %
// and 0.2 % files loaded as one flood load with the city boundary as its coverage. /v1/screening answers from the
// files with no outside call; the points are checked against the raw files here, independently of the loader.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { call } from "../helpers/app";
import { SHARED_DATA } from "../helpers/data-file";
import { propsHolding } from "../helpers/raw-shapes";
import { screeningApp } from "../helpers/screening-app";
import { runCli } from "../helpers/cli";
import { startScreeningDoubles, type ScreeningDoubles } from "../doubles/screening-services";
import { LayerStore } from "../../src/lookups/layers/store";
import { loadLayer } from "../../src/lookups/layers/load";
import { createWeb } from "../../src/web";

const C = join(SHARED_DATA, "cambridge-ma");
const dir = mkdtempSync(join(tmpdir(), "cambridge-flood-"));
const layers = join(dir, "layers.sqlite");
let d: ScreeningDoubles;
let app: Awaited<ReturnType<typeof screeningApp>>["app"];

const raw = (f: string) => JSON.parse(readFileSync(join(C, f), "utf8")).features as any[];
const AE_BFE = { lon: -71.1402, lat: 42.3646 }; // zone AE with a base flood elevation of 3.5 ft (the Charles)
const FLOODWAY = { lon: -71.1556, lat: 42.3961 }; // zone AE, floodway, no BFE (-9999)
const X02 = { lon: -71.1567, lat: 42.3835 }; // zone X, 0.2 % annual chance
const DRY = { lon: -71.1056, lat: 42.3736 }; // in the city, in neither file
const BEYOND = { lon: -71.2, lat: 42.37 }; // Massachusetts, outside the city: not covered by the load

beforeAll(async () => {
  d = startScreeningDoubles();
  runCli([
    "load-layer",
    "--kind",
    "flood",
    join(C, "FEMA_FloodPlains100Year.geojson"),
    join(C, "FEMA_FloodPlains500Year.geojson"),
    "--extent",
    join(C, "BOUNDARY_CityBoundary.geojson"),
    "--publisher",
    "Federal Emergency Management Agency (FEMA), as clipped and published by the City of Cambridge, MA",
    "--vintage",
    "2025-07-08",
    "--layers",
    layers,
  ]);
  // the city's own wetland survey: its own kind, under its publisher's name, never the national inventory
  loadLayer({
    kind: "local_wetlands",
    file: join(C, "HYDRO_Wetlands.geojson"),
    layersFile: layers,
    publisher: "City of Cambridge, MA",
  });
  const a = await screeningApp(d, { layersFile: layers });
  app = a.app;
  a.deps.web = createWeb(a.deps);
}, 600_000);
afterAll(() => {
  d.stop();
  rmSync(dir, { recursive: true, force: true });
});

const flood = async (pt: { lon: number; lat: number }) => {
  d.reset();
  const r = await call(app, `/v1/screening?lat=${pt.lat}&lon=${pt.lon}`);
  expect(r.status).toBe(200);
  return r.json.data.facts.flood;
};

describe("the City of Cambridge's flood files, loaded offline", () => {
  test("the points lie where the raw files say", () => {
    const [h100, h500, city] = [
      "FEMA_FloodPlains100Year.geojson",
      "FEMA_FloodPlains500Year.geojson",
      "BOUNDARY_CityBoundary.geojson",
    ].map(raw);
    expect(propsHolding(h100!, AE_BFE.lon, AE_BFE.lat).map((p) => [p.fld_zone, p.static_bfe])).toEqual([["AE", 3.5]]);
    expect(propsHolding(h100!, FLOODWAY.lon, FLOODWAY.lat).map((p) => [p.zone_subty, p.static_bfe])).toEqual([
      ["FLOODWAY", -9999],
    ]);
    expect(propsHolding(h100!, X02.lon, X02.lat)).toEqual([]);
    expect(propsHolding(h500!, X02.lon, X02.lat).map((p) => p.zone_subty)).toEqual([
      "0.2 PCT ANNUAL CHANCE FLOOD HAZARD",
    ]);
    expect([propsHolding(h100!, DRY.lon, DRY.lat), propsHolding(h500!, DRY.lon, DRY.lat)]).toEqual([[], []]);
    expect(propsHolding(city!, DRY.lon, DRY.lat)).toHaveLength(1);
    expect(propsHolding(city!, BEYOND.lon, BEYOND.lat)).toHaveLength(0);
  });

  test("the trail: one load of both files, FEMA via the city, the effective date, the sha256, the city as coverage", () => {
    const load = LayerStore.open(layers)!
      .list()
      .find((l) => l.kind === "flood");
    expect(load!.kind).toBe("flood");
    expect(load!.origin).toMatchObject({
      dataset: expect.stringContaining(
        "FEMA_FloodPlains100Year.geojson + FEMA_FloodPlains500Year.geojson (loaded layer",
      ),
      publisher: expect.stringContaining("City of Cambridge"),
      as_of: "2025-07-08",
      loaded: true,
    });
    expect(load!.origin.url).toMatch(/^urn:sha256:[0-9a-f]{64}$/);
    expect(load!.tables.map((t) => `${t.tag}:${t.features}`).sort()).toEqual(["extent:1", "hazard:60"]);
  });

  test("zone AE → sfha with its zone, subtype and base flood elevation, as of the effective date; no outside call", async () => {
    const f = await flood(AE_BFE);
    expect([f.status, f.values.zone, f.values.base_flood_elevation_ft, f.values.dfirm_id, f.as_of]).toEqual([
      "sfha",
      "AE",
      3.5,
      "25017C",
      "2025-07-08",
    ]);
    expect(f.dataset).toContain("(loaded layer");
    expect(d.fema.calls).toBe(0);
    const fw = await flood(FLOODWAY);
    expect([fw.status, fw.values.subtype, fw.values.base_flood_elevation_ft]).toEqual(["sfha", "FLOODWAY", null]);
    expect(d.fema.calls).toBe(0);
  });

  test("the 0.2 % zone → moderate", async () => {
    const f = await flood(X02);
    expect([f.status, f.values.zone, f.values.subtype]).toEqual([
      "moderate",
      "X",
      "0.2 PCT ANNUAL CHANCE FLOOD HAZARD",
    ]);
    expect(d.fema.calls).toBe(0);
  });

  test("in the city outside both: the README's 'no hazard area at the point' → unmapped, from the load (no call)", async () => {
    const f = await flood(DRY);
    expect(f.status).toBe("unmapped");
    expect(f.dataset).toContain("(loaded layer");
    expect(d.fema.calls).toBe(0);
  });

  test("outside the city the load does not cover the point: the outside service is asked", async () => {
    const f = await flood(BEYOND);
    expect(f.dataset).toBe("FEMA National Flood Hazard Layer (NFHL)");
    expect(d.fema.calls).toBeGreaterThan(0);
  });
});

describe("the city's own wetland survey: loaded as what it is", () => {
  test("a local wetland survey needs its publisher named; it is listed as its own kind", () => {
    expect(() =>
      loadLayer({ kind: "local_wetlands", file: join(C, "HYDRO_Wetlands.geojson"), layersFile: join(dir, "x.sqlite") }),
    ).toThrow(/needs --publisher/);
    const local = LayerStore.open(layers)!
      .list()
      .find((l) => l.kind === "local_wetlands")!;
    expect(local.origin.publisher).toBe("City of Cambridge, MA");
    expect(local.origin.dataset).toContain("HYDRO_Wetlands.geojson");
    expect(local.tables.map((t) => `${t.tag}:${t.features}`)).toEqual(["wetland:31"]);
  });
  test("the wetlands fact stays the national inventory's; the page draws the city's wetlands under the city's name", async () => {
    d.reset();
    const api = await call(app, `/v1/screening?lat=${FLOODWAY.lat}&lon=${FLOODWAY.lon}`);
    expect(api.json.data.facts.wetlands.dataset).toBe("USFWS National Wetlands Inventory (NWI)");
    expect(JSON.stringify(api.json)).not.toContain("HYDRO_Wetlands");
    const page = await call(app, `/screening?lat=${FLOODWAY.lat}&lon=${FLOODWAY.lon}`);
    const fig = /<figure class="point-drawing">[\s\S]*?<\/figure>/.exec(page.text)?.[0] ?? "";
    expect(fig).toContain("1 % annual chance flood zone (SFHA)");
    expect(fig).toContain("Wetland mapped by City of Cambridge, MA (not the National Wetlands Inventory)");
    expect(fig).not.toContain(">Mapped wetland<");
  });
});
