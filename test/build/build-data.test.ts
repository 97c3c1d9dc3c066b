// scripts/build-data.ts: one full build (real inputs in ../shared/data + a fixture of extra records), a second
// identical build for the content hash, and one atlas-only build. Builds are shared by all tests.
import { beforeAll, afterAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { buildData } from "../../scripts/build-data";
import { verifyManifest } from "../../src/directory/manifest";

const root = resolve(import.meta.dir, "../..");
const sourcesDir = resolve(root, "../shared/data");
const haveSources = existsSync(join(sourcesDir, "ocd/us_census_places.csv"));
const fixture = join(root, "test/fixtures/extra-records.yaml");
const dir = mkdtempSync(join(tmpdir(), "build-data-test-"));
const full = join(dir, "full.sqlite"),
  full2 = join(dir, "full2.sqlite"),
  atlas = join(dir, "atlas.sqlite");
let fullHash = "",
  full2Hash = "",
  fullSummary: any,
  atlasSummary: any;
let db: Database, adb: Database;
const quiet = () => {};

beforeAll(async () => {
  if (haveSources) {
    ({ contentSha256: fullHash, summary: fullSummary } = await buildData({
      out: full,
      sourcesDir,
      projectRoot: root,
      log: quiet,
      extraRecords: [fixture],
    }));
    ({ contentSha256: full2Hash } = await buildData({
      out: full2,
      sourcesDir,
      projectRoot: root,
      log: quiet,
      extraRecords: [fixture],
    }));
    db = new Database(full, { readonly: true });
  }
  ({ summary: atlasSummary } = await buildData({ out: atlas, sourcesDir: null, projectRoot: root, log: quiet }));
  adb = new Database(atlas, { readonly: true });
}, 600_000); // two full builds (about 1 min each on the shared 2-core machine) and one atlas build

afterAll(() => {
  db?.close();
  adb?.close();
  rmSync(dir, { recursive: true, force: true });
});

const one = (d: Database, sql: string, ...p: any[]) => d.query(sql).get(...p) as any;
const count = (d: Database, sql: string, ...p: any[]) => (d.query(sql).get(...p) as { n: number }).n;

describe("atlas-only build (--sources none)", () => {
  test("national states, DC, territories and counties", () => {
    expect(count(adb, "SELECT count(*) n FROM jurisdictions WHERE type='country'")).toBe(1);
    const states = count(adb, "SELECT count(*) n FROM jurisdictions WHERE type='state'");
    expect(states).toBeGreaterThanOrEqual(56);
    for (const id of ["state:11", "state:72", "state:78", "state:66", "state:69", "state:60", "state:27"])
      expect(one(adb, "SELECT jurisdiction_id FROM jurisdictions WHERE jurisdiction_id=?", id)).toBeTruthy();
    const counties = count(adb, "SELECT count(*) n FROM jurisdictions WHERE type='county'");
    expect(counties).toBeGreaterThan(3200);
    expect(counties).toBeLessThan(3300);
    expect(count(adb, "SELECT count(*) n FROM jurisdictions WHERE type IN ('cousub','place')")).toBe(0);
    expect(
      one(adb, "SELECT name, state, boundary_precision FROM jurisdictions WHERE jurisdiction_id='county:27053'"),
    ).toEqual({ name: "Hennepin County", state: "MN", boundary_precision: "1:10m" });
    expect(one(adb, "SELECT ocd_id FROM jurisdictions WHERE jurisdiction_id='state:27'").ocd_id).toBe(
      "ocd-division/country:us/state:mn",
    );
    expect(JSON.parse(atlasSummary.manifest.sources_used)).toContain("census-us-atlas-2023-counties");
    expect(verifyManifest(atlas).ok).toBe(true);
  });
});

describe.skipIf(!haveSources)("full build (real inputs)", () => {
  test("counts per layer", () => {
    const n = (type: string, extra = "") =>
      count(db, `SELECT count(*) n FROM jurisdictions WHERE type='${type}' ${extra}`);
    expect(n("state")).toBeGreaterThanOrEqual(56);
    expect(n("county")).toBeGreaterThan(3200);
    expect(n("county")).toBeLessThan(3300);
    expect(n("cousub")).toBeGreaterThan(16000);
    expect(n("place")).toBeGreaterThan(19000);
    expect(n("cousub", "AND state='MN'")).toBeGreaterThan(2700);
    expect(n("cousub", "AND state='MN' AND geom IS NOT NULL")).toBeGreaterThan(2600);
    expect(n("cousub", "AND state='VT' AND geom IS NOT NULL")).toBe(246);
    expect(n("place", "AND incorporated=1")).toBe(n("place"));
  });

  test("town layers: the build reports per state features read, matched, added, rejected with reasons", () => {
    const notes: string[] = fullSummary.notes;
    for (const line of [
      "towns CT (census-cb2020-ct-towns): read 169, matched to a record 149, added 20, rejected 0",
      "towns MA (massgis-ma-towns-2020): read 351, matched to a record 293, added 58, rejected 0",
      "towns ME (census-tiger-2019-me-cousub): read 532, matched to a record 465, added 67, rejected 0",
      "towns NH (mggg-nh-towns-2020-derived): read 259, matched to a record 222, added 34, rejected 3 no GEOID (New Hampshire grant the staging could not match)",
      "towns RI (rigis-ri-municipalities-1997): read 39, matched to a record 31, added 8, rejected 0",
      "towns NJ (njogis-nj-municipalities-2021): read 565, matched to a record 241, added 324, rejected 0",
    ])
      expect(notes).toContain(line);
    expect(notes.find((n) => n.startsWith("towns CT planning regions"))).toMatch(/0 unassigned$/);
  });

  test("Minneapolis place and cousub, same_as both ways", () => {
    const p = one(db, "SELECT * FROM jurisdictions WHERE jurisdiction_id='place:2743000'");
    expect(p.name).toMatch(/^Minneapolis/);
    expect(p.county_id).toBe("county:27053");
    expect(p.boundary_precision).toBe("full");
    expect(p.geom).toBeTruthy();
    const c = one(db, "SELECT * FROM jurisdictions WHERE jurisdiction_id='cousub:2705343000'");
    expect(c.type).toBe("cousub");
    expect(c.county_id).toBe("county:27053");
    expect(
      count(
        db,
        "SELECT count(*) n FROM same_as WHERE jurisdiction_id='place:2743000' AND other_id='cousub:2705343000'",
      ),
    ).toBe(1);
    expect(
      count(
        db,
        "SELECT count(*) n FROM same_as WHERE jurisdiction_id='cousub:2705343000' AND other_id='place:2743000'",
      ),
    ).toBe(1);
  });

  test("Hennepin County ocd_id, radon zone", () => {
    const h = one(db, "SELECT name, legal_type, ocd_id FROM jurisdictions WHERE jurisdiction_id='county:27053'");
    expect(h).toEqual({
      name: "Hennepin County",
      legal_type: "county",
      ocd_id: "ocd-division/country:us/state:mn/county:hennepin",
    });
    expect(one(db, "SELECT zone, edition FROM radon_zones WHERE county_id='county:27053'")).toEqual({
      zone: "zone_1",
      edition: "EPA Map of Radon Zones, 1993",
    });
    // every atlas county has a radon row; CT planning regions have a note
    expect(count(db, "SELECT count(*) n FROM radon_zones")).toBe(
      count(db, "SELECT count(*) n FROM jurisdictions WHERE type='county'"),
    );
    expect(one(db, "SELECT note FROM radon_zones WHERE county_id='county:09110'").note).toMatch(/planning region/);
  });

  test("Vermont towns are cousubs with legal_type town and geometry", () => {
    const towns = count(
      db,
      "SELECT count(*) n FROM jurisdictions WHERE state='VT' AND type='cousub' AND legal_type='town' AND geom IS NOT NULL",
    );
    expect(towns).toBeGreaterThan(230);
  });

  test("other same_as: Virginia city, consolidated city-county, DC", () => {
    const pair = (a: string, b: string) =>
      count(db, "SELECT count(*) n FROM same_as WHERE jurisdiction_id=? AND other_id=?", a, b);
    expect(pair("county:51760", "place:5167000")).toBe(1);
    expect(pair("place:5167000", "county:51760")).toBe(1);
    expect(pair("county:06075", "place:0667000")).toBe(1);
    expect(pair("county:24510", "place:2404000")).toBe(1);
    expect(pair("state:11", "county:11001")).toBe(1);
    expect(pair("county:11001", "place:1150000")).toBe(1);
  });

  test("records without a source trail are stored and flagged documented=0", () => {
    expect(
      one(db, "SELECT documented FROM resources WHERE resource_id='fixture-undocumented-resource'").documented,
    ).toBe(0);
    expect(one(db, "SELECT documented FROM resources WHERE resource_id='fixture-nopub-resource'").documented).toBe(0);
    expect(one(db, "SELECT documented FROM resources WHERE resource_id='fixture-documented-resource'").documented).toBe(
      1,
    );
    expect(
      one(db, "SELECT documented FROM jurisdictions WHERE jurisdiction_id='district:fixture-undocumented-board'")
        .documented,
    ).toBe(0);
    expect(one(db, "SELECT documented FROM sources WHERE source_id='fixture-no-publisher'").documented).toBe(0);
    expect(one(db, "SELECT documented FROM jurisdictions WHERE jurisdiction_id='county:27053'").documented).toBe(1);
  });

  test("sources declare sha256 and the manifest lists them", () => {
    const ocd = one(db, "SELECT * FROM sources WHERE source_id='ocd-division-ids'");
    expect(ocd.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(ocd.documented).toBe(1);
    const m = Object.fromEntries(
      (db.query("SELECT key, value FROM manifest").all() as any[]).map((r) => [r.key, r.value]),
    );
    expect(JSON.parse(m.sources_used)).toContain("ocd-division-ids");
    expect(m.as_of).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(m.content_sha256).toBe(fullHash);
  });

  test("name_search indexes places and resources, not the country", () => {
    expect(
      count(db, "SELECT count(*) n FROM name_search WHERE name_search MATCH 'minneap*' AND kind='place'"),
    ).toBeGreaterThan(0);
    expect(count(db, "SELECT count(*) n FROM name_search WHERE ref='country:us'")).toBe(0);
    expect(count(db, "SELECT count(*) n FROM name_search WHERE kind='resource'")).toBeGreaterThan(0);
  });

  test("content hash identical across two builds; verifyManifest ok", () => {
    expect(full2Hash).toBe(fullHash);
    const v = verifyManifest(full);
    expect(v.ok).toBe(true);
    if (v.ok) expect(v.manifest.content_sha256).toBe(fullHash);
  }, 60_000); // hashes the whole ~100 MB file: seconds on a busy 2-core machine

  test("a flipped byte makes verifyManifest fail", () => {
    const bad = join(dir, "flipped.sqlite");
    copyFileSync(full2, bad);
    const bytes = readFileSync(bad);
    // a byte of Hennepin County's row (its OCD id is stored nowhere else)
    const at = bytes.indexOf(Buffer.from("ocd-division/country:us/state:mn/county:hennepin"));
    expect(at).toBeGreaterThan(0);
    bytes[at + 40] = bytes[at + 40]! ^ 0x01;
    writeFileSync(bad, bytes);
    const v = verifyManifest(bad);
    expect(v.ok).toBe(false);
    if (!v.ok) expect(v.error).toMatch(/mismatch|check|cannot/);
  }, 60_000);

  test("the seal removed and the boundary pack zeroed: refused, not downgraded to the older check (issue 19, item 11)", () => {
    const bad = join(dir, "unsealed.sqlite");
    copyFileSync(full2, bad);
    const w = new Database(bad);
    w.run("DELETE FROM manifest WHERE key = 'file_xxh3'");
    w.run("UPDATE boundary_pack SET value = zeroblob(length(value))");
    w.close();
    const v = verifyManifest(bad);
    expect(v.ok).toBe(false);
    if (!v.ok) expect(v.error).toContain("file seal missing: this data file holds boundary_pack, permit_survey");
  }, 60_000);

  test("no journal or WAL left behind", () => {
    for (const ext of ["-journal", "-wal", "-shm"]) expect(existsSync(full + ext)).toBe(false);
    expect((one(db, "PRAGMA journal_mode") as any).journal_mode).toBe("delete");
  });

  test("ogrinfo lists the jurisdictions layer", () => {
    const which = Bun.spawnSync(["sh", "-c", "command -v ogrinfo"]);
    if (which.exitCode !== 0) {
      console.warn("SKIP: ogrinfo (gdal-bin) not installed");
      return;
    }
    const r = Bun.spawnSync(["ogrinfo", "-ro", "-so", full]);
    const out = r.stdout.toString();
    expect(out).toMatch(/jurisdictions \(Multi Polygon\)/);
  });
});
