// load-parcels: the staged inputs' summaries, owner columns never read or stored (even when a mapping names
// them), land-use exclusions and rejections counted, GeoPackage and shapefile through GDAL.
import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { $ } from "bun";
import { loadParcels, summaryLines } from "../../src/parcels/load";
import { SqliteParcelSource } from "../../src/parcels/sqlite-source";
import { stagedParcelsFile } from "../helpers/parcels-file";
import { SHARED_DATA } from "../helpers/data-file";
import { ROOT } from "../helpers/app";

const tmp = mkdtempSync(join(tmpdir(), "parcels-load-"));

/** A CSV and its mapping written beside each other under `name`, loaded into the store `name`.sqlite for
 * Hennepin County (county:27053). */
async function loadCsv(name: string, csvLines: string[], mappingLines: string[], log: (l: string) => void = () => {}) {
  const csv = join(tmp, `${name}.csv`),
    mapping = join(tmp, `${name}.yaml`),
    store = join(tmp, `${name}.sqlite`);
  writeFileSync(csv, csvLines.join("\n"));
  writeFileSync(mapping, mappingLines.join("\n"));
  const s = await loadParcels({
    county: "county:27053",
    mappingFile: mapping,
    input: csv,
    store,
    progress: false,
    log,
  });
  return { s, csv, mapping, store };
}

test("the three staged inputs: rows read, kept, merged and left out", async () => {
  const { summaries, path } = await stagedParcelsFile();
  const [king, lucas, lex] = summaries;
  expect([king!.read, king!.kept, king!.merged]).toEqual([21613, 21436, 177]);
  expect(king!.fields).toEqual(["acres", "sale_date", "sale_price", "year_built", "sqft"]);
  expect([lucas!.read, lucas!.kept]).toEqual([25357, 25357]);
  expect(lucas!.fields).toContain("value");
  expect([lex!.read, lex!.kept, lex!.leftOut.condo]).toEqual([39, 38, 1]);
  expect(summaryLines(lex!).join("\n")).toContain("1 condominium common-element records");
  // Lucas: state-plane metres reprojected into Lucas County (about 41.4–41.8 N, 84.0–83.0 W)
  const db = new Database(path, { readonly: true });
  const b = db
    .query("SELECT min(lat) a, max(lat) b, min(lon) c, max(lon) d FROM parcels WHERE county_id = 'county:39095'")
    .get() as any;
  expect(b.a).toBeGreaterThan(41.3);
  expect(b.b).toBeLessThan(41.8);
  expect(b.c).toBeGreaterThan(-84.0);
  expect(b.d).toBeLessThan(-83.0);
  const src = new SqliteParcelSource(path);
  expect((await src.county("county:21067"))!.apiUse).toBe(false);
  db.close();
}, 120_000); // loads the three staged counties (each load writes a copy and renames it)

test("owner columns are dropped from every record on reading: a mapping cannot reach them through any key", async () => {
  const { s, store } = await loadCsv(
    "owners-any-key",
    [
      "PIN,OWNER_NAME,TAXPAYER,GRANTEE,X,Y",
      "001,Zebulon Quixote,Ophelia Marchbanks,Quincy Fairweather,-93.2,45.0",
      "002,Ophelia Marchbanks,Zebulon Quixote,Quincy Fairweather,-93.21,45.01",
    ],
    [
      "source: { name: Test county roll, url: https://example.gov/roll, license: CC0-1.0, license_class: open, api_use: true, as_of: '2024-01-01' }",
      "apn: PIN",
      // keys that are not field columns: the land use and its description, the condominium common elements
      "land_use: { column: OWNER_NAME, description: TAXPAYER }",
      "condo_common: { column: GRANTEE, values: [Nobody] }",
      "coordinates: { lon: X, lat: Y, crs: 'EPSG:4326' }",
    ],
  );
  expect(s.kept).toBe(2);
  const bytes = readFileSync(store).toString("latin1");
  for (const name of ["Zebulon", "Marchbanks", "Fairweather"]) expect(bytes).not.toContain(name);
  // the parcel as answers give it: the land use the mapping pointed at an owner column is not there
  const p = (await new SqliteParcelSource(store).parcel("county:27053", "001"))!;
  expect(p.land_use).toBeNull();
  for (const name of ["Zebulon", "Marchbanks", "Fairweather"]) expect(JSON.stringify(p)).not.toContain(name);
});

