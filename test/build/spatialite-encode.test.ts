// scripts/build/spatialite-encode.ts writes the same bytes as mod_spatialite's GeomFromGeoJSON (the build's old path)
// and declines what it does not handle, so the build falls back to SpatiaLite there.
import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { multiPolygonBlob } from "../../scripts/build/spatialite-encode";

const db = new Database(":memory:");
db.loadExtension("mod_spatialite");
const viaSpatialite = (g: object) =>
  new Uint8Array(
    (db.query("SELECT CastToMulti(SetSRID(GeomFromGeoJSON(?), 4326)) AS b").get(JSON.stringify(g)) as { b: Uint8Array })
      .b,
  );

const ring = (x: number, y: number, s: number) => [
  [x, y],
  [x + s, y],
  [x + s, y + s],
  [x, y + s],
  [x, y],
];

describe("multiPolygonBlob", () => {
  test("polygon, polygon with a hole, multipolygon: byte-identical to GeomFromGeoJSON + CastToMulti", () => {
    for (const g of [
      { type: "Polygon", coordinates: [ring(-73.1, 41.2, 0.5)] },
      { type: "Polygon", coordinates: [ring(-73.1, 41.2, 0.5), ring(-73, 41.3, 0.1).reverse()] },
      {
        type: "MultiPolygon",
        coordinates: [[ring(-71.123456789, 41.5, 0.01)], [ring(-71, 41.6, 0.2), ring(-70.95, 41.65, 0.05)]],
      },
    ])
      expect(multiPolygonBlob(g)).toEqual(viaSpatialite(g));
  });
  test("declines Z ordinates, short rings, non-finite numbers and non-polygons (the build then asks SpatiaLite)", () => {
    expect(multiPolygonBlob({ type: "Polygon", coordinates: [ring(0, 0, 1).map(([x, y]) => [x!, y!, 5])] })).toBeNull();
    expect(
      multiPolygonBlob({
        type: "Polygon",
        coordinates: [
          [
            [0, 0],
            [1, 0],
            [0, 0],
          ],
        ],
      }),
    ).toBeNull();
    expect(
      multiPolygonBlob({
        type: "Polygon",
        coordinates: [
          [
            [0, 0],
            [NaN, 0],
            [1, 1],
            [0, 0],
          ],
        ],
      }),
    ).toBeNull();
    expect(multiPolygonBlob({ type: "Point", coordinates: [0, 0] })).toBeNull();
    expect(multiPolygonBlob(null)).toBeNull();
  });
});
