// Input readers for load-parcels: CSV, GeoJSON, TopoJSON (topojson-client: the arcs decoded with the file's own
// quantization transform) and (through GDAL's ogr2ogr) GeoPackage and shapefile. Each gives records of
// { props, geometry } with the input's own coordinates (reprojection is the loader's job).
import { readFileSync } from "node:fs";
import { extname } from "node:path";
import { feature } from "topojson-client";
import { parseCsv } from "../../scripts/build/csv";

export interface InputRecord {
  props: Record<string, unknown>;
  geometry: { type: string; coordinates: any } | null;
  /** a condominium building's unit count, set by the join (join.ts) */
  units?: number | null;
}
interface Input {
  format: string;
  records: InputRecord[];
  columns: string[];
}

function formatOf(path: string): "csv" | "geojson" | "topojson" | "gpkg" | "shp" {
  const e = extname(path).toLowerCase();
  if (e === ".csv" || e === ".txt") return "csv";
  if (e === ".topojson") return "topojson";
  if (e === ".geojson" || e === ".json") return "geojson";
  if (e === ".gpkg") return "gpkg";
  if (e === ".shp" || e === ".zip") return "shp";
  throw new Error(`unknown input format '${e}': give a .csv, .geojson, .topojson, .gpkg or .shp file`);
}

const columnsOf = (records: InputRecord[]) => [...new Set(records.slice(0, 100).flatMap((r) => Object.keys(r.props)))];

function fromFeatures(features: any[]): InputRecord[] {
  return features.map((f) => ({ props: f?.properties ?? {}, geometry: f?.geometry ?? null }));
}

/** Every feature of a TopoJSON file's one object (a file of several objects is refused: say which one). */
function fromTopology(topo: any, path: string): InputRecord[] {
  const names = Object.keys(topo?.objects ?? {});
  if (topo?.type !== "Topology" || names.length !== 1)
    throw new Error(`${path}: a TopoJSON Topology with exactly one object is needed (found ${names.length})`);
  const fc = feature(topo, topo.objects[names[0]!]) as any;
  return fromFeatures(fc.type === "FeatureCollection" ? fc.features : [fc]);
}

/** GeoPackage and shapefile through ogr2ogr (GDAL), as GeoJSON features in the layer's own CRS. */
async function viaOgr(path: string): Promise<InputRecord[]> {
  const src = extname(path).toLowerCase() === ".zip" ? `/vsizip/${path}` : path;
  const p = Bun.spawn(["ogr2ogr", "-f", "GeoJSONSeq", "/vsistdout/", src], { stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  if (code !== 0) throw new Error(`ogr2ogr could not read ${path}: ${err.trim().split("\n")[0]}`);
  return fromFeatures(
    out
      .split("\n")
      .map((l) => l.replace(/^\x1e/, "").trim())
      .filter(Boolean)
      .map((l) => JSON.parse(l)),
  );
}

export async function readInput(path: string): Promise<Input> {
  const format = formatOf(path);
  let records: InputRecord[];
  if (format === "csv") records = parseCsv(readFileSync(path, "utf8")).map((props) => ({ props, geometry: null }));
  else if (format === "geojson") {
    const doc = JSON.parse(readFileSync(path, "utf8"));
    records = fromFeatures(doc.type === "FeatureCollection" ? doc.features : [doc]);
  } else if (format === "topojson") records = fromTopology(JSON.parse(readFileSync(path, "utf8")), path);
  else records = await viaOgr(path);
  return { format, records, columns: columnsOf(records) };
}
