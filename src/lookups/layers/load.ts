// `directory load-layer --kind flood|wetlands|shoreland|soils FILE`: copy the wanted layers of a publisher's
// download (FEMA NFHL county file geodatabase or shapefile folder, NWI state download, MN DNR PWI, SSURGO map units;
// any format GDAL reads, or a folder of such files) into the layers file with GDAL's ogr2ogr (reprojected to
// WGS84, multi-geometries), then index each feature's box in an R*Tree and record the source trail.
import { Database } from "bun:sqlite";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { blobMbr, DEFAULT_PUBLISHER, EXTENT_TAG, KINDS, LAYER_SOURCES_DDL, LAYER_TAGS, type Kind } from "./schema";

export interface LoadOptions {
  kind: Kind;
  /** one download, or several files of one publisher's layer set (e.g. a city's 1 % and 0.2 % flood files) */
  file: string | string[];
  /** a polygon file whose shape is the load's coverage (e.g. the city boundary of a city's clip) */
  extent?: string;
  layersFile: string;
  publisher?: string;
  vintage?: string;
  state?: string;
  log?: (line: string) => void;
}

interface LoadResult {
  loadId: number;
  tables: { tag: string; table: string; sourceLayer: string; features: number }[];
  sha256: string;
}

const run = (cmd: string[]) => {
  const p = Bun.spawnSync(cmd, { stdout: "pipe", stderr: "pipe" });
  if (p.exitCode !== 0)
    throw new Error(`${cmd[0]} failed: ${p.stderr.toString().trim().split("\n").slice(-3).join(" ")}`);
  return p.stdout.toString();
};

/** Files GDAL should open: the path itself, or the readable files of a folder (shapefiles, GeoJSON, GeoPackage). */
function datasets(path: string): string[] {
  if (!statSync(path).isDirectory() || /\.gdb\/?$/i.test(path)) return [path];
  return readdirSync(path)
    .filter((f) => /\.(shp|geojson|json|gpkg|sqlite)$/i.test(f))
    .sort()
    .map((f) => join(path, f));
}

/** Field names of one layer, lower-case (`ogrinfo -ro -so` prints "name: Type (width.precision)"). */
function fieldsOf(dataset: string, layer: string): string[] {
  return run(["ogrinfo", "-ro", "-so", "-nomd", dataset, layer])
    .split("\n")
    .map((l) =>
      /^([A-Za-z_][\w]*): (String|Integer|Integer64|Real|Date|DateTime|Time|Binary)/.exec(l)?.[1]?.toLowerCase(),
    )
    .filter((x): x is string => !!x);
}

/** Layer names of a dataset (`ogrinfo -ro -q` prints "1: NAME (Geometry Type)"). */
function layersOf(dataset: string): string[] {
  return run(["ogrinfo", "-ro", "-q", dataset])
    .split("\n")
    .map((l) => /^\s*\d+:\s+(.+?)(\s+\([^)]*\))?\s*$/.exec(l)?.[1])
    .filter((x): x is string => !!x);
}

/** sha256 of a file, or of a folder's files (names and contents, sorted). */
export function sha256Of(path: string): string {
  const h = createHash("sha256");
  if (!statSync(path).isDirectory()) return h.update(readFileSync(path)).digest("hex");
  const walk = (d: string): string[] =>
    readdirSync(d)
      .sort()
      .flatMap((f) => {
        const p = join(d, f);
        return statSync(p).isDirectory() ? walk(p) : [p];
      });
  for (const f of walk(path)) h.update(f.slice(path.length)).update("\0").update(readFileSync(f));
  return h.digest("hex");
}

/** sha256 of several files: of their names and contents, in order. */
function sha256OfAll(paths: string[]): string {
  const h = createHash("sha256");
  for (const p of paths) h.update(basename(p)).update("\0").update(sha256Of(p));
  return h.digest("hex");
}

