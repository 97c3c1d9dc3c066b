// Towns and townships where the data file holds no boundaries (issue 20): the Census Bureau's TIGERweb County
// Subdivisions layer (a loopback double in its documented reply shape), polygons kept in the layers file, and an
// official county-subdivision file loaded offline with `load-boundaries`.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Directory } from "../../src/directory/directory";
import { TownFinder } from "../../src/lookups/towns/finder";
import { TownStore } from "../../src/lookups/towns/store";
import { loadBoundaries } from "../../src/lookups/towns/load";
import { fullDirectory } from "../helpers/directory-app";
import { buildDeps } from "../../src/cli/compose";
import { createApp } from "../../src/http/app";
import { call, liftedLimits, testConfig } from "../helpers/app";
import { squareTown, stagedTowns, startTigerweb, type TigerwebDouble } from "../doubles/tigerweb";

const STAGED = join(import.meta.dir, "../../../shared/data/cousub");
const dir = mkdtempSync(join(tmpdir(), "towns-"));
let n = 0;
const layersFile = () => join(dir, `layers-${++n}.sqlite`);
const free = () => ({ ok: true, retryAfter: 0 });
const finder = (
  d: TigerwebDouble,
  store: TownStore | null,
  over: Partial<{
    timeout_ms: number;
    max_bytes: number;
    enabled: boolean;
    take: () => { ok: boolean; retryAfter: number };
  }> = {},
) =>
  new TownFinder({
    store,
    service: {
      enabled: over.enabled ?? true,
      base_url: d.url,
      timeout_ms: over.timeout_ms ?? 2000,
      max_bytes: over.max_bytes ?? 4 * 1024 * 1024,
    },
    takeLookup: over.take ?? free,
  });
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the TIGERweb client and the kept polygons (staged Vermont towns served by the double)", () => {
  let d: TigerwebDouble;
  beforeAll(() => {
    d = startTigerweb(
      stagedTowns(
        join(STAGED, "vt_cousub_2010_towns.geojson"),
        (p) => p.GEOID10,
        (p) => p.NAMELSAD10,
      ),
    );
  });
  afterAll(() => d.stop());

  test("a point asks once; a second point inside the same polygon is answered from the layers file; across the edge asks again", async () => {
    const store = new TownStore(layersFile());
    const f = finder(d, store);
    d.calls = 0;
    const a = await f.find(-72.0183, 44.4192, "50"); // St. Johnsbury
    expect(a).toMatchObject({ hit: { geoid: "5000562200", kept: false, origin: { kind: "service" } } });
    const b = await f.find(-72.03, 44.43, "50");
    expect(b).toMatchObject({ hit: { geoid: "5000562200", kept: true } });
    expect(d.calls).toBe(1);
    const c = await f.find(-72.2, 44.5, "50"); // outside St. Johnsbury: another town, asked of the service
    expect(c).toMatchObject({ hit: { kept: false, origin: { kind: "service" } } });
    expect((c as any).hit.geoid).not.toBe("5000562200");
    expect(d.calls).toBe(2);
    expect(store.list()).toEqual([expect.objectContaining({ origin_kind: "service", towns: 2, states: "50" })]);
  });

  test("concurrent asks for one point share one call (single-flight)", async () => {
    const f = finder(d, new TownStore(layersFile()));
    d.calls = 0;
    const all = await Promise.all([1, 2, 3, 4].map(() => f.find(-72.0183, 44.4192, "50")));
    expect(all.every((x) => "hit" in x && x.hit.geoid === "5000562200")).toBe(true);
    expect(d.calls).toBe(1);
  });

  test("every failure is a miss that says why, nothing kept: down, slow, garbage, error inside a 200, oversized", async () => {
    for (const [mode, over] of [
      ["down", {}],
      ["slow", { timeout_ms: 300 }],
      ["garbage", {}],
      ["arcgis-error", {}],
      ["huge", { max_bytes: 1024 * 1024 }],
    ] as const) {
      const store = new TownStore(layersFile());
      d.mode = mode;
      const r = await finder(d, store, over).find(-72.0183, 44.4192, "50");
      expect(r).toMatchObject({ miss: "failed" });
      expect((r as any).detail).toContain("did not answer usably");
      expect(store.list()).toEqual([]);
    }
    d.mode = "ok";
  });

  test("switched off: no call, a miss saying so; the lookup limit used up: no call, a miss saying so", async () => {
    d.calls = 0;
    expect(await finder(d, null, { enabled: false }).find(-72.0183, 44.4192, "50")).toMatchObject({ miss: "off" });
    expect(
      await finder(d, null, { take: () => ({ ok: false, retryAfter: 30 }) }).find(-72.0183, 44.4192, "50"),
    ).toMatchObject({ miss: "limited" });
    expect(d.calls).toBe(0);
  });
});

