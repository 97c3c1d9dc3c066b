// Configuration: defaults < YAML file < environment (DIRECTORY_<KEY>, upper case, nested keys joined by "__").
import { parse } from "yaml";
import { readFileSync, existsSync } from "node:fs";
import { LIMIT_CLASSES, type LimitClass, type LimitNumbers } from "./limits-table";
import { serviceDefaults, type ScreeningConfig } from "../lookups/screening";
import { TIGERWEB_COUSUB_LAYER } from "../lookups/towns/tigerweb";
import type { ServiceDef } from "../lookups/screening/types";

export interface Config {
  host: string;
  port: number;
  front: "bun" | "node"; // the HTTP front (src/http/server.ts): Bun.serve, or node:http answering unparsable requests too
  base_url: string; // ends in /v1; empty = http://{host}:{port}/v1
  problems_url: string; // problem types live under here
  data_file: string;
  state_file: string;
  trusted_proxies: string[]; // socket addresses whose X-Forwarded-For is believed
  service_callers: string[]; // addresses/CIDRs of service callers
  cursor_secret: string | null;
  limits: Record<LimitClass, LimitNumbers>;
  limit_memory: number; // max tracked addresses/keys per bucket class (LRU)
  /** where the limit counters live (src/http/limit-stores): "memory" (this process only), "file" (limits_file, a
   *  SQLite file shared by the workers of one machine) or a redis:// URL (shared by replicas on many machines) */
  limits_store: string;
  limits_file: string;
  /** a shared limits store that has not answered in this long: the request is counted in this process's memory */
  limits_store_timeout_ms: number;
  /** processes serving on the one port (serve --workers; 0 = one per core) */
  workers: number;
  /** soft memory limit of each serving process in MB (src/cli/memory-limit.ts): above it a full collection runs,
   *  at most every 250 ms; 0 = off */
  memory_limit_mb: number;
  /** where API keys and link-check results live: "file" (state_file) or a postgres:// URL shared by replicas */
  state_store: string;
  timeouts: { geocoder_ms: number; screening_ms: number; request_ms: number; shutdown_grace_ms: number };
  /** the Census geocoder behind ?address= ("" or enabled false = switched off: address search is not offered) */
  geocoder: { enabled: boolean; base_url: string; benchmark: string; cache_entries: number; cache_ttl_s: number };
  links: LinksConfig; // the link checker (src/links)
  layers_file: string; // optional offline screening layers (load-layer); missing file = none
  screening: ScreeningConfig;
  /** Town and township boundaries where the data file holds none (src/lookups/towns): the Census Bureau's TIGERweb
   *  County Subdivisions layer ("" or enabled false = switched off), kept in layers_file */
  towns: { enabled: boolean; base_url: string; timeout_ms: number; max_bytes: number };
  /** contact and license of the OpenAPI document's info block: the operator's own (null = a neutral default
   * pointing at the service's home page) */
  openapi: {
    contact: { name: string; url?: string; email?: string };
    license: { name: string; url?: string; identifier?: string };
  } | null;
  /** parcel data: `source` "" = the SQLite store `file`; a postgres:// URL = a PostGIS database (load-parcels --into) */
  parcels: { file: string; source: string; query_timeout_ms: number; max_concurrent: number; retry_after_s: number };
  /** The assistant-protocol server: in_serve mounts its Streamable HTTP endpoint at `path` on the API's own port,
   *  drawing from the API's limiter; host and port are those of the separate `directory mcp --http` process. */
  mcp: { in_serve: boolean; host: string; port: number; path: string };
}

export interface LinksConfig {
  user_agent: string; // product token and version; the contact is appended: "<user_agent> (+<contact>)"
  contact: string; // e-mail or URL site owners can reach the operator at (required by check-links)
  timeout_ms: number; // per request (connect + response headers)
  max_redirects: number; // more → failure too-many-redirects
  concurrency: number; // checks at once, all hosts together
  per_host_concurrency: number; // checks at once on one host
  per_host_delay_ms: number; // pause between two checks on one host (robots.txt Crawl-delay raises it, ≤ 60 s)
  broken_after_failures: number; // N: possibly_broken only after N consecutive failures ...
  broken_after_days: number; // M: ... spanning at least M days
  schedule_hours: number; // serve runs the checker every this many hours; 0 = off (the default)
  reload_s: number; // serve re-reads results written by a `check-links` process this often; 0 = never
}

