// The features of a raw GeoJSON feature list whose (Multi)Polygon holds a point, by an even-odd test of the tests'
// own (inRings of the loopback doubles): lets a test check its points against a publisher's file, independently
// of the loader and the store.
import { inRings } from "../doubles/screening-services";

export function propsHolding(features: any[], x: number, y: number): any[] {
  return features
    .filter((f) =>
      (f.geometry.type === "Polygon" ? [f.geometry.coordinates] : f.geometry.coordinates).some((p: number[][][]) =>
        inRings(p, x, y),
      ),
    )
    .map((f) => f.properties);
}
