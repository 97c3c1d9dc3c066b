// Page caps and the provenance notice, on an atlas-only data file with fixture records (120 resources on
// Hennepin County, and records whose origin is not documented).
import { beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { call, liftedLimits, testConfig, type FileDeps } from "../helpers/app";
import { fixtureDataFile } from "../helpers/data-file";
import { buildDeps } from "../../src/cli/compose";
import { createApp, type App } from "../../src/http/app";
import { contentFromStore } from "../../src/directory/content";

let app: App, deps: FileDeps;
beforeAll(async () => {
  const db = new Database(await fixtureDataFile(), { readonly: true });
  const cfg = testConfig({ limits: liftedLimits() });
  deps = buildDeps(cfg, {
    db,
    manifest: { as_of: "2026-11-22T00:00:00Z", content_sha256: "fixture" },
    content: contentFromStore(db),
  }) as FileDeps;
  app = createApp(deps);
}, 600_000);

const ids = (r: any) => r.json.data.resources.map((x: any) => x.resource_id);

describe("page size caps", () => {
  test("limit default 50; without a key a larger value gives 50 and a next_cursor", async () => {
    const d = await call(app, "/v1/resources?jurisdiction_id=county:27053");
    expect(ids(d).length).toBe(50);
    const anon = await call(app, "/v1/resources?jurisdiction_id=county:27053&limit=100");
    expect(ids(anon).length).toBe(50);
    expect(anon.json.data.next_cursor).toBeTruthy();
  });
  test("a key raises the cap to 100, and never changes what a result holds or its order", async () => {
    const { key } = deps.keys.create("standard", "cap");
    const anon = await call(app, "/v1/resources?jurisdiction_id=county:27053&limit=100");
    const keyed = await call(app, "/v1/resources?jurisdiction_id=county:27053&limit=100", {
      headers: { Authorization: `Bearer ${key}` },
    });
    expect(ids(keyed).length).toBe(100);
    expect(ids(keyed).slice(0, 50)).toEqual(ids(anon));
    // walking the anonymous pages gives the keyed order
    const p2 = await call(
      app,
      `/v1/resources?jurisdiction_id=county:27053&limit=100&cursor=${anon.json.data.next_cursor}`,
    );
    expect([...ids(anon), ...ids(p2)]).toEqual(ids(keyed));
  });
  test("places pages its own resources the same way", async () => {
    const p = await call(app, "/v1/places/county:27053?limit=100");
    expect(p.json.data.resources.length).toBe(50);
    expect(p.headers.get("link")).toContain('rel="next"');
  });
});

describe("records without a documented origin", () => {
  test("are left out of answers and counted in notices", async () => {
    const r = await call(app, "/v1/resources?jurisdiction_id=county:27053&topic=parcel_map&limit=100", {
      headers: { Authorization: `Bearer ${deps.keys.create("partner", "n").key}` },
    });
    const got = ids(r);
    expect(got).toContain("fixture-documented-resource");
    expect(got).not.toContain("fixture-undocumented-resource");
    expect(got).not.toContain("fixture-nopub-resource");
    expect(r.json.notices.join(" ")).toMatch(/2 directory records were left out/);
  });
  test("an undocumented jurisdiction is unknown", async () => {
    const r = await call(app, "/v1/places/district:fixture-undocumented-board");
    expect(r.status).toBe(404);
  });
});

describe("function resources", () => {
  test("tax_collection lists the property_tax_payment page first, whatever the sort_key", async () => {
    const r = await call(app, "/v1/jurisdictions/resolve?jurisdiction_id=county:27053");
    const tc = r.json.data.functions.tax_collection;
    expect(tc.jurisdiction_id).toBe("county:27053");
    expect(tc.resources.map((x: any) => x.resource_id)).toEqual(["fixture-pay-taxes", "fixture-tax-collector"]);
  });
});
