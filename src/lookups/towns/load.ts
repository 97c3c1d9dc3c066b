// `directory load-boundaries --kind cousub FILE`: an official county-subdivision file an operator downloaded (Census
// TIGER/Line `tl_<year>_<state>_cousub.zip`, a Census cartographic boundary file, GeoJSON or GeoPackage; fields
// STATEFP, COUNTYFP, COUSUBFP, GEOID, NAME, NAMELSAD, LSAD, FUNCSTAT, or their …10/…20 forms) read with GDAL's
// ogr2ogr (reprojected to EPSG:4326) into the layers file's town table, with its trail (file name, sha256,
// vintage). The answers then place a point in its town offline, where the data file holds no town boundaries.
import { basename } from "node:path";
import { sha256Of } from "../layers/load";
import { TownStore } from "./store";
import { CENSUS, type TownPolygon } from "./tigerweb";

const pick = (p: Record<string, unknown>, names: string[]): string | null => {
  for (const n of names)
    for (const k of Object.keys(p)) if (k.toUpperCase() === n && p[k] != null && p[k] !== "") return String(p[k]);
  return null;
};

/** What GDAL should open: zips and gzips through its virtual file systems. */
function gdalPath(file: string): string {
  if (/\.zip$/i.test(file)) return `/vsizip/${file}`;
  if (/\.gz$/i.test(file)) return `/vsigzip/${file}`;
  return file;
}

/** Town polygons of a GeoJSON FeatureCollection (refuses features without a 10-digit GEOID). */
function townsOfGeoJson(fc: { features?: any[] }): { towns: TownPolygon[]; skipped: number } {
  const towns: TownPolygon[] = [];
  let skipped = 0;
  for (const f of fc.features ?? []) {
    const p = (f?.properties ?? {}) as Record<string, unknown>;
    const st = pick(p, ["STATEFP", "STATEFP20", "STATEFP10"]);
    const geoid =
      pick(p, ["GEOID", "GEOID20", "GEOID10"]) ??
      (st
        ? `${st}${pick(p, ["COUNTYFP", "COUNTYFP20", "COUNTYFP10"]) ?? ""}${pick(p, ["COUSUBFP", "COUSUBFP20", "COUSUBFP10"]) ?? ""}`
        : "");
    const g = f?.geometry;
    const polys: number[][][][] =
      g?.type === "Polygon" ? [g.coordinates] : g?.type === "MultiPolygon" ? g.coordinates : [];
    if (!/^\d{10}$/.test(geoid) || !polys.length) {
      skipped++;
      continue;
    }
    towns.push({
      geoid,
      name: pick(p, ["NAMELSAD", "NAMELSAD20", "NAMELSAD10", "NAME", "NAME20", "NAME10"]) ?? geoid,
      funcstat: pick(p, ["FUNCSTAT", "FUNCSTAT20", "FUNCSTAT10"]),
      polygons: polys.map((rings) => rings.map((r) => Float64Array.from(r.flatMap((pt) => [pt[0]!, pt[1]!])))),
    });
  }
  return { towns, skipped };
}

export function loadBoundaries(o: { file: string; layersFile: string; vintage?: string | undefined; now?: Date }): {
  towns: number;
  skipped: number;
  sha256: string;
  states: string[];
} {
  const p = Bun.spawnSync(
    ["ogr2ogr", "-f", "GeoJSON", "-t_srs", "EPSG:4326", "-lco", "RFC7946=NO", "/vsistdout/", gdalPath(o.file)],
    { stdout: "pipe", stderr: "pipe" },
  );
  if (p.exitCode !== 0)
    throw new Error(`ogr2ogr could not read ${o.file}: ${p.stderr.toString().trim().split("\n").slice(-2).join(" ")}`);
  const { towns, skipped } = townsOfGeoJson(JSON.parse(p.stdout.toString()));
  if (!towns.length) throw new Error(`${o.file}: no county subdivision with a 10-digit GEOID and a polygon`);
  const sha256 = sha256Of(o.file);
  const store = new TownStore(o.layersFile);
  try {
    store.put(towns, {
      kind: "file",
      dataset: `${basename(o.file)} (county subdivisions, loaded file${o.vintage ? `, vintage ${o.vintage}` : ""})`,
      publisher: CENSUS,
      url: `urn:sha256:${sha256}`,
      vintage: o.vintage ?? null,
      fetched_at: new Date().toISOString(),
    });
  } finally {
    store.close();
  }
  return { towns: towns.length, skipped, sha256, states: [...new Set(towns.map((t) => t.geoid.slice(0, 2)))].sort() };
}