/** The defaults; `services` are the screening services whose blocks the screening block holds. */
export function defaultConfig(services?: readonly ServiceDef[]): Config {
  return {
    host: "127.0.0.1",
    port: 8080,
    front: "bun",
    base_url: "", // empty: http://{host}:{port}/v1
    problems_url: "", // empty: the base_url's origin + /problems
    data_file: "./directory.sqlite",
    state_file: "./state/state.sqlite",
    trusted_proxies: [],
    service_callers: [],
    cursor_secret: null,
    limits: structuredClone(LIMIT_CLASSES) as unknown as Record<LimitClass, LimitNumbers>,
    limit_memory: 100_000,
    limits_store: "memory",
    limits_file: "./state/limits.sqlite",
    limits_store_timeout_ms: 250,
    workers: 1,
    memory_limit_mb: 300,
    state_store: "file",
    timeouts: { geocoder_ms: 5000, screening_ms: 8000, request_ms: 30000, shutdown_grace_ms: 10000 },
    geocoder: {
      enabled: true,
      base_url: "https://geocoding.geo.census.gov",
      benchmark: "Public_AR_Current",
      cache_entries: 50_000,
      cache_ttl_s: 86400,
    },
    links: {
      user_agent: "property-land-gis-directory-linkcheck/0.1",
      contact: "",
      timeout_ms: 15_000,
      max_redirects: 5,
      concurrency: 8,
      per_host_concurrency: 1,
      per_host_delay_ms: 2_000,
      broken_after_failures: 3,
      broken_after_days: 7,
      schedule_hours: 0,
      reload_s: 60,
    },
    layers_file: "./layers.sqlite",
    screening: {
      h3_resolution: 11,
      cache_entries: 20_000,
      cache_ttl_s: 86400,
      cache_mb: 128,
      max_concurrent: 32,
      max_bytes: 4 * 1024 * 1024,
      wetlands_near_m: 30,
      ...serviceDefaults(services),
    },
    towns: {
      enabled: true,
      base_url: TIGERWEB_COUSUB_LAYER,
      timeout_ms: 0,
      max_bytes: 4 * 1024 * 1024,
    },
    openapi: null,
    parcels: { file: "./parcels.sqlite", source: "", query_timeout_ms: 2000, max_concurrent: 4, retry_after_s: 2 },
    mcp: { in_serve: true, host: "127.0.0.1", port: 8090, path: "/mcp" },
  };
}

