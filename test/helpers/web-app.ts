// The app with the web pages in front (as `serve` composes it), over the full data file, the YAML only, or a
// small data file with hostile names. `extraRoutes` lets a test mount a stand-in /v1 route (e.g. screening).
import { Database } from "bun:sqlite";
import { writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createWeb } from "../../src/web";
import { createApp } from "../../src/http/app";
import { ROUTES } from "../../src/http/routes";
import type { RouteDef } from "../../src/http/route";
import type { Config } from "../../src/config/config";
import { buildDeps } from "../../src/cli/compose";
import { contentFromStore } from "../../src/directory/content";
import { Directory } from "../../src/directory/directory";
import { pageLinksFor } from "../../src/domain/page-links";
import { buildData } from "../../scripts/build-data";
import { fullApp } from "./directory-app";
import { ROOT, testConfig, yamlApp } from "./app";

/** extraRoutes replace the routes of the same path; dropPaths removes routes (e.g. a server without /screening). */
export async function fullWebApp(
  overrides: Partial<Config> = {},
  extraRoutes: RouteDef[] = [],
  liftLimits = true,
  dropPaths: string[] = [],
) {
  const r = await fullApp(overrides, liftLimits);
  const gone = new Set([...dropPaths, ...extraRoutes.map((x) => x.path)]);
  const app = gone.size ? createApp(r.deps, [...ROUTES.filter((x) => !gone.has(x.path)), ...extraRoutes]) : r.app;
  r.deps.web = createWeb(r.deps);
  return { app, deps: r.deps };
}

export function yamlWebApp(overrides: Partial<Config> = {}) {
  const r = yamlApp(overrides);
  r.deps.web = createWeb(r.deps);
  return r;
}

/** Names that would run as script if a page did not escape them. */
export const HOSTILE = {
  resource: `<script>alert("resource")</script>`,
  office: `<img src=x onerror=alert("office")>`,
  source: `"><script>alert("source")</script>`,
};

let hostile: Promise<string> | null = null;
/** Atlas-only data file plus one source, resource and office with hostile names on county:27053. */
export function hostileDataFile(): Promise<string> {
  if (!hostile) {
    const dir = mkdtempSync(join(tmpdir(), "directory-web-"));
    const yaml = join(dir, "hostile.yaml");
    writeFileSync(
      yaml,
      [
        "sources:",
        "  - source_id: fixture-hostile",
        `    name: ${JSON.stringify(HOSTILE.source)}`,
        "    url: https://example.gov/hostile",
        "    publisher: Example County",
        '    vintage: "2026"',
        "    official: true",
        "    license_class: open",
        "resources:",
        "  - resource_id: fixture-hostile-resource",
        "    jurisdiction_id: county:27053",
        `    name: ${JSON.stringify(HOSTILE.resource)}`,
        `    description: ${JSON.stringify(HOSTILE.resource)}`,
        "    url: https://example.gov/hostile",
        "    topics: [county_gis]",
        "    official: 1",
        "    verified_status: not_yet_verified",
        "    source_kind: hand-added",
        "    source_id: fixture-hostile",
        "    sort_key: 1",
        "offices:",
        "  - office_id: fixture-hostile-office",
        "    jurisdiction_id: county:27053",
        `    name: ${JSON.stringify(HOSTILE.office)}`,
        "    function: gis",
        "    url: https://example.gov/hostile-office",
        "    verified_status: not_yet_verified",
        "    source_kind: hand-added",
        "    source_id: fixture-hostile",
        "    documented: 1",
        "",
      ].join("\n"),
    );
    const out = join(dir, "hostile.sqlite");
    hostile = buildData({ out, sourcesDir: null, projectRoot: ROOT, log: () => {}, extraRecords: [yaml] }).then(
      () => out,
    );
  }
  return hostile;
}

export async function hostileWebApp() {
  const db = new Database(await hostileDataFile(), { readonly: true });
  const cfg = testConfig();
  const deps = buildDeps(cfg, {
    db: null,
    manifest: { as_of: "2026-11-22T00:00:00Z", content_sha256: "h" },
    content: contentFromStore(db),
  });
  deps.directory = new Directory(db, deps.content, pageLinksFor(cfg.base_url));
  const app = createApp(deps);
  deps.web = createWeb(deps);
  return { app, deps };
}
