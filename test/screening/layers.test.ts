// Offline layers: `directory load-layer` copies the fixture layers (test/fixtures/layers: made up, not real maps)
// into a layers file with GDAL's ogr2ogr; where a loaded layer covers the point the fact comes from it (dataset
// names the file and date) with no outside call; elsewhere the outside service is asked; air-gapped + layer works.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Value } from "@sinclair/typebox/value";
import { call, ROOT } from "../helpers/app";
import { screeningApp } from "../helpers/screening-app";
import { runCli } from "../helpers/cli";
import { createWeb } from "../../src/web";
import { startScreeningDoubles, type ScreeningDoubles } from "../doubles/screening-services";
import { loadLayer } from "../../src/lookups/layers/load";
import { LayerStore } from "../../src/lookups/layers/store";
import { decodeLines } from "../../src/lookups/layers/blob-lines";
import { Envelope } from "../../src/http/schemas/common";
import { Screening } from "../../src/http/schemas/screening";

const FIX = join(ROOT, "test/fixtures/layers");
const dir = mkdtempSync(join(tmpdir(), "layers-test-"));
const layers = join(dir, "layers.sqlite");
let d: ScreeningDoubles;

beforeAll(async () => {
  d = startScreeningDoubles();
  // the command itself, as an operator runs it (GDAL's ogr2ogr is installed by scripts/setup.sh)
  const out = runCli([
    "load-layer",
    "--kind",
    "flood",
    join(FIX, "flood_27137C"),
    "--layers",
    layers,
    "--vintage",
    "2011-04-19",
  ]);
  expect(out).toContain("loaded flood");
  loadLayer({
    kind: "wetlands",
    file: join(FIX, "MN_geodatabase_wetlands"),
    layersFile: layers,
    vintage: "2013",
    state: "MN",
  });
  loadLayer({ kind: "shoreland", file: join(FIX, "mn_pwi"), layersFile: layers, vintage: "2024-01-01" });
  loadLayer({ kind: "soils", file: join(FIX, "soil_mn137"), layersFile: layers, vintage: "2023-10-01" });
  await screeningApp(d);
}, 600_000);
afterAll(() => {
  d.stop();
  rmSync(dir, { recursive: true, force: true });
});

const AE = { lon: -92.1042, lat: 46.78 }; // fixture zone AE, ~15 m west of the fixture wetland
const WET = { lon: -92.103, lat: 46.78 }; // inside the fixture wetland (and zone AE)
const LAKE = { lon: -92.0965, lat: 46.78 }; // ~270 m west of Fixture Lake, zone X
const OUTSIDE = { lon: -92.3, lat: 46.9 }; // Minnesota, outside every fixture layer

describe("load-layer", () => {
  test("records the source trail: publisher, file name, sha256, vintage, state, feature counts", () => {
    const list = LayerStore.open(layers)!.list();
    expect(list.map((l) => l.kind).sort()).toEqual(["flood", "shoreland", "soils", "wetlands"]);
    const flood = list.find((l) => l.kind === "flood")!;
    expect(flood.origin).toMatchObject({
      publisher: "Federal Emergency Management Agency (FEMA)",
      as_of: "2011-04-19",
      loaded: true,
    });
    expect(flood.origin.dataset).toContain("flood_27137C");
    expect(flood.origin.url).toMatch(/^urn:sha256:[0-9a-f]{64}$/);
    expect(flood.tables.map((t) => `${t.tag}:${t.features}`).sort()).toEqual(["hazard:2", "panel:1"]);
  });
  test("watercourses stay lines (decoded without mod_spatialite)", () => {
    const store = LayerStore.open(layers)!;
    const hit = store.query("shoreland", -92.1, 46.7761, 100, "MN")!;
    const creek = hit.features.find((f) => f.layer === "watercourse")!;
    expect(creek.lines?.length).toBe(1);
    expect(decodeLines(new Uint8Array(10))).toBeNull();
  });
  test("a file without the kind's layer is refused with a clear message", () => {
    expect(() =>
      loadLayer({ kind: "flood", file: join(FIX, "soil_mn137"), layersFile: join(dir, "other.sqlite") }),
    ).toThrow(/no flood layer found/);
  });
});

