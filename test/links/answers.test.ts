// verified → possibly_broken → verified as API answers show it (GET /v1/resources, /v1/places/{id}, resolve at a
// point through the memoised chain answer), with an injected clock; ETags follow; a data update keeps the results
// of unchanged URLs. The data file is the atlas build plus records whose URLs point at the loopback double.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildData } from "../../scripts/build-data";
import { buildDeps } from "../../src/cli/compose";
import { contentFromStore } from "../../src/directory/content";
import { createApp, type App } from "../../src/http/app";
import { checkLinks } from "../../src/links/checker";
import type { LinkResultsView } from "../../src/links/overlay";
import { LinkResults } from "../../src/links/results";
import { openStateFile } from "../../src/state/state-file";
import { call, ROOT, liftedLimits, testConfig } from "../helpers/app";
import { startLinkDouble, testResolver, type LinkDouble } from "../doubles/links";

const dir = mkdtempSync(join(tmpdir(), "links-answers-"));
let d: LinkDouble;

function records(port: number, extra = "") {
  const url = `http://flaky.test:${port}/flaky`;
  return `sources:
  - { source_id: links-fixture, name: Link checker fixture, url: "https://example.gov/links-fixture", publisher: Example County, vintage: "2026", official: true, license_class: open }
  - { source_id: links-fixture-page, name: Fixture county page, url: "${url}", publisher: Example County, vintage: "2026", official: true, license_class: open }
resources:
  - { resource_id: links-flaky-gis, jurisdiction_id: "county:27053", name: Flaky county GIS page, url: "${url}", topics: [county_gis], official: 1, verified_status: not_yet_verified, source_kind: hand-added, source_id: links-fixture, sort_key: 5 }
${extra}offices:
  - { office_id: links-flaky-office, jurisdiction_id: "county:27053", name: Fixture County GIS Office, kind: gis, function: gis, url: "${url}", verified_status: not_yet_verified, source_kind: hand-added, source_id: links-fixture-page }
`;
}

async function dataFile(name: string, yaml: string): Promise<Database> {
  const f = join(dir, `${name}.yaml`);
  writeFileSync(f, yaml);
  const out = join(dir, `${name}.sqlite`);
  await buildData({ out, sourcesDir: null, projectRoot: ROOT, log: () => {}, extraRecords: [f] });
  return new Database(out, { readonly: true });
}

function appOver(db: Database, stateFile: string): { app: App; view: LinkResultsView } {
  const cfg = testConfig({
    state_file: stateFile,
    limits: liftedLimits(),
  } as any);
  const deps = buildDeps(cfg, {
    db,
    manifest: { as_of: "2026-11-22T00:00:00Z", content_sha256: "links" },
    content: contentFromStore(db),
  });
  return { app: createApp(deps), view: deps.links.results as LinkResultsView };
}

let db: Database;
let stateFile: string;
let app: App;
let view: LinkResultsView;
beforeAll(async () => {
  d = startLinkDouble();
  db = await dataFile("v1", records(d.port));
  stateFile = join(dir, "state.sqlite");
  ({ app, view } = appOver(db, stateFile));
}, 120_000);
afterAll(() => d.stop());

const links = {
  ...testConfig().links,
  contact: "links@example.gov",
  per_host_delay_ms: 0,
  timeout_ms: 1000,
  broken_after_failures: 3,
  broken_after_days: 7,
};
const day = (n: number) => new Date(Date.UTC(2026, 10, 1 + n, 12));
/** One check run at day n, in this process (the view is updated at once). */
const runAt = (n: number, results = new LinkResults(view.db), withView = true) =>
  checkLinks([d.url("flaky.test", "/flaky")], {
    cfg: links,
    results,
    view: withView ? view : undefined,
    allowLoopback: true,
    resolver: testResolver(),
    now: () => day(n),
  });

async function shown() {
  const res = await call(app, "/v1/resources?jurisdiction_id=county:27053&limit=100");
  const place = await call(app, "/v1/places/county:27053?limit=100");
  const point = await call(app, "/v1/jurisdictions/resolve?lat=44.98&lon=-93.27");
  expect([res.status, place.status, point.status]).toEqual([200, 200, 200]);
  const r = res.json.data.resources.find((x: any) => x.resource_id === "links-flaky-gis");
  const pr = place.json.data.resources.find((x: any) => x.resource_id === "links-flaky-gis");
  const office = place.json.data.offices.find((x: any) => x.office_id === "links-flaky-office");
  const gis = point.json.data.functions.gis;
  const fr = gis.resources.find((x: any) => x.resource_id === "links-flaky-gis");
  // every answer shows the same current values
  expect(pr).toEqual(r);
  expect(fr).toEqual(r);
  expect({ s: office.verified_status, a: office.verified_at }).toEqual({ s: r.verified_status, a: r.verified_at });
  expect({ s: gis.office.verified_status, a: gis.office.verified_at }).toEqual({
    s: r.verified_status,
    a: r.verified_at,
  });
  // a Source whose URL was checked carries the optional verified_status / verified_at; others do not
  const src = place.json.sources.find((x: any) => x.url === r.url);
  const other = place.json.sources.find((x: any) => x.url === "https://example.gov/links-fixture");
  expect(other.verified_status).toBeUndefined();
  if (r.verification_method)
    expect({ s: src.verified_status, a: src.verified_at }).toEqual({ s: r.verified_status, a: r.verified_at });
  else expect(src.verified_status).toBeUndefined();
  return { r, etags: [res.headers.get("etag"), place.headers.get("etag"), point.headers.get("etag")] };
}

