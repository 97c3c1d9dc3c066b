import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { fullDataFile } from "../helpers/data-file";
import { Database } from "bun:sqlite";
import { existsSync } from "node:fs";
import { BoundaryIndex, type PointChain } from "../../src/directory/boundaries";
import { decodeSpatialiteBlob } from "../../src/directory/spatialite-blob";
import { mulberry32 } from "../helpers/random";

// mod_spatialite is used here ONLY to produce reference blobs / the fixture; the code under test never loads it.
function spatialDb(): Database {
  const db = new Database(":memory:");
  db.loadExtension("mod_spatialite");
  db.query("SELECT InitSpatialMetadata(1)").get();
  return db;
}

type Ring = [number, number][];
const sq = (x0: number, y0: number, x1: number, y1: number): Ring => [
  [x0, y0],
  [x1, y0],
  [x1, y1],
  [x0, y1],
  [x0, y0],
];
const circle = (cx: number, cy: number, r: number, n: number, cw = false): Ring => {
  const out: Ring = [];
  for (let i = 0; i < n; i++) {
    const a = ((cw ? -1 : 1) * 2 * Math.PI * i) / n;
    out.push([cx + r * Math.cos(a), cy + r * Math.sin(a)]);
  }
  out.push(out[0]!);
  return out;
};
const poly = (...rings: Ring[]) => ({ type: "Polygon", coordinates: rings });
const multi = (...polys: Ring[][]) => ({ type: "MultiPolygon", coordinates: polys });

function ringsOf(geo: { type: string; coordinates: unknown }): Ring[][] {
  return geo.type === "Polygon" ? [geo.coordinates as Ring[]] : (geo.coordinates as Ring[][]);
}
function asArrays(polys: Float64Array[][]): number[][][] {
  return polys.map((p) => p.map((r) => Array.from(r)));
}
function flat(geo: { type: string; coordinates: unknown }): number[][][] {
  return ringsOf(geo).map((p) => p.map((r) => r.flat()));
}

// Minimal big-/little-endian SpatiaLite blob writer (independent of the decoder) for the byte-order test.
function encodeBlob(polys: number[][][], le: boolean, srid = 4326): Uint8Array {
  let size = 39 + 4 + 4 + 1;
  for (const p of polys) {
    size += 5 + 4;
    for (const r of p) size += 4 + r.length * 8;
  }
  const buf = new Uint8Array(size);
  const dv = new DataView(buf.buffer);
  let o = 0;
  const xs = polys.flat(2).filter((_, i) => i % 2 === 0);
  const ys = polys.flat(2).filter((_, i) => i % 2 === 1);
  buf[o++] = 0;
  buf[o++] = le ? 1 : 0;
  dv.setInt32(o, srid, le);
  o += 4;
  for (const v of [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)]) {
    dv.setFloat64(o, v, le);
    o += 8;
  }
  buf[o++] = 0x7c;
  dv.setInt32(o, 6, le);
  o += 4;
  dv.setInt32(o, polys.length, le);
  o += 4;
  for (const p of polys) {
    buf[o++] = 0x69;
    dv.setInt32(o, 3, le);
    o += 4;
    dv.setInt32(o, p.length, le);
    o += 4;
    for (const r of p) {
      dv.setInt32(o, r.length / 2, le);
      o += 4;
      for (const v of r) {
        dv.setFloat64(o, v, le);
        o += 8;
      }
    }
  }
  buf[o++] = 0xfe;
  return buf;
}