test("a mapping that names owner columns: dropped, said so, and no owner name reaches the store", async () => {
  const log: string[] = [];
  const { s, csv, mapping, store } = await loadCsv(
    "owners",
    [
      "PIN,OWNER_NAME,TAXPAYER,MAIL_NAME,SITUS,LOT_ACRES,SALE_DT,LANDUSE,X,Y",
      "001,Zebulon Quixote,Ophelia Marchbanks,Zebulon Quixote,1 MAIN ST,2.5,2020-01-02,RES,-93.2,45.0",
      "002,Ophelia Marchbanks,Ophelia Marchbanks,Ophelia Marchbanks,3 MAIN ST,0.2,2021-05-06,ROAD,-93.2,45.0",
      "003,Zebulon Quixote,X,Y,5 MAIN ST,1.0,2019-13-40,WATER,-93.2,45.0",
      "004,Zebulon Quixote,X,Y,7 MAIN ST,3.0,2018-03-04,CONDO-COMMON,-93.2,45.0",
      ",Zebulon Quixote,X,Y,9 MAIN ST,1.0,2018-03-04,RES,-93.2,45.0",
      "005,Zebulon Quixote,X,Y,11 MAIN ST,4.0,2018-13-04,RES,-93.2,45.0",
    ],
    [
      "source: { name: Test county roll, url: https://example.gov/roll, license: CC0-1.0, license_class: open, api_use: true, as_of: '2024-01-01' }",
      "apn: PIN",
      "owner_name: OWNER_NAME",
      "taxpayer: TAXPAYER",
      "situs_address: MAIL_NAME",
      "acres: { column: LOT_ACRES, unit: acres }",
      "last_sale_date: { column: SALE_DT, format: ISO }",
      "land_use: { column: LANDUSE, road: [ROAD], water: [WATER], condo_common: [CONDO-COMMON] }",
      "coordinates: { lon: X, lat: Y, crs: 'EPSG:4326' }",
    ],
    (l) => log.push(l),
  );
  expect(s.dropped.join("\n")).toContain("mapping key 'owner_name' names owner data: dropped");
  expect(s.dropped.join("\n")).toContain("mapping key 'taxpayer' names owner data: dropped");
  expect(s.dropped.join("\n")).toContain("'situs_address' maps to column 'MAIL_NAME', which holds owner data: dropped");
  expect(log.join("\n")).toContain("input columns 'OWNER_NAME', 'TAXPAYER', 'MAIL_NAME' hold owner data: not read");
  // the log and the summary name the columns, never a value of them
  expect(JSON.stringify([log, s])).not.toMatch(/Zebulon|Marchbanks|Ophelia|Quixote/);
  expect([s.read, s.kept]).toEqual([6, 2]);
  expect(s.leftOut).toEqual({ road: 1, water: 1, condo: 1 });
  expect(s.rejected).toEqual({ "no parcel number": 1 });
  expect(s.unreadable).toEqual({ last_sale_date: 1 });
  const bytes = readFileSync(store).toString("latin1");
  expect(bytes).not.toContain("Zebulon");
  expect(bytes).not.toContain("Marchbanks");
  const src = new SqliteParcelSource(store);
  const info = (await src.county("county:27053"))!;
  expect(info.leftOut).toEqual({ road: 1, water: 1, condo: 1 });
  // a second load writes a new file and renames it over the store (issue 19, item 1): the reader that has the
  // store open sees the new file on its next query, and no half-written file or temporary copy is left
  const inoBefore = statSync(store).ino;
  await loadParcels({
    county: "county:27053",
    mappingFile: mapping,
    input: csv,
    store,
    progress: false,
    log: () => {},
  });
  expect(statSync(store).ino).not.toBe(inoBefore);
  expect(readdirSync(tmp).filter((f) => f.includes(".loading-"))).toEqual([]);
  expect((await src.county("county:27053"))!.leftOut).toEqual({ road: 1, water: 1, condo: 1 });
  const p = (await src.parcel("county:27053", "001"))!;
  expect(p.situs_address).toBeNull();
  expect(Object.keys(p).some((k) => /owner|taxpayer|mail/i.test(k))).toBe(false);
});

