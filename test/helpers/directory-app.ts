// The app over a real data file (built once per test process), with limits lifted unless a test sets them,
// and the geocoder pointed at a loopback double when one is given.
import { Database } from "bun:sqlite";
import { buildDeps } from "../../src/cli/compose";
import { createApp, type App } from "../../src/http/app";
import { contentFromStore } from "../../src/directory/content";
import { Directory } from "../../src/directory/directory";
import type { Config } from "../../src/config/config";
import { ANON_CLASSES, liftedLimits, testConfig, type FileDeps } from "./app";
import { fullDataFile } from "./data-file";

let shared: { db: Database; directory: Directory } | null = null;

export async function fullDirectory() {
  if (!shared) {
    const db = new Database(await fullDataFile(), { readonly: true });
    const cfg = testConfig();
    shared = {
      db,
      directory: new Directory(
        db,
        contentFromStore(db),
        (await import("../../src/domain/page-links")).pageLinksFor(cfg.base_url),
      ),
    };
  }
  return shared;
}

export async function fullApp(
  overrides: Partial<Config> = {},
  liftLimits = true,
): Promise<{ app: App; deps: FileDeps }> {
  const { directory } = await fullDirectory();
  const limits = liftLimits ? liftedLimits([...ANON_CLASSES, "pages_address", "pages_all"]) : testConfig().limits;
  const cfg = testConfig({ limits, ...overrides } as any);
  const deps = buildDeps(cfg, {
    db: null,
    manifest: { as_of: "2026-11-22T00:00:00Z", content_sha256: "t" },
    content: directory.content,
  });
  deps.directory = directory;
  return { app: createApp(deps), deps: deps as FileDeps };
}