function merge(target: any, src: any, path: string): void {
  for (const [k, v] of Object.entries(src ?? {})) {
    if (!(k in target)) throw new Error(`config: unknown key ${path}${k}`);
    if (
      v !== null &&
      typeof v === "object" &&
      !Array.isArray(v) &&
      typeof target[k] === "object" &&
      target[k] !== null &&
      !Array.isArray(target[k])
    ) {
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
  if (typeof current === "boolean") {
    if (!/^(true|false|1|0)$/i.test(raw.trim())) throw new Error(`config: not a boolean: ${raw}`);
    return /^(true|1)$/i.test(raw.trim());
  }
  if (Array.isArray(current))
    return raw
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
  return raw;
}

/** Environment overrides: DIRECTORY_PORT=9000, DIRECTORY_LIMITS__ANON_ADDRESS__PER_MINUTE=20, ... */
function applyEnv(cfg: any, env: Record<string, string | undefined>): void {
  for (const [name, raw] of Object.entries(env)) {
    if (!name.startsWith("DIRECTORY_") || raw === undefined) continue;
    const keys = name.slice("DIRECTORY_".length).toLowerCase().split("__");
    let obj = cfg;
    for (const k of keys.slice(0, -1)) obj = obj && typeof obj === "object" && k in obj ? obj[k] : undefined;
    const last = keys[keys.length - 1]!;
    // a misspelt key is refused, as in the YAML file: a silent default is worse than a refusal at start
    if (
      !(obj && typeof obj === "object" && !Array.isArray(obj) && last in obj) ||
      (obj[last] !== null && typeof obj[last] === "object" && !Array.isArray(obj[last]))
    )
      throw new Error(`config: unknown environment key ${name} (no setting ${keys.join(".")})`);
    obj[last] = coerce(obj[last], raw);
  }
}

/** Every limit a whole number of at least 1: 0 or a negative number would refuse every request, and a fraction
 *  would break the RateLimit-Policy header's q=<integer>. */
function checkLimits(cfg: Config): void {
  for (const [cls, n] of Object.entries(cfg.limits))
    for (const k of ["per_minute", "per_day"] as const) {
      const v = (n as LimitNumbers)[k];
      if (!Number.isInteger(v) || v < 1)
        throw new Error(
          `config: limits.${cls}.${k} must be a whole number of at least 1, not ${String(v).slice(0, 20)}`,
        );
    }
}

export const isWildcard = (host: string) => host === "0.0.0.0" || host === "::";
/** The host a client on this machine reaches a server bound to `host` at, as a URL host: 127.0.0.1 for a wildcard,
 *  an IPv6 address in brackets. */
export const localAddress = (host: string) =>
  isWildcard(host) ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host;

const WILDCARD_WITHOUT_BASE = new WeakSet<Config>();

/** Serving on every address (host 0.0.0.0 or ::) with no base_url would put http://127.0.0.1:PORT in every page_url
 *  and in OpenAPI `servers` (a generated client's base): wrong for every other machine. serve refuses to start then,
 *  in one line naming the fix; null when the config is fine. */
export function wildcardWithoutBaseUrl(cfg: Config): string | null {
  return WILDCARD_WITHOUT_BASE.has(cfg)
    ? `config: host ${cfg.host} listens on every address but base_url is empty, so page links and OpenAPI servers would say http://127.0.0.1:${cfg.port}/v1; set base_url (DIRECTORY_BASE_URL) to the address clients use, e.g. http://mirror.example.gov:${cfg.port}/v1`
    : null;
}

export function loadConfig(
  file: string | null,
  env: Record<string, string | undefined> = process.env,
  overrides: Partial<Config> = {},
  services?: readonly ServiceDef[],
): Config {
  const cfg = defaultConfig(services);
  if (file) {
    if (!existsSync(file)) throw new Error(`config: file not found: ${file}`);
    merge(cfg, parse(readFileSync(file, "utf8")) ?? {}, "");
  }
  applyEnv(cfg, env);
  merge(cfg, overrides, "");
  const hostForUrl = localAddress(cfg.host);
  if (!cfg.base_url) {
    cfg.base_url = `http://${hostForUrl}:${cfg.port}/v1`;
    if (hostForUrl !== cfg.host) WILDCARD_WITHOUT_BASE.add(cfg);
  }
  if (!cfg.problems_url) cfg.problems_url = `${cfg.base_url.replace(/\/+$/, "").replace(/\/v1$/, "")}/problems`;
  cfg.base_url = cfg.base_url.replace(/\/+$/, "");
  cfg.problems_url = cfg.problems_url.replace(/\/+$/, "");
  if (!cfg.base_url.endsWith("/v1")) throw new Error("config: base_url must end in /v1");
  checkLimits(cfg);
  if (!/^\/[A-Za-z0-9._~-]+(\/[A-Za-z0-9._~-]+)*$/.test(cfg.mcp.path) || /^\/v1(\/|$)/.test(cfg.mcp.path))
    throw new Error(
      `config: mcp.path must be a path outside /v1, such as /mcp, not ${String(cfg.mcp.path).slice(0, 40)}`,
    );
  if (!/^(memory|file|rediss?:\/\/.+)$/.test(cfg.limits_store))
    throw new Error(
      `config: limits_store must be memory, file or a redis:// URL, not ${String(cfg.limits_store).slice(0, 40)}`,
    );
  if (!/^(file|postgres(ql)?:\/\/.+)$/.test(cfg.state_store))
    throw new Error(
      `config: state_store must be file or a postgres:// URL, not ${String(cfg.state_store).slice(0, 40)}`,
    );
  if (cfg.parcels.source !== "" && !/^postgres(ql)?:\/\/.+$/.test(cfg.parcels.source))
    throw new Error(
      `config: parcels.source must be empty (the file parcels.file) or a postgres:// URL, not ${String(cfg.parcels.source).slice(0, 40)}`,
    );
  if (!Number.isInteger(cfg.workers) || cfg.workers < 0 || cfg.workers > 256)
    throw new Error(
      `config: workers must be a whole number from 0 (one per core) to 256, not ${String(cfg.workers).slice(0, 20)}`,
    );
  if (!Number.isInteger(cfg.memory_limit_mb) || cfg.memory_limit_mb < 0)
    throw new Error(
      `config: memory_limit_mb must be a whole number of megabytes (0 = off), not ${String(cfg.memory_limit_mb).slice(0, 20)}`,
    );
  if (cfg.front !== "bun" && cfg.front !== "node")
    throw new Error(`config: front must be bun or node, not ${String(cfg.front).slice(0, 20)}`);
  return cfg;
}
