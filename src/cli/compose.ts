// The composition root: config → data file → content, keys, limits, cursors → the app.
import { Database } from "bun:sqlite";
import { existsSync } from "node:fs";
import { createHash } from "node:crypto";
import type { Config } from "../config/config";
import { contentFromStore, type Content } from "../directory/content";
import { pageLinksFor } from "../domain/page-links";
import { openStateStore } from "../state/open";
import { lookupTaker, type Limits } from "../http/limits";
import { limitsFor } from "../http/limit-stores";
import { Directory } from "../directory/directory";
import { AddressLookup } from "../lookups/geocoder/service";
import { CensusGeocoder } from "../lookups/geocoder/census";
import { Cursors } from "../http/paging";
import { DEPRECATIONS } from "../http/deprecations";
import { createApp, type App } from "../http/app";
import type { Deps } from "../http/deps";
import { Screening } from "../lookups/screening";
import { LayerStore } from "../lookups/layers/store";
import { TownStore } from "../lookups/towns/store";
import { TownFinder } from "../lookups/towns/finder";
import { createWeb } from "../web";
import { parcelSourceFor } from "../parcels/open";
import { mcpContext } from "../mcp/context";
import { allowedHostnames, mcpHttpHandler } from "../mcp/transports";
import { fullRequest } from "../http/incoming";

interface Opened {
  db: Database | null;
  manifest: Record<string, string>;
  content: Content;
}

/** Open the data file read-only and check its manifest; a tampered or mismatched file is refused. */
export async function openDataFile(path: string): Promise<{ db: Database; manifest: Record<string, string> }> {
  if (!existsSync(path)) throw new Error(`data file not found: ${path} (build it with: npx bun run build-data)`);
  const { verifyManifest } = await import("../directory/manifest");
  const v = verifyManifest(path);
  if (!v.ok) throw new Error(`data file refused: ${v.error}`);
  const db = new Database(path, { readonly: true });
  return { db, manifest: v.manifest as Record<string, string> };
}

/** The data file with its content (serve and mcp require one: a missing or refused file stops them at start). */
export async function openData(cfg: Config): Promise<Opened> {
  const { db, manifest } = await openDataFile(cfg.data_file);
  return { db, manifest, content: contentFromStore(db) };
}

export function buildDeps(cfg: Config, opened: Opened, log?: (s: string) => void): Deps {
  // keys and link results: the state file, or PostgreSQL shared by every replica (config state_store)
  const state = openStateStore(cfg, { serving: true, log });
  const links = pageLinksFor(cfg.base_url);
  links.results = state.view;
  const limiter = limitsFor(cfg, log);
  const secret =
    cfg.cursor_secret ??
    createHash("sha256")
      .update(`cursor|${opened.manifest.content_sha256 ?? ""}|${cfg.base_url}`)
      .digest("hex");
  return {
    config: cfg,
    content: opened.content,
    asOf: opened.manifest.as_of ?? new Date(0).toISOString(),
    links,
    keys: state.keys,
    state,
    limiter,
    directory: opened.db ? withTowns(new Directory(opened.db, opened.content, links), cfg, limiter) : null,
    addresses: new AddressLookup({
      client: new CensusGeocoder({
        baseUrl: cfg.geocoder.base_url,
        timeoutMs: cfg.timeouts.geocoder_ms,
        benchmark: cfg.geocoder.benchmark,
      }),
      ttlMs: cfg.geocoder.cache_ttl_s * 1000,
      maxEntries: cfg.geocoder.cache_entries,
      takeLookup: lookupTaker(limiter),
      enabled: cfg.geocoder.enabled !== false && cfg.geocoder.base_url !== "",
    }),
    cursors: new Cursors(secret),
    deprecations: DEPRECATIONS,
    parcels: parcelSourceFor(cfg, log),
    log,
    screening: new Screening({
      config: cfg.screening,
      timeoutMs: cfg.timeouts.screening_ms,
      layers: LayerStore.open(cfg.layers_file),
      takeLookup: lookupTaker(limiter),
    }),
  };
}

/** The directory asks for towns where it holds no town boundaries: kept polygons and loaded files in the layers
 *  file, then the Census Bureau's service (config towns); both made on first need. */
function withTowns(dir: Directory, cfg: Config, limiter: Limits): Directory {
  const t = cfg.towns;
  let finder: TownFinder | undefined;
  dir.towns = {
    find: (lon, lat, fips) =>
      (finder ??= new TownFinder({
        store: townStore(cfg),
        service: { ...t, timeout_ms: t.timeout_ms > 0 ? t.timeout_ms : cfg.timeouts.screening_ms },
        takeLookup: lookupTaker(limiter),
      })).find(lon, lat, fips),
  };
  return dir;
}

/** The layers file's towns, or null: a file is created only to keep what the service answers (an air-gapped
 *  install without one creates none), and one that cannot be opened for writing keeps nothing. */
function townStore(cfg: Config): TownStore | null {
  if (!existsSync(cfg.layers_file) && !(cfg.towns.enabled && cfg.towns.base_url)) return null;
  try {
    return new TownStore(cfg.layers_file);
  } catch {
    return null;
  }
}

/** The app, and the web pages in front of it (they call the app in-process for find and screening). */
export function composeApp(deps: Deps): App {
  const app = createApp(deps);
  deps.web = createWeb(deps);
  return app;
}

/** The MCP endpoint on the API's own port (serve with mcp.in_serve): one process, one limiter (spec part 8: MCP
 *  calls count in the anonymous list bucket of all callers together). */
export function mountMcp(deps: Deps): void {
  const handle = mcpHttpHandler(mcpContext(deps), allowedHostnames(deps.config.host, deps.config.base_url));
  deps.mcp = { path: deps.config.mcp.path, handle: async (req) => handle(await fullRequest(req)) };
}