describe("verified_status over time in API answers (N = 3 failures over M = 7 days)", () => {
  test("not checked → verified → (failures) verified → possibly_broken → verified; ETags change with each change", async () => {
    const s0 = await shown();
    expect(s0.r).toMatchObject({
      verified_status: "not_yet_verified",
      verified_at: null,
      verification_method: null,
      last_http_status: null,
    });

    d.flaky.status = 200;
    await runAt(0);
    const s1 = await shown();
    expect(s1.r).toMatchObject({
      verified_status: "verified",
      verified_at: "2026-11-01",
      verification_method: "automated",
      last_http_status: 200,
    });
    for (let i = 0; i < 3; i++) expect(s1.etags[i]).not.toBe(s0.etags[i]);
    const again = await call(app, "/v1/resources?jurisdiction_id=county:27053&limit=100", {
      headers: { "If-None-Match": s0.etags[0]! },
    });
    expect(again.status).toBe(200);

    d.flaky.status = 500;
    for (const n of [1, 2, 3]) {
      await runAt(n);
      const s = await shown();
      // 3 failures by day 3, but only 2 days since the first: still verified, last status shown
      expect(s.r).toMatchObject({
        verified_status: "verified",
        verified_at: "2026-11-01",
        last_http_status: 500,
        verification_method: "automated",
      });
    }
    await runAt(8);
    const s8 = await shown();
    expect(s8.r).toMatchObject({
      verified_status: "possibly_broken",
      verified_at: "2026-11-01",
      last_http_status: 500,
    });
    const row = new LinkResults(view.db).get(d.url("flaky.test", "/flaky"))!;
    expect(row).toMatchObject({
      consecutive_failures: 4,
      first_failure_at: day(1).toISOString(),
      final_url: d.url("flaky.test", "/flaky"),
      verification_method: "automated",
    });

    d.flaky.status = 200;
    await runAt(9);
    const s9 = await shown();
    expect(s9.r).toMatchObject({ verified_status: "verified", verified_at: "2026-11-10", last_http_status: 200 });
    for (let i = 0; i < 3; i++) expect(s9.etags[i]).not.toBe(s8.etags[i]);
    // unchanged results → unchanged ETags (a repeat answers 304)
    const same = await call(app, "/v1/places/county:27053?limit=100", { headers: { "If-None-Match": s9.etags[1]! } });
    expect(same.status).toBe(304);
  });

  test("a check-links run in another process (another connection) is picked up by refresh()", async () => {
    d.flaky.status = 404;
    const other = new LinkResults(openStateFile(stateFile));
    for (const n of [20, 24, 28]) await runAt(n, other, false);
    expect((await shown()).r.verified_status).toBe("verified"); // not yet re-read
    expect(view.refresh()).toBe(true);
    expect((await shown()).r).toMatchObject({ verified_status: "possibly_broken", last_http_status: 404 });
    expect(view.refresh()).toBe(false);
  });

  test("a data update keeps the results of URLs that did not change; a new URL starts not_yet_verified", async () => {
    const newUrl = `http://flaky.test:${d.port}/new-page`;
    const db2 = await dataFile(
      "v2",
      records(
        d.port,
        `  - { resource_id: links-new-page, jurisdiction_id: "county:27053", name: New page, url: "${newUrl}", topics: [county_gis], official: 1, verified_status: not_yet_verified, source_kind: hand-added, source_id: links-fixture, sort_key: 6 }\n`,
      ),
    );
    const { app: app2 } = appOver(db2, stateFile);
    const res = await call(app2, "/v1/resources?jurisdiction_id=county:27053&limit=100");
    const by = (id: string) => res.json.data.resources.find((x: any) => x.resource_id === id);
    expect(by("links-flaky-gis")).toMatchObject({ verified_status: "possibly_broken", last_http_status: 404 });
    expect(by("links-new-page")).toMatchObject({
      verified_status: "not_yet_verified",
      verified_at: null,
      last_http_status: null,
    });
  }, 120_000);
});