describe("answers from loaded layers", () => {
  test("where the layers cover the point: flood, wetlands and soils from the files, no outside call", async () => {
    const { app } = await screeningApp(d, { layersFile: layers });
    d.reset();
    const r = await call(app, `/v1/screening?lat=${WET.lat}&lon=${WET.lon}`);
    expect(r.status).toBe(200);
    expect(Value.Check(Envelope(Screening), r.json)).toBe(true);
    const f = r.json.data.facts;
    expect([f.flood.status, f.flood.values.zone, f.flood.values.firm_panel, f.flood.as_of]).toEqual([
      "sfha",
      "AE",
      "27137C1234E",
      "2011-04-19",
    ]);
    expect(f.flood.dataset).toContain("flood_27137C (loaded layer");
    expect([f.wetlands.status, f.wetlands.values.cowardin_code, f.wetlands.as_of]).toEqual(["yes", "PFO1A", "2013"]);
    expect([f.soils.status, f.soils.values.map_unit, f.soils.values.survey_version]).toEqual(["ok", "1027A", "12"]);
    // the fixture PWI covers only its own extent widened by 1,000 ft: here the configured DNR layer is asked
    expect(f.shoreland.dataset).toBe("MN DNR Public Waters Inventory (PWI)");
    expect([d.fema.calls, d.nwi.calls, d.sda.calls]).toEqual([0, 0, 0]);
    expect(d.epqs.calls).toBe(1); // elevation has no loaded layer
    expect(r.json.sources.some((s: any) => /^urn:sha256:/.test(s.url))).toBe(true);
  });
  test("statuses from the layers: X → minimal, near a lake → shoreland likely, wetland near/no", async () => {
    const { app } = await screeningApp(d, { layersFile: layers });
    d.reset();
    const f = (await call(app, `/v1/screening?lat=${LAKE.lat}&lon=${LAKE.lon}`)).json.data.facts;
    expect(f.flood.status).toBe("minimal");
    expect([f.shoreland.status, f.shoreland.values.basin]).toEqual(["likely", "Fixture Lake"]);
    expect(f.shoreland.dataset).toContain("mn_pwi (loaded layer");
    expect(d.dnr.calls).toBe(0);
    expect(f.wetlands.status).toBe("no");
    const ae = (await call(app, `/v1/screening?lat=${AE.lat}&lon=${AE.lon}`)).json.data.facts;
    expect(ae.wetlands.status).toBe("near");
  });
  test("outside the loaded layers the outside services answer", async () => {
    const { app } = await screeningApp(d, { layersFile: layers });
    d.reset();
    const f = (await call(app, `/v1/screening?lat=${OUTSIDE.lat}&lon=${OUTSIDE.lon}`)).json.data.facts;
    expect(f.flood.dataset).toBe("FEMA National Flood Hazard Layer (NFHL)");
    expect(d.fema.calls).toBe(2);
  });
  test("air-gapped: services off, the layers still answer where they cover; elsewhere 'not available on this server'", async () => {
    const off = { enabled: false, base_url: "", timeout_ms: 200 };
    const { app } = await screeningApp(d, {
      layersFile: layers,
      screening: { flood: off, wetlands: off, soils: off, elevation: off, shoreland: { ...off, watercourses_url: "" } },
    });
    d.reset();
    const inside = (await call(app, `/v1/screening?lat=${WET.lat}&lon=${WET.lon}`)).json.data.facts;
    expect([inside.flood.status, inside.wetlands.status, inside.soils.status]).toEqual(["sfha", "yes", "ok"]);
    expect((await call(app, `/v1/screening?lat=${LAKE.lat}&lon=${LAKE.lon}`)).json.data.facts.shoreland.status).toBe(
      "likely",
    );
    expect(inside.elevation.detail).toContain("switched off on this server");
    const outside = (await call(app, `/v1/screening?lat=${OUTSIDE.lat}&lon=${OUTSIDE.lon}`)).json.data.facts;
    expect(outside.flood.status).toBe("unknown");
    expect(outside.flood.detail).toContain("switched off on this server");
    expect(d.all.reduce((n, x) => n + x.calls, 0)).toBe(0);
  });
});

describe("the screening page draws the loaded layers around the point", () => {
  const paths = (html: string) => [...html.matchAll(/<path d="([^"]+)" fill="([^"]+)"/g)].map((m) => m[2]);
  test("the point, the flood zones and the wetland within 250 m, with a legend in the same SVG; the API sends no drawing", async () => {
    const { app, deps } = await screeningApp(d, { layersFile: layers });
    deps.web = createWeb(deps);
    d.reset();
    const r = await call(app, `/screening?lat=${AE.lat}&lon=${AE.lon}`);
    expect(r.status).toBe(200);
    const fig = /<figure class="point-drawing">[\s\S]*?<\/figure>/.exec(r.text)?.[0] ?? "";
    expect(fig).toContain('role="img"');
    // legend: the point, the 1 % zone (AE), the wetland; never the zone X (minimal) square nor the FIRM panel
    const legend = [...fig.matchAll(/<text x="30"[^>]*>(.*?)<\/text>/g)].map((m) => m[1]!.replace(/<[^>]+>/g, ""));
    expect(legend).toEqual(["The point screened", "1 % annual chance flood zone (SFHA)", "Mapped wetland"]);
    expect(paths(fig)).toEqual(["#2b6cb0", "#68d391"]);
    expect(fig).toContain('<circle cx="160" cy="160"');
    expect(fig).toContain("flood_27137C (loaded layer");
    expect(fig).not.toMatch(/\b(href|src)=|url\((?!#)/); // no tile, no outside asset
    expect([d.fema.calls, d.nwi.calls, d.sda.calls]).toEqual([0, 0, 0]); // from the files; the drawing asks no service
    const api = await call(app, `/v1/screening?lat=${AE.lat}&lon=${AE.lon}`);
    expect(JSON.stringify(api.json)).not.toContain("drawing");
  });
  test("public water in Minnesota: the basin as a polygon and the creek as a line", async () => {
    const { app, deps } = await screeningApp(d, { layersFile: layers });
    deps.web = createWeb(deps);
    const r = await call(app, `/screening?lat=${LAKE.lat}&lon=${LAKE.lon}`);
    const fig = /<figure class="point-drawing">[\s\S]*?<\/figure>/.exec(r.text)?.[0] ?? "";
    expect(fig).toContain("Public water (basin)");
    expect(paths(fig)).toContain("#63b3ed");
    const creek = await call(app, `/screening?lat=46.7761&lon=-92.1`);
    expect(creek.text).toContain("Public watercourse");
    expect(creek.text).toMatch(/<path d="M[^"]+" fill="none" stroke="#2a4365" stroke-width="3"/);
  });
  test("no figure where no loaded layer covers the point", async () => {
    const { app, deps } = await screeningApp(d, { layersFile: layers });
    deps.web = createWeb(deps);
    const r = await call(app, `/screening?lat=${OUTSIDE.lat}&lon=${OUTSIDE.lon}`);
    expect(r.status).toBe(200);
    expect(r.text).not.toContain("point-drawing");
  });
});