describe("points in township states resolve to their town (the real data file)", () => {
  // squares with the real GEOIDs of the data file's records (the double's geometry; the records are the data file's)
  const MALONE = { lon: -74.2946, lat: 44.8487 }; // Malone, Franklin County, NY
  const CANTON = { lon: -83.482, lat: 42.308 }; // Canton charter township, Wayne County, MI
  const CRANBERRY = { lon: -80.107, lat: 40.684 }; // Cranberry township, Butler County, PA
  let d: TigerwebDouble;
  let base: Directory;
  let db: any;
  beforeAll(async () => {
    const full = await fullDirectory();
    db = full.db;
    base = full.directory;
    d = startTigerweb([
      squareTown("3603344721", "Malone town", MALONE.lon, MALONE.lat, 0.05),
      squareTown("2616313120", "Canton charter township", CANTON.lon, CANTON.lat, 0.03),
      squareTown("4201916920", "Cranberry township", CRANBERRY.lon, CRANBERRY.lat, 0.03),
    ]);
  }, 600_000);
  afterAll(() => d.stop());
  const directory = (f: TownFinder | null) => {
    const x = new Directory(db, base.content, base.links);
    x.towns = f;
    return x;
  };

  test("without the service (today's answer): no town, and a notice saying why", async () => {
    const r = await directory(finder(d, null, { enabled: false })).resolvePointTowns(MALONE.lon, MALONE.lat);
    const f = r.data.functions as any;
    expect(r.data.jurisdictions.some((j: any) => j.type === "cousub")).toBe(false);
    expect(f.assessment.jurisdiction_id).toBeNull();
    expect(r.notices.join(" ")).toContain("boundary service is switched off");
    expect(r.notices.join(" ")).toContain("are not held in this directory");
  });

  test("a New York town, a Michigan township and a Pennsylvania township: the town-level jobs name the town", async () => {
    const x = directory(finder(d, new TownStore(layersFile())));
    d.calls = 0;
    const ny = await x.resolvePointTowns(MALONE.lon, MALONE.lat);
    expect(ny.data.jurisdictions.map((j: any) => j.jurisdiction_id)).toContain("cousub:3603344721");
    expect((ny.data.functions as any).assessment.jurisdiction_id).toBe("cousub:3603344721");
    expect((ny.data.functions as any).tax_collection.jurisdiction_id).toBe("cousub:3603344721");
    expect(ny.sources.some((s: any) => s.publisher === "U.S. Census Bureau" && /TIGERweb/.test(s.name))).toBe(true);
    const mi = await x.resolvePointTowns(CANTON.lon, CANTON.lat);
    expect((mi.data.functions as any).assessment.jurisdiction_id).toBe("cousub:2616313120");
    const pa = await x.resolvePointTowns(CRANBERRY.lon, CRANBERRY.lat);
    expect((pa.data.functions as any).tax_collection.jurisdiction_id).toBe("cousub:4201916920");
    expect((pa.data.functions as any).assessment.jurisdiction_id).toBe("county:42019");
    expect(d.calls).toBe(3);
    // a second point in the same polygon: no outside call
    const again = await x.resolvePointTowns(MALONE.lon + 0.01, MALONE.lat - 0.01);
    expect((again.data.functions as any).assessment.jurisdiction_id).toBe("cousub:3603344721");
    expect(d.calls).toBe(3);
    // a point across the polygon's edge makes its own call
    await x.resolvePointTowns(MALONE.lon + 0.06, MALONE.lat);
    expect(d.calls).toBe(4);
  });

  test("the API route and MCP use it as composed by serve (config towns, the layers file)", async () => {
    const lf = layersFile();
    const cfg = testConfig({
      layers_file: lf,
      towns: { enabled: true, base_url: d.url, timeout_ms: 2000, max_bytes: 4 * 1024 * 1024 },
      limits: liftedLimits(["anon_address", "anon_all", "lookup"]),
    } as any);
    const deps = buildDeps(cfg, {
      db,
      manifest: { as_of: "2026-11-22T00:00:00Z", content_sha256: "t" },
      content: base.content,
    });
    const app = createApp(deps);
    d.calls = 0;
    const r = await call(app, `/v1/jurisdictions/resolve?lat=${MALONE.lat}&lon=${MALONE.lon}`);
    expect(r.status).toBe(200);
    expect(r.json.data.functions.assessment.jurisdiction_id).toBe("cousub:3603344721");
    expect(d.calls).toBe(1);
    expect(new TownStore(lf).find(MALONE.lon, MALONE.lat)?.geoid).toBe("3603344721");
  });

  test("a state whose town boundaries the data file holds never asks (Vermont)", async () => {
    d.calls = 0;
    const r = await directory(finder(d, null)).resolvePointTowns(-72.0183, 44.4192);
    expect(r.data.jurisdictions.some((j: any) => j.type === "cousub")).toBe(true);
    expect(d.calls).toBe(0);
  });

  test("load-boundaries: an official county-subdivision file answers the same offline", async () => {
    const file = join(dir, "tl_test_26_cousub.geojson");
    const sq = squareTown("2616313120", "Canton charter township", CANTON.lon, CANTON.lat, 0.03);
    writeFileSync(
      file,
      JSON.stringify({
        type: "FeatureCollection",
        features: [
          {
            type: "Feature",
            properties: {
              STATEFP: "26",
              COUNTYFP: "163",
              COUSUBFP: "13120",
              GEOID: "2616313120",
              NAME: "Canton",
              NAMELSAD: "Canton charter township",
              LSAD: "44",
              FUNCSTAT: "A",
            },
            geometry: { type: "Polygon", coordinates: sq.rings },
          },
        ],
      }),
    );
    const lf = layersFile();
    const r = loadBoundaries({ file, layersFile: lf, vintage: "2024" });
    expect(r).toMatchObject({ towns: 1, skipped: 0, states: ["26"] });
    const x = directory(finder(d, new TownStore(lf), { enabled: false }));
    const mi = await x.resolvePointTowns(CANTON.lon, CANTON.lat);
    expect((mi.data.functions as any).assessment.jurisdiction_id).toBe("cousub:2616313120");
    expect(mi.sources.some((s: any) => s.url === `urn:sha256:${r.sha256}`)).toBe(true);
  });

  test("load-boundaries reads a staged Census cartographic file (Connecticut) as an operator's download", () => {
    const lf = layersFile();
    const r = loadBoundaries({
      file: join(STAGED, "ct_towns_cb2020_cousub.geojson.gz"),
      layersFile: lf,
      vintage: "2020",
    });
    expect(r.towns).toBeGreaterThanOrEqual(169);
    expect(r.states).toEqual(["09"]);
    const s = new TownStore(lf);
    expect(s.find(-72.6734, 41.7658)).toMatchObject({ geoid: "0900337070", name: "Hartford" }); // the file's own GEOID and name
    s.close();
  });
});
