// Test harness: the app over the authored YAML (or a given data file), an in-memory state file, and a
// request helper that calls app.handle directly (no socket) with a chosen client address.
import type { LimitClass } from "../../src/config/limits-table";
import { join } from "node:path";
import { loadConfig, type Config } from "../../src/config/config";
import { contentFromYaml } from "../../src/directory/content";
import { buildDeps } from "../../src/cli/compose";
import { createApp, type App } from "../../src/http/app";
import type { Deps } from "../../src/http/deps";
import type { KeyStore } from "../../src/state/keys";

/** Deps over the state file (every test config's state_store): its key store answers at once (no Promise). */
export type FileDeps = Omit<Deps, "keys"> & { keys: KeyStore };

export const ROOT = join(import.meta.dir, "../..");
export const BASE = "http://api.test/v1";
export const PROBLEMS = "http://api.test/problems";

/** The anonymous API classes: what tests lift when they are not about limits. */
export const ANON_CLASSES: LimitClass[] = ["anon_address", "anon_all", "anon_list_address", "anon_list_all"];

/** The default limits with `classes` lifted out of reach (for a test that is not about limits). */
export function liftedLimits(classes: LimitClass[] = ANON_CLASSES): Config["limits"] {
  const limits = { ...testConfig().limits };
  for (const c of classes) limits[c] = { per_minute: 1e9, per_day: 1e9 };
  return limits;
}

export function testConfig(overrides: Partial<Config> = {}): Config {
  return loadConfig(null, {}, {
    base_url: BASE,
    problems_url: PROBLEMS,
    state_file: ":memory:",
    cursor_secret: "test-secret",
    // the Census town service is never reached from tests (test/towns.test.ts serves it from a loopback double)
    towns: { enabled: false, base_url: "", timeout_ms: 0, max_bytes: 4 * 1024 * 1024 },
    ...overrides,
  } as any);
}

export function yamlApp(overrides: Partial<Config> = {}, mutate?: (d: Deps) => void): { app: App; deps: FileDeps } {
  const cfg = testConfig(overrides);
  const deps = buildDeps(cfg, {
    db: null,
    manifest: { as_of: "2026-11-22T00:00:00Z", content_sha256: "test" },
    content: contentFromYaml(join(ROOT, "data")),
  });
  mutate?.(deps);
  return { app: createApp(deps), deps: deps as FileDeps };
}

export interface Call {
  method?: string;
  headers?: Record<string, string>;
  address?: string;
}

export async function call(app: App, path: string, opts: Call = {}) {
  const res = await app.handle(
    new Request(`http://api.test${path}`, { method: opts.method ?? "GET", headers: opts.headers }),
    opts.address ?? "203.0.113.7",
  );
  const text = await res.text();
  let json: any = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {}
  return { res, status: res.status, headers: res.headers, text, json };
}