describe("GeoPackage and shapefile through GDAL", () => {
  const geojson = join(SHARED_DATA, "parcels", "lexington_fayette_ky_parcels_sample.geojson");
  for (const [ext, driver] of [
    ["gpkg", "GPKG"],
    ["shp", "ESRI Shapefile"],
  ] as const) {
    test(ext, async () => {
      const input = join(tmp, `lex.${ext}`);
      await $`ogr2ogr -f ${driver} ${input} ${geojson}`.quiet();
      const store = join(tmp, `lex-${ext}.sqlite`);
      // shapefile field names are cut to 10 characters; the ones this mapping reads are short already
      const s = await loadParcels({
        county: "county:21067",
        mappingFile: join(ROOT, "data/parcels/lexington-fayette-ky-21067.yaml"),
        input,
        store,
        progress: false,
        log: () => {},
      });
      expect([s.read, s.kept, s.leftOut.condo]).toEqual([39, 38, 1]);
      const hit = await new SqliteParcelSource(store).near(-84.4428, 38.05445, 30);
      expect(hit?.record?.apn).toBe("14118050");
    });
  }
});

test("a joined table with owner columns: dropped at read, said so, and no owner name reaches the store", async () => {
  const shapes = join(tmp, "joined-shapes.geojson");
  const sq = (x: number) => [
    [
      [x, 45],
      [x + 0.001, 45],
      [x + 0.001, 45.001],
      [x, 45.001],
      [x, 45],
    ],
  ];
  writeFileSync(
    shapes,
    JSON.stringify({
      type: "FeatureCollection",
      features: ["A-1", "A-2"].map((k, i) => ({
        type: "Feature",
        properties: { KEY: k },
        geometry: { type: "Polygon", coordinates: sq(-93.2 + i * 0.01) },
      })),
    }),
  );
  writeFileSync(
    join(tmp, "joined-roll.csv"),
    [
      "KEY,OwnerName,Mailing_Address,SITUS,VAL",
      "A-1,Zebulon Quixote,1 Elm,1 MAIN ST,1000",
      "A-2,Ophelia Marchbanks,2 Elm,3 MAIN ST,2000",
    ].join("\n"),
  );
  const mapping = join(tmp, "joined.yaml");
  writeFileSync(
    mapping,
    [
      "source: { name: Test roll, url: https://example.gov/roll, license: CC0-1.0, license_class: open, api_use: true }",
      "apn: KEY",
      "situs_address: SITUS",
      "value: VAL",
      "coordinates: { geometry: true, crs: 'EPSG:4326' }",
      "join: { file: joined-roll.csv, key: KEY }",
    ].join("\n"),
  );
  const store = join(tmp, "joined.sqlite");
  const log: string[] = [];
  const s = await loadParcels({
    county: "county:27053",
    mappingFile: mapping,
    input: shapes,
    store,
    progress: false,
    log: (l) => log.push(l),
  });
  expect(log.join("\n")).toContain("joined table columns 'OwnerName', 'Mailing_Address' hold owner data: not read");
  expect(JSON.stringify([log, s])).not.toMatch(/Zebulon|Marchbanks|Ophelia|Quixote/);
  expect(s.kept).toBe(2);
  const bytes = readFileSync(store).toString("latin1");
  expect(bytes).not.toContain("Zebulon");
  expect(bytes).not.toContain("Marchbanks");
  const hit = await new SqliteParcelSource(store).near(-93.1995, 45.0005, 25);
  expect([hit?.record?.apn, hit?.record?.situs_address, hit?.record?.value]).toEqual(["A-1", "1 MAIN ST", 1000]);
});

test("without staged inputs: an empty store (every county no_data), and it says so", async () => {
  const { loadStaged } = await import("../../src/parcels/staged");
  const store = join(tmp, "empty.sqlite");
  const log: string[] = [];
  expect(
    await loadStaged({ projectRoot: ROOT, sharedData: join(tmp, "no-shared"), store, log: (l) => log.push(l) }),
  ).toEqual([]);
  expect(log.join("\n")).toContain("serving with no parcel data");
  const src = new SqliteParcelSource(store);
  expect(await src.counties()).toEqual([]);
  expect(await src.county("county:53033")).toBeNull();
});