export function loadLayer(o: LoadOptions): LoadResult {
  const log = o.log ?? (() => {});
  const files = Array.isArray(o.file) ? o.file : [o.file];
  if (!LAYER_TAGS[o.kind]) throw new Error(`unknown kind '${o.kind}' (${KINDS.join(", ")})`);
  for (const f of [...files, ...(o.extent ? [o.extent] : [])])
    if (!existsSync(f)) throw new Error(`file not found: ${f}`);
  if (o.state !== undefined && !/^[A-Za-z]{2}$/.test(o.state)) throw new Error("--state must be a two-letter code");
  if (!o.publisher && !DEFAULT_PUBLISHER[o.kind])
    throw new Error(`--kind ${o.kind} needs --publisher (who mapped these wetlands: never the national inventory)`);
  const sha256 = files.length === 1 ? sha256Of(files[0]!) : sha256OfAll([...files].sort());
  // pick the layers this kind reads: by name, else by the fields the tag needs; several files of one tag append
  const picked: { tag: string; dataset: string; layer: string }[] = [];
  for (const ds of files.flatMap(datasets)) {
    for (const layer of layersOf(ds)) {
      let t = LAYER_TAGS[o.kind].find((x) => x.match.test(layer));
      if (!t) {
        const have = new Set(fieldsOf(ds, layer));
        t = LAYER_TAGS[o.kind].find((x) => x.fields?.every((f) => have.has(f)));
      }
      if (t && (files.length > 1 || !picked.some((p) => p.tag === t!.tag)))
        picked.push({ tag: t.tag, dataset: ds, layer });
    }
  }
  const main = LAYER_TAGS[o.kind][0]!.tag;
  if (!picked.some((p) => p.tag === main) && !(o.kind === "shoreland" && picked.length)) {
    throw new Error(
      `no ${o.kind} layer found in ${files.map((f) => basename(f)).join(", ")} (looked for ${LAYER_TAGS[o.kind].map((t) => t.match.source).join(", ")})`,
    );
  }
  if (o.extent) {
    const layer = layersOf(o.extent)[0];
    if (!layer) throw new Error(`no layer in the extent file ${basename(o.extent)}`);
    picked.push({ tag: EXTENT_TAG, dataset: o.extent, layer });
  }
  const fresh = !existsSync(o.layersFile);
  let loadId = 1;
  if (!fresh) {
    // ogr2ogr creates the file (a SpatiaLite database); ours are added after it
    const prev = new Database(o.layersFile, { readonly: true });
    const has =
      prev.query<{ n: number }, []>("SELECT COUNT(*) AS n FROM sqlite_master WHERE name = 'layer_sources'").get()!.n >
      0;
    if (has)
      loadId = (prev.query<{ n: number | null }, []>("SELECT MAX(load_id) AS n FROM layer_sources").get()?.n ?? 0) + 1;
    prev.close();
  }
  const tables: LoadResult["tables"] = [];
  for (const p of picked) {
    const table = `layer_${loadId}_${p.tag}`;
    const again = tables.find((t) => t.table === table); // a second file of the same tag: appended
    log(`${o.kind}: ${basename(p.dataset)} layer ${p.layer} → ${table}`);
    run([
      "ogr2ogr",
      "-f",
      "SQLite",
      ...(fresh && tables.length === 0 ? ["-dsco", "SPATIALITE=YES"] : ["-update"]),
      ...(again ? ["-append"] : []),
      "-nln",
      table,
      "-nlt",
      "PROMOTE_TO_MULTI",
      "-t_srs",
      "EPSG:4326",
      "-lco",
      "GEOMETRY_NAME=geom",
      "-lco",
      "SPATIAL_INDEX=NO",
      "-lco",
      "LAUNDER=YES",
      o.layersFile,
      p.dataset,
      p.layer,
    ]);
    if (again) again.sourceLayer += ` + ${p.layer}`;
    else tables.push({ tag: p.tag, table, sourceLayer: p.layer, features: 0 });
  }
  const db = new Database(o.layersFile);
  db.run(LAYER_SOURCES_DDL);
  const loadedAt = new Date().toISOString();
  const vintage = o.vintage ?? new Date(statSync(files[0]!).mtimeMs).toISOString().slice(0, 10);
  db.transaction(() => {
    for (const t of tables) {
      db.run(`CREATE VIRTUAL TABLE "${t.table}_rtree" USING rtree(id, minx, maxx, miny, maxy)`);
      const ins = db.prepare(`INSERT INTO "${t.table}_rtree" VALUES (?, ?, ?, ?, ?)`);
      let ext = [Infinity, Infinity, -Infinity, -Infinity];
      for (const r of db
        .query<{ id: number; geom: Uint8Array | null }, []>(`SELECT ogc_fid AS id, geom FROM "${t.table}"`)
        .iterate()) {
        const m = r.geom ? blobMbr(r.geom) : null;
        if (!m) continue;
        ins.run(r.id, m[0], m[2], m[1], m[3]);
        ext = [Math.min(ext[0]!, m[0]), Math.min(ext[1]!, m[1]), Math.max(ext[2]!, m[2]), Math.max(ext[3]!, m[3])];
        t.features++;
      }
      db.run(`INSERT INTO layer_sources VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, [
        loadId,
        o.kind,
        t.tag,
        t.table,
        t.sourceLayer,
        o.publisher ?? DEFAULT_PUBLISHER[o.kind],
        files.map((f) => basename(f)).join(" + "),
        sha256,
        vintage,
        o.state?.toUpperCase() ?? null,
        loadedAt,
        t.features,
        ...((t.features ? ext : [null, null, null, null]) as number[]),
      ]);
      log(`${t.table}: ${t.features} features`);
    }
  })();
  db.close();
  return { loadId, tables, sha256 };
}