describe("spatialite-blob decoder vs mod_spatialite", () => {
  let db: Database;
  beforeAll(() => {
    db = spatialDb();
    db.run("CREATE TABLE t (id INTEGER PRIMARY KEY)");
    db.query("SELECT AddGeometryColumn('t','geom',4326,'MULTIPOLYGON','XY')").get();
  });
  afterAll(() => db.close());

  const withHole = poly(sq(-93.5, 44.5, -93, 45.2), [
    [-93.3, 44.8],
    [-93.2, 44.8],
    [-93.2, 44.9],
    [-93.3, 44.8],
  ]);
  const mp = multi(
    [
      sq(-100, 40, -99, 41),
      [
        [-99.75, 40.25],
        [-99.25, 40.25],
        [-99.5, 40.75],
        [-99.75, 40.25],
      ],
    ],
    [sq(-98.123456789012, 40.000000000001, -97.5, 40.987654321)],
    [circle(-96, 40.5, 0.3, 37)],
  );

  function store(geo: object): Uint8Array {
    const row = db
      .query<{ id: number }, [string]>(
        "INSERT INTO t (geom) VALUES (CastToMulti(SetSRID(GeomFromGeoJSON(?), 4326))) RETURNING id",
      )
      .get(JSON.stringify(geo))!;
    return db.query<{ g: Uint8Array }, [number]>("SELECT geom AS g FROM t WHERE id = ?").get(row.id)!.g;
  }

  test("polygon with a hole round-trips", () => {
    const blob = store(withHole);
    const g = decodeSpatialiteBlob(blob);
    expect(g.srid).toBe(4326);
    expect(g.classType).toBe(6);
    expect(g.mbr).toEqual([-93.5, 44.5, -93, 45.2]);
    expect(asArrays(g.polygons.map((p) => p.rings))).toEqual(flat(withHole));
    // rings are views on one buffer per polygon
    expect(g.polygons[0]!.rings[1]!.buffer).toBe(g.polygons[0]!.coords.buffer);
  });

  test("multipolygon round-trips (3 polygons, hole, full double precision)", () => {
    const blob = store(mp);
    const g = decodeSpatialiteBlob(blob);
    expect(g.polygons.length).toBe(3);
    expect(asArrays(g.polygons.map((p) => p.rings))).toEqual(flat(mp));
    const mbr = db
      .query<{ a: number; b: number; c: number; d: number }, [Uint8Array]>(
        "SELECT MbrMinX(?1) a, MbrMinY(?1) b, MbrMaxX(?1) c, MbrMaxY(?1) d",
      )
      .get(blob)!;
    expect(g.mbr).toEqual([mbr.a, mbr.b, mbr.c, mbr.d]);
  });

  test("XYZ / XYM / XYZM variants decode to the same XY", () => {
    const blob = store(mp);
    for (const [fn, type] of [
      ["CastToXYZ", 1006],
      ["CastToXYM", 2006],
      ["CastToXYZM", 3006],
    ] as const) {
      const b = db.query<{ g: Uint8Array }, [Uint8Array]>(`SELECT ${fn}(?) AS g`).get(blob)!.g;
      const g = decodeSpatialiteBlob(b);
      expect(g.classType).toBe(type);
      expect(asArrays(g.polygons.map((p) => p.rings))).toEqual(flat(mp));
    }
  });

  test("compressed geometries are rejected with a clear error", () => {
    const blob = store(mp);
    const b = db.query<{ g: Uint8Array }, [Uint8Array]>("SELECT CompressGeometry(?) AS g").get(blob)!.g;
    expect(() => decodeSpatialiteBlob(b)).toThrow(/compressed/);
  });

  test("little- and big-endian blobs, and corrupt blobs", () => {
    const polys = flat(mp);
    const le = encodeBlob(polys, true);
    expect(asArrays(decodeSpatialiteBlob(le).polygons.map((p) => p.rings))).toEqual(polys);
    // our writer agrees byte for byte with mod_spatialite for little-endian
    expect(Array.from(le)).toEqual(Array.from(store(mp)));
    const be = encodeBlob(polys, false);
    const g = decodeSpatialiteBlob(be);
    expect(g.srid).toBe(4326);
    expect(asArrays(g.polygons.map((p) => p.rings))).toEqual(polys);
    expect(() => decodeSpatialiteBlob(le.subarray(0, le.length - 9))).toThrow();
    const bad = le.slice();
    bad[38] = 0;
    expect(() => decodeSpatialiteBlob(bad)).toThrow(/MBR_END/);
    const pt = db.query<{ g: Uint8Array }, []>("SELECT MakePoint(1, 2, 4326) AS g").get()!.g;
    expect(() => decodeSpatialiteBlob(pt)).toThrow(/not polygonal/);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Synthetic directory fixture
//
//   state:01  [-100,40]-[-90,50] + island [-99,38]-[-98,39]       state:02 pentagon (-90,40)(-80,40)(-80,45)(-85,50)(-90,50)
//   county:01001 west of the diagonal (-96,40)-(-94,50), county:01003 east of it (both rank 2, island not covered)
//   county:02001 = state:02 pentagon (rank 3)
//   cousub:0100112345 [-97,42]-[-94,44] crosses the diagonal (coarse county border)
//   cousub:0200154321 [-90.5,45]-[-88,46] crosses the coarse state border x=-90
//   place:0150000 [-99,46]-[-96.5,49] with hole [-98,47]-[-97,48]
//   place:0260000 [-91,41]-[-87,43] (spills into state 01)
//   place:0270000 circle centre (-85,44) r 1.5, 4000 vertices, hole circle r 0.5 (exercises bands + sub-grid)
// ---------------------------------------------------------------------------------------------------------------
const W01: Ring = [
  [-100, 40],
  [-96, 40],
  [-94, 50],
  [-100, 50],
  [-100, 40],
];
const E01: Ring = [
  [-96, 40],
  [-90, 40],
  [-90, 50],
  [-94, 50],
  [-96, 40],
];
const PENT: Ring = [
  [-90, 40],
  [-80, 40],
  [-80, 45],
  [-85, 50],
  [-90, 50],
  [-90, 40],
];
const FIXTURE: Array<[string, string, number, object]> = [
  ["state:01", "state", 1, multi([sq(-100, 40, -90, 50)], [sq(-99, 38, -98, 39)])],
  ["state:02", "state", 1, poly(PENT)],
  ["county:01001", "county", 2, poly(W01)],
  ["county:01003", "county", 2, poly(E01)],
  ["county:02001", "county", 3, poly(PENT)],
  ["cousub:0100112345", "cousub", 3, poly(sq(-97, 42, -94, 44))],
  ["cousub:0200154321", "cousub", 3, poly(sq(-90.5, 45, -88, 46))],
  ["place:0150000", "place", 3, poly(sq(-99, 46, -96.5, 49), sq(-98, 47, -97, 48))],
  ["place:0260000", "place", 3, poly(sq(-91, 41, -87, 43))],
  ["place:0270000", "place", 3, poly(circle(-85, 44, 1.5, 4000), circle(-85, 44, 0.5, 1500, true))],
  ["district:x", "district", 3, poly(sq(-100, 40, -80, 50))], // ignored type
  ["state:99", "state", 1, null as unknown as object], // no geom
];

function buildFixture(path = ":memory:"): Database {
  const db =
    path === ":memory:"
      ? spatialDb()
      : (() => {
          const d = new Database(path, { create: true });
          d.loadExtension("mod_spatialite");
          d.query("SELECT InitSpatialMetadata(1)").get();
          return d;
        })();
  db.run(`CREATE TABLE jurisdictions (jurisdiction_id TEXT PRIMARY KEY, type TEXT NOT NULL, name TEXT NOT NULL,
    state_fips TEXT, county_id TEXT, boundary_rank INTEGER NOT NULL,
    min_x REAL, min_y REAL, max_x REAL, max_y REAL, source_id TEXT NOT NULL, documented INTEGER NOT NULL)`);
  db.query("SELECT AddGeometryColumn('jurisdictions','geom',4326,'MULTIPOLYGON','XY')").get();
  const ins = db.query(
    `INSERT INTO jurisdictions (jurisdiction_id, type, name, state_fips, boundary_rank, source_id, documented, geom)
     VALUES (?1, ?2, ?1, substr(?1, instr(?1, ':') + 1, 2), ?3, 'test', 1,
             CASE WHEN ?4 IS NULL THEN NULL ELSE CastToMulti(SetSRID(GeomFromGeoJSON(?4), 4326)) END)`,
  );
  for (const [id, type, rank, geo] of FIXTURE) ins.run(id, type, rank, geo === null ? null : JSON.stringify(geo));
  db.run(
    "UPDATE jurisdictions SET min_x = MbrMinX(geom), min_y = MbrMinY(geom), max_x = MbrMaxX(geom), max_y = MbrMaxY(geom)",
  );
  return db;
}

// Brute-force reference for rule R2 (same definition, no acceleration) to check the bands / sub-grids.
function refContains(rings: Ring[], px: number, py: number): boolean {
  let inside = false;
  for (const r of rings) {
    for (let i = 0; i + 1 < r.length; i++) {
      let [ax, ay] = r[i]!;
      let [bx, by] = r[i + 1]!;
      if (ay > by) [ax, ay, bx, by] = [bx, by, ax, ay];
      else if (ay === by) {
        if (py === ay && px >= Math.min(ax, bx) && px <= Math.max(ax, bx)) return true;
        continue;
      }
      if (py < ay || py > by) continue;
      if (py === by) {
        if (px === bx) return true;
        continue;
      }
      const xint = ax + ((py - ay) * (bx - ax)) / (by - ay);
      if (xint === px) return true;
      if (xint > px) inside = !inside;
    }
  }
  return inside;
}

function prefixConsistent(c: PointChain | null): boolean {
  if (c === null) return true;
  const prefixes = new Set<string>();
  if (c.state) prefixes.add(c.state.slice(6, 8));
  if (c.county) prefixes.add(c.county.slice(7, 9));
  if (c.cousub) prefixes.add(c.cousub.slice(7, 9));
  if (c.place) prefixes.add(c.place.slice(6, 8));
  return prefixes.size === 1 && c.state !== null;
}

describe("BoundaryIndex on a synthetic fixture", () => {
  let db: Database;
  let idx: BoundaryIndex;
  beforeAll(() => {
    db = buildFixture();
    idx = BoundaryIndex.fromDatabase(db);
  });
  afterAll(() => db.close());
  const L = (lon: number, lat: number) => idx.lookup(lon, lat);

  test("loads state/county/cousub/place rows with a geom only", () => {
    const s = idx.stats();
    expect(s.featuresByType).toEqual({ state: 2, county: 3, cousub: 2, place: 3 });
    expect(s.polygons).toBe(11);
  });

  test("inside: plain county", () => {
    expect(L(-99, 41)).toEqual({ state: "state:01", county: "county:01001", cousub: null, place: null });
    expect(L(-91, 49)).toEqual({ state: "state:01", county: "county:01003", cousub: null, place: null });
    expect(L(-82, 41)).toEqual({ state: "state:02", county: "county:02001", cousub: null, place: null });
  });

  test("place with a hole: inside the place, inside the hole", () => {
    expect(L(-98.5, 46.5)).toEqual({ state: "state:01", county: "county:01001", cousub: null, place: "place:0150000" });
    expect(L(-97.5, 47.5)).toEqual({ state: "state:01", county: "county:01001", cousub: null, place: null });
    // hole boundary is closed: belongs to the place
    expect(L(-98, 47.5)?.place).toBe("place:0150000");
    // many-vertex place with hole
    expect(L(-85, 43)?.place).toBe("place:0270000");
    expect(L(-85, 44)?.place).toBeNull();
    expect(L(-85, 44.2)?.place).toBeNull();
    expect(L(-85, 45.6)?.place).toBeNull();
  });

  test("outside coverage -> null", () => {
    expect(L(-120, 45)).toBeNull();
    expect(L(-81, 49)).toBeNull(); // inside the grid, beyond the pentagon's diagonal
    expect(L(-95, 39)).toBeNull(); // between the island and the mainland
    expect(L(NaN, 45)).toBeNull();
    expect(L(-95, Infinity)).toBeNull();
  });

  test("state polygon only (island without county)", () => {
    expect(L(-98.5, 38.5)).toEqual({ state: "state:01", county: null, cousub: null, place: null });
    expect(L(-98, 39)).toEqual({ state: "state:01", county: null, cousub: null, place: null }); // corner
  });

  test("precise cousub overrides the coarse county (GEOID prefix)", () => {
    // east of the diagonal: the county polygon says 01003, the cousub says 01001
    expect(idx.containing(-94.5, 43)).toContain("county:01003");
    expect(L(-94.5, 43)).toEqual({
      state: "state:01",
      county: "county:01001",
      cousub: "cousub:0100112345",
      place: null,
    });
    // cousub over the coarse state border: state polygon says 01, cousub says 02
    expect(idx.containing(-90.2, 45.5)).toContain("state:01");
    expect(L(-90.2, 45.5)).toEqual({
      state: "state:02",
      county: "county:02001",
      cousub: "cousub:0200154321",
      place: null,
    });
  });

  test("place across the state border keeps a consistent chain", () => {
    // place:0260000 (state 02) west of x=-90: the only county polygon there is 01003 -> dropped
    expect(L(-90.5, 41.5)).toEqual({ state: "state:02", county: null, cousub: null, place: "place:0260000" });
    expect(L(-89, 41.5)).toEqual({ state: "state:02", county: "county:02001", cousub: null, place: "place:0260000" });
  });

  test("shared edges resolve to exactly one, deterministically", () => {
    // on the diagonal county border (exactly representable point): both contain it, same rank -> smaller id
    expect(idx.containing(-95, 45)).toEqual(expect.arrayContaining(["county:01001", "county:01003"]));
    expect(L(-95, 45)?.county).toBe("county:01001");
    expect(L(-95, 45)?.county).toBe("county:01001");
    // on x=-90 between county:01003 (rank 2) and county:02001 (rank 3): higher rank wins (state follows)
    expect(L(-90, 48)).toEqual({ state: "state:02", county: "county:02001", cousub: null, place: null });
    // shared vertex
    expect(L(-90, 50)).toEqual({ state: "state:02", county: "county:02001", cousub: null, place: null });
    // just off the border: exactly one side
    expect(L(-95 + 1e-12, 45)?.county).toBe("county:01003");
    expect(L(-95 - 1e-12, 45)?.county).toBe("county:01001");
    // shared-edge gap test: random points within 1e-9 of the diagonal are always covered by >= 1 county
    const rnd = mulberry32(7);
    for (let i = 0; i < 20000; i++) {
      const t = rnd();
      const lat = 40.001 + t * 9.998;
      const lon = -96 + ((lat - 40) * 2) / 10 + (rnd() - 0.5) * 2e-9;
      const hits = idx.containing(lon, lat).filter((id) => id.startsWith("county:"));
      expect(hits.length).toBeGreaterThanOrEqual(1);
      const c = L(lon, lat);
      expect(c).not.toBeNull();
      expect(L(lon, lat)).toEqual(c); // deterministic
    }
  });

  test("accelerated containment equals the brute-force reference; chains share one state prefix", () => {
    const rnd = mulberry32(42);
    const geoms = FIXTURE.filter(([, type, , g]) => g !== null && type !== "district").map(
      ([id, , , g]) => [id, ringsOf(g as { type: string; coordinates: unknown })] as const,
    );
    for (let i = 0; i < 16000; i++) {
      // half the points concentrated on the many-vertex place (boundary cells of its sub-grid)
      const [lon, lat] =
        i % 2 === 0
          ? [-101 + rnd() * 22, 37 + rnd() * 14]
          : (() => {
              const a = rnd() * 2 * Math.PI;
              const r = (i % 4 === 1 ? 0.5 : 1.5) + (rnd() - 0.5) * 1e-3;
              return [-85 + r * Math.cos(a), 44 + r * Math.sin(a)];
            })();
      const want = geoms
        .filter(([, polys]) => polys.some((rings) => refContains(rings, lon, lat)))
        .map(([id]) => id)
        .sort();
      expect(idx.containing(lon, lat).sort()).toEqual(want);
      const c = L(lon, lat);
      expect(prefixConsistent(c)).toBe(true);
      if (c === null) expect(want.length).toBe(0);
    }
  }, 60_000); // 16,000 points with a brute-force reference: over 5 s when the 2-core machine is busy

  test("a coarse top grid gives the same answers", () => {
    const coarse = BoundaryIndex.fromDatabase(db, { cellSize: 5 });
    const rnd = mulberry32(3);
    for (let i = 0; i < 5000; i++) {
      const lon = -101 + rnd() * 22,
        lat = 37 + rnd() * 14;
      expect(coarse.lookup(lon, lat)).toEqual(L(lon, lat));
    }
  });
});

describe("BoundaryIndex: a cousub's county_id decides its county (R4a, Connecticut planning regions)", () => {
  const ring = (x0: number, y0: number, x1: number, y1: number) =>
    new Float64Array([x0, y0, x1, y0, x1, y1, x0, y1, x0, y0]);
  const idx = new BoundaryIndex([
    { id: "state:09", type: "state", rank: 1, polygons: [[ring(-74, 40, -71, 43)]] },
    { id: "county:09140", type: "county", rank: 1, polygons: [[ring(-74, 40, -72.5, 43)]] },
    // old county code 09003 in the GEOID, planning region 09140 as county_id
    {
      id: "cousub:0900308490",
      type: "cousub",
      rank: 3,
      county: "county:09140",
      polygons: [[ring(-73, 41, -72.8, 41.2)]],
    },
    // no county_id: the GEOID's county
    { id: "cousub:0900104720", type: "cousub", rank: 3, polygons: [[ring(-73.5, 41, -73.3, 41.2)]] },
  ]);
  test("county_id wins over the GEOID prefix; without it the GEOID prefix is used", () => {
    expect(idx.lookup(-72.9, 41.1)).toEqual({
      state: "state:09",
      county: "county:09140",
      cousub: "cousub:0900308490",
      place: null,
    });
    expect(idx.lookup(-73.4, 41.1)).toEqual({
      state: "state:09",
      county: "county:09001",
      cousub: "cousub:0900104720",
      place: null,
    });
    expect([...idx.cousubStates()]).toEqual(["09"]);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Real data file: built from ../shared/data once per test process (test/helpers/data-file.ts).
// ---------------------------------------------------------------------------------------------------------------
describe("BoundaryIndex on the real data file", () => {
  let db: Database;
  let idx: BoundaryIndex;
  beforeAll(async () => {
    db = new Database(await fullDataFile(), { readonly: true });
    idx = BoundaryIndex.fromDatabase(db);
  }, 600_000);
  afterAll(() => db?.close());

  test("downtown Minneapolis", () => {
    expect(idx.lookup(-93.265, 44.9778)).toEqual({
      state: "state:27",
      county: "county:27053",
      cousub: "cousub:2705343000",
      place: "place:2743000",
    });
  });

  test("random points: chains consistent, deterministic", () => {
    const rnd = mulberry32(1);
    let hits = 0;
    for (let i = 0; i < 20000; i++) {
      const lon = -125 + rnd() * 58,
        lat = 25 + rnd() * 24;
      const c = idx.lookup(lon, lat);
      if (c) hits++;
      expect(prefixConsistent(c)).toBe(true);
    }
    expect(hits).toBeGreaterThan(8000);
  });

  test("a tight bound on decoded polygons drops and re-decodes them: every answer is the same, memory stays bounded", () => {
    const tight = BoundaryIndex.fromDatabase(db, { decodedBytes: 2 * 1024 * 1024 });
    const rnd = mulberry32(2);
    const pts: [number, number][] = [];
    for (let i = 0; i < 3000; i++) pts.push([-125 + rnd() * 58, 25 + rnd() * 24]);
    for (const [lon, lat] of [...pts, ...pts.slice(0, 500)])
      expect(tight.lookup(lon, lat)).toEqual(idx.lookup(lon, lat));
    const d = tight.decoded();
    expect(d.evictions).toBeGreaterThan(0);
    expect(d.bytes).toBeLessThan(d.limit + 16 * 1024 * 1024); // at most one shape (the one just decoded) over the bound
  });
});
