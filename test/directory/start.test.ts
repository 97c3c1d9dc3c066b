// Start-up reads (cold start): the point index from the builder's boundary_pack and the Store's rows read on demand
// must give exactly what the full reads give (the jurisdictions table scanned, every row loaded).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readFileSync } from "node:fs";
import { atlasDataFile, fullDataFile } from "../helpers/data-file";
import { verifyManifest } from "../../src/directory/manifest";
import { BoundaryIndex, geometryLoader, scanBoundaryColumns } from "../../src/directory/boundaries";
import { BOUNDARY_PACK_FORMAT, readBoundaryPack, writeBoundaryPack } from "../../src/directory/boundary-pack";
import { COUSUB_STATES_SQL, Store } from "../../src/directory/store";
import { mulberry32 } from "../helpers/random";

let db: Database;
beforeAll(async () => {
  db = new Database(await fullDataFile(), { readonly: true });
}, 600_000);
afterAll(() => db?.close());

describe("the point index from boundary_pack", () => {
  test("the built file carries the pack, and it holds exactly the columns a scan of jurisdictions gives", () => {
    const pack = readBoundaryPack(db);
    expect(pack).not.toBeNull();
    const packed = pack!.columns;
    const scanned = scanBoundaryColumns(db);
    expect(packed!.ids.length).toBeGreaterThan(20_000);
    expect(packed!.ids).toEqual(scanned.ids);
    expect(packed!.counties).toEqual(scanned.counties);
    expect([...packed!.types]).toEqual([...scanned.types]);
    expect([...packed!.boxes].map(String)).toEqual([...scanned.boxes].map(String)); // NaN (decoded at start) included
    expect([...packed!.boxes].filter(Number.isNaN).length).toBeGreaterThan(0); // Alaska crosses the antimeridian
    // the stored top grid is the one the server would build on the same polygons
    const built = new BoundaryIndex({ columns: scanned, load: geometryLoader(db, scanned.ids) }).grid;
    const { cellIdx, off, entries, ...meta } = pack!.grid!;
    expect(meta).toEqual({
      cellSize: built.cellSize,
      digest: built.digest,
      gx0: built.gx0,
      gy0: built.gy0,
      gnx: built.gnx,
      gny: built.gny,
    });
    expect(Bun.hash.xxHash3(cellIdx)).toBe(Bun.hash.xxHash3(built.cellIdx));
    expect([...off]).toEqual([...built.off]);
    expect([...entries]).toEqual([...built.entries]);
  });

  test("the stored grid is taken only for the same polygons and cell size", () => {
    const { columns, grid } = readBoundaryPack(db)!;
    const load = geometryLoader(db, columns.ids);
    expect(new BoundaryIndex({ columns, load, grid }).grid).toBe(grid!);
    expect(new BoundaryIndex({ columns, load, grid: { ...grid!, digest: "0" } }).grid).not.toBe(grid!);
    const coarse = new BoundaryIndex({ columns, load, grid }, { cellSize: 1 });
    expect(coarse.grid).not.toBe(grid!);
    expect(coarse.grid.cellSize).toBe(1);
    // one box moved: the digest differs, the grid is built again
    const moved = { ...columns, boxes: columns.boxes.slice() };
    const k = moved.boxes.findIndex((x) => !Number.isNaN(x));
    moved.boxes[k] = moved.boxes[k]! - 1;
    expect(new BoundaryIndex({ columns: moved, load, grid }).grid).not.toBe(grid!);
  });

  test("an index from the pack answers every point as one from the scan", () => {
    const a = BoundaryIndex.fromDatabase(db);
    const b = BoundaryIndex.fromDatabase(db, { usePack: false });
    expect(a.stats()).toEqual(b.stats());
    const rnd = mulberry32(11);
    let hits = 0;
    for (let i = 0; i < 8_000; i++) {
      const lon = i % 10 === 0 ? -180 + rnd() * 360 : -125 + rnd() * 58,
        lat = i % 10 === 0 ? -15 + rnd() * 87 : 25 + rnd() * 24;
      const c = a.lookup(lon, lat);
      if (c) hits++;
      expect(c).toEqual(b.lookup(lon, lat));
      if (i % 20 === 0) expect(a.containing(lon, lat)).toEqual(b.containing(lon, lat));
    }
    expect(hits).toBeGreaterThan(4_000);
  }, 60_000); // two whole indexes decode the polygons they meet: seconds on a loaded 2-core machine

  test("a file without the pack, or with another format, is read by the scan", () => {
    const m = new Database(":memory:");
    expect(readBoundaryPack(m)).toBeNull();
    m.run("CREATE TABLE boundary_pack (key TEXT PRIMARY KEY, value BLOB NOT NULL)");
    m.run("INSERT INTO boundary_pack VALUES ('format', 'boundary-columns-0')");
    expect(readBoundaryPack(m)).toBeNull();
    m.close();
  });

  test("a changed byte in boundary_pack is refused by the file seal at start", async () => {
    const src = await atlasDataFile();
    const m = new Database(src, { readonly: true });
    const pages = m
      .query<{ pageno: number }, []>("SELECT pageno FROM dbstat WHERE name = 'boundary_pack' ORDER BY pageno")
      .all();
    const pageSize = (m.query("PRAGMA page_size").get() as { page_size: number }).page_size;
    m.close();
    expect(pages.length).toBeGreaterThan(10);
    const dir = mkdtempSync(join(tmpdir(), "pack-tamper-"));
    try {
      const bytes = new Uint8Array(await Bun.file(src).arrayBuffer());
      const at = (pages[pages.length >> 1]!.pageno - 1) * pageSize + 1000;
      bytes[at] = bytes[at]! ^ 0x01;
      await Bun.write(join(dir, "t.sqlite"), bytes);
      const v = verifyManifest(join(dir, "t.sqlite"));
      expect(v.ok).toBe(false);
      expect(!v.ok && v.error).toMatch(/file seal mismatch/);
      expect(verifyManifest(src).ok).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("write and read give the same columns; a pack with columns of the wrong length is refused", () => {
    const m = new Database(":memory:");
    m.run("CREATE TABLE boundary_pack (key TEXT PRIMARY KEY, value BLOB NOT NULL)");
    const cols = {
      ids: ["state:01", "cousub:0100112345"],
      types: new Uint8Array([0, 2]),
      counties: [null, "county:01003"],
      boxes: new Float64Array([NaN, NaN, NaN, NaN, -97, 42, -94, 44]),
    };
    writeBoundaryPack(m, { columns: cols, grid: null });
    const { columns: back, grid } = readBoundaryPack(m)!;
    expect(grid).toBeNull();
    expect(back.ids).toEqual(cols.ids);
    expect(back.counties).toEqual(cols.counties);
    expect([...back.types]).toEqual([0, 2]);
    expect([...back.boxes].map(String)).toEqual([...cols.boxes].map(String));
    expect(m.query("SELECT value FROM boundary_pack WHERE key = 'format'").get()).toEqual({
      value: BOUNDARY_PACK_FORMAT,
    });
    m.run("UPDATE boundary_pack SET value = '3' WHERE key = 'count'");
    expect(() => readBoundaryPack(m)).toThrow(/3 features announced/);
    m.close();
  });
});

describe("the Store reads rows on demand", () => {
  test("rows handed out before the full read are the same objects after it; unknown ids are null", () => {
    const s = new Store(db);
    const mpls = s.jurisdiction("place:2743000")!;
    expect(mpls.name).toContain("Minneapolis");
    expect(s.jurisdiction("place:nope")).toBeNull();
    const states = s.states().map((j) => j.jurisdiction_id);
    const towns = [...s.cousubRecordStates()].sort();
    expect(states).toContain("state:27");
    expect(s.jurisdictions.size).toBeGreaterThan(40_000); // the full read
    expect(s.jurisdiction("place:2743000")).toBe(mpls);
    expect(s.jurisdictions.get("place:2743000")).toBe(mpls);
    // the same answers from the full read as from the queries before it
    expect(s.states().map((j) => j.jurisdiction_id)).toEqual(states);
    expect([...s.cousubRecordStates()].sort()).toEqual(towns);
    const fresh = new Store(db);
    expect(fresh.states().map((j) => j.jurisdiction_id)).toEqual(states);
    expect([...fresh.cousubRecordStates()].sort()).toEqual(towns);
    expect(towns.length).toBeGreaterThan(10);
  });

  test("a jurisdiction's resources come in sort_key, resource_id order, the same rows as read by id", () => {
    const s = new Store(db);
    const ids = db
      .query<{ jurisdiction_id: string }, []>(
        "SELECT jurisdiction_id FROM resources GROUP BY jurisdiction_id HAVING count(*) > 3 ORDER BY jurisdiction_id LIMIT 40",
      )
      .all();
    expect(ids.length).toBeGreaterThan(10);
    for (const { jurisdiction_id } of ids) {
      const want = db
        .query<{ resource_id: string }, [string]>(
          "SELECT resource_id FROM resources WHERE jurisdiction_id = ? ORDER BY sort_key, resource_id",
        )
        .all(jurisdiction_id)
        .map((r) => r.resource_id);
      const got = s.resourcesOf(jurisdiction_id);
      expect([...got.items.map((r) => r.resource_id)]).toEqual(want);
      expect(got.leftOut).toBe(0);
      for (const r of got.items) {
        expect(Array.isArray(r.topics)).toBe(true);
        // equal, not the same object: the lists are kept under a memory budget and read again when dropped
        expect(s.resourcesOfId(r.resource_id)).toEqual(r);
      }
    }
    expect(s.resourcesOf("place:nope")).toEqual({ items: [], leftOut: 0 });
    expect(s.resourcesOfId("nope")).toBeNull();
  });

  test("with or without the resources_by_jurisdiction index (older files), the same resources in the same order", () => {
    const m = new Database(":memory:");
    m.exec(readFileSync(join(import.meta.dir, "../../src/directory/schema.sql"), "utf8"));
    m.run(
      "INSERT INTO sources (source_id, name, url, official, license_class, documented) VALUES ('s', 'S', 'https://example.gov/', 1, 'open', 1)",
    );
    const ins =
      m.prepare(`INSERT INTO resources (resource_id, jurisdiction_id, name, url, topics, official, verified_status, source_kind, source_id, documented, sort_key)
      VALUES (?, ?, ?, 'https://example.gov/', '["assessor"]', 1, 'not_yet_verified', 'hand-added', 's', ?, ?)`);
    const rows: [string, string, number, number][] = [
      ["r9", "county:1", 1, 30],
      ["r1", "county:2", 1, 10],
      ["r5", "county:1", 1, 10],
      ["r2", "county:1", 0, 20],
      ["r3", "county:1", 1, 10],
    ];
    for (const [id, j, doc, key] of rows) ins.run(id, j, id, doc, key);
    const withIndex = new Store(m).resourcesOf("county:1");
    m.run("DROP INDEX resources_by_jurisdiction");
    const scanned = new Store(m).resourcesOf("county:1");
    expect(withIndex.items.map((r) => r.resource_id)).toEqual(["r3", "r5", "r9"]);
    expect(withIndex.leftOut).toBe(1);
    expect(scanned.items.map((r) => r.resource_id)).toEqual(["r3", "r5", "r9"]);
    expect(scanned.leftOut).toBe(1);
    expect(scanned.items[0]!.topics).toEqual(["assessor"]);
    m.close();
  });

  test("the states with town records are found through an index, not a scan of jurisdictions", () => {
    const plan = db.query(`EXPLAIN QUERY PLAN ${COUSUB_STATES_SQL}`).all() as { detail: string }[];
    expect(plan.map((p) => p.detail).join(" ")).toMatch(/USING COVERING INDEX jurisdictions_by_type/);
  });
});
