// Configuration: defaults < YAML file < environment (DIRECTORY_<KEY>, upper case, nested keys joined by "__").
import { parse } from "yaml";
import { readFileSync, existsSync } from "node:fs";
import { LIMIT_CLASSES, type LimitClass, type LimitNumbers } from "./limits-table";

export interface Config {
  host: string;
  port: number;
  base_url: string;          // ends in /v1; empty = http://{host}:{port}/v1
  problems_url: string;      // problem types live under here
  data_file: string;
  state_file: string;
  trusted_proxies: string[]; // socket addresses whose X-Forwarded-For is believed
  service_callers: string[]; // addresses/CIDRs of service callers
  cursor_secret: string | null;
  limits: Record<LimitClass, LimitNumbers>;
  limit_memory: number;      // max tracked addresses/keys per bucket class (LRU)
  timeouts: { geocoder_ms: number; screening_ms: number; request_ms: number };
  geocoder: { base_url: string; benchmark: string; cache_entries: number; cache_ttl_s: number };
  parcels: { file: string; query_timeout_ms: number; max_concurrent: number; retry_after_s: number };
  mcp: { host: string; port: number; path: string };
}

export function defaultConfig(): Config {
  return {
    host: "127.0.0.1",
    port: 8080,
    base_url: "",               // empty: http://{host}:{port}/v1
    problems_url: "",           // empty: the base_url's origin + /problems
    data_file: "./directory.sqlite",
    state_file: "./state/state.sqlite",
    trusted_proxies: [],
    service_callers: [],
    cursor_secret: null,
    limits: structuredClone(LIMIT_CLASSES) as unknown as Record<LimitClass, LimitNumbers>,
    limit_memory: 100_000,
    timeouts: { geocoder_ms: 5000, screening_ms: 8000, request_ms: 30000 },
    geocoder: { base_url: "https://geocoding.geo.census.gov", benchmark: "Public_AR_Current", cache_entries: 50_000, cache_ttl_s: 86400 },
    parcels: { file: "./parcels.sqlite", query_timeout_ms: 2000, max_concurrent: 4, retry_after_s: 2 },
    mcp: { host: "127.0.0.1", port: 8090, path: "/mcp" },
  };
}

function merge(target: any, src: any, path: string): void {
  for (const [k, v] of Object.entries(src ?? {})) {
    if (!(k in target)) throw new Error(`config: unknown key ${path}${k}`);
    if (v !== null && typeof v === "object" && !Array.isArray(v) && typeof target[k] === "object" && target[k] !== null && !Array.isArray(target[k])) {
      merge(target[k], v, `${path}${k}.`);
    } else target[k] = v;
  }
}

function coerce(current: unknown, raw: string): unknown {
  if (typeof current === "number") {
    const n = Number(raw);
    if (!Number.isFinite(n)) throw new Error(`config: not a number: ${raw}`);
    return n;
  }
  if (Array.isArray(current)) return raw.split(",").map((s) => s.trim()).filter(Boolean);
  return raw;
}

/** Environment overrides: DIRECTORY_PORT=9000, DIRECTORY_LIMITS__ANON_ADDRESS__PER_MINUTE=20, ... */
function applyEnv(cfg: any, env: Record<string, string | undefined>): void {
  for (const [name, raw] of Object.entries(env)) {
    if (!name.startsWith("DIRECTORY_") || raw === undefined) continue;
    const keys = name.slice("DIRECTORY_".length).toLowerCase().split("__");
    let obj = cfg;
    for (const k of keys.slice(0, -1)) obj = obj?.[k];
    const last = keys[keys.length - 1]!;
    if (obj && typeof obj === "object" && last in obj) obj[last] = coerce(obj[last], raw);
  }
}

export function loadConfig(file: string | null, env: Record<string, string | undefined> = process.env, overrides: Partial<Config> = {}): Config {
  const cfg = defaultConfig();
  if (file) {
    if (!existsSync(file)) throw new Error(`config: file not found: ${file}`);
    merge(cfg, parse(readFileSync(file, "utf8")) ?? {}, "");
  }
  applyEnv(cfg, env);
  merge(cfg, overrides, "");
  const hostForUrl = cfg.host === "0.0.0.0" || cfg.host === "::" ? "127.0.0.1" : cfg.host.includes(":") ? `[${cfg.host}]` : cfg.host;
  if (!cfg.base_url) cfg.base_url = `http://${hostForUrl}:${cfg.port}/v1`;
  if (!cfg.problems_url) cfg.problems_url = `${cfg.base_url.replace(/\/+$/, "").replace(/\/v1$/, "")}/problems`;
  cfg.base_url = cfg.base_url.replace(/\/+$/, "");
  cfg.problems_url = cfg.problems_url.replace(/\/+$/, "");
  if (!cfg.base_url.endsWith("/v1")) throw new Error("config: base_url must end in /v1");
  return cfg;
}
