// The ONE runner of outside screening lookups. It owns, for every service definition: loaded layers first (no
// outside call), "not configured here" for switched-off services, the H3 cell cache, single-flight, the
// concurrency cap (503 busy), the lookup limit (429 lookup-limit), each service's own timeout and the size limit,
// and "unknown on failure" (never cached). All services of one request run in parallel.
//
// CACHE (never changes the answer for the exact point). Two kinds of entry, both keyed by the H3 cell
// (resolution `screening.h3_resolution`, default 11: cells of about 2,150 m², edge about 25 m) of the point:
//   - area entries "<service>:a:<cell>": EVERY feature of the service's layers meeting the cell's bounding box
//     widened by the service's reach (e.g. the wetland "near" distance), WITH its geometry. A request anywhere
//     in the cell tests its own exact point against those features locally, so two points of one cell on either
//     side of a zone edge get their own answers. A reply that is incomplete (exceededTransferLimit) or too large
//     is never used as an area entry: the runner asks again for the exact point only.
//   - point entries "<service>:p:<cell>:<lon>,<lat>": services whose answer is a value at the exact point
//     (soil map unit, elevation) or a point-only fallback; they answer only that exact point.
// Only complete, successful replies are cached; an unknown is never cached.
import type { TakeLookup } from "../charge";
import { h3Key, TtlCache } from "../cache";
import { getJson, UpstreamError } from "../http-client";
import { singleFlight } from "../single-flight";
import { DomainError } from "../../domain/errors";
import { cellToBoundary } from "h3-js";
import { metresToDegrees, type Feature } from "./geometry";
import {
  serviceConfig,
  type Envelope,
  type Origin,
  type Outside,
  type Reading,
  type ScreeningSettings,
  type ServiceDef,
} from "./types";

/** What the runner needs from loaded offline layers (src/lookups/layers/store.ts). */
export interface LayerSource {
  query(
    kind: string,
    lon: number,
    lat: number,
    reachM: number,
    state: string | null,
  ): { features: Feature[]; origin: Origin } | null;
}

interface RunnerOptions {
  config: ScreeningSettings;
  defs: readonly ServiceDef[];
  layers?: LayerSource | null;
  /** Charged once per request that needs at least one new outside lookup; a refusal's headers (the lookup bucket's
   * own RateLimit figures) travel in the lookup-limit DomainError, the one way to the 429. */
  takeLookup: TakeLookup;
  /** The clock of the cache entries' `at` (default Date.now). */
  now?: () => number;
}

interface Entry {
  features: Feature[];
  at: string;
}
export interface Answer {
  reading: Reading;
  from: "layer" | "cache" | "outside" | "off" | "failed";
  origin: Origin | null;
  at: string | null;
}

type ServiceStep =
  | { def: ServiceDef; kind: "done"; answer: Answer }
  | { def: ServiceDef; kind: "cached"; entry: Entry }
  | { def: ServiceDef; kind: "join"; flight: Promise<Entry>; key: string }
  | { def: ServiceDef; kind: "new"; key: string; area: boolean };

export class ScreeningRunner {
  private readonly cfg: ScreeningSettings;
  private readonly cache: TtlCache<string, Entry>;
  private readonly flights = singleFlight<string, Entry>();
  private inFlightCalls = 0;

  constructor(private readonly opts: RunnerOptions) {
    this.cfg = opts.config;
    this.cache = new TtlCache({
      max: opts.config.cache_entries,
      ttl: opts.config.cache_ttl_s * 1000,
      maxSize: opts.config.cache_mb * 1024 * 1024,
      sizeOf: (e) => entryBytes(e as Entry),
    });
  }

  /** Outside calls running now (for tests and the busy rule). */
  get busyCalls(): number {
    return this.inFlightCalls;
  }

  /** Read every fact of `defs` at the exact point, in parallel. Throws DomainError busy / lookup-limit. */
  async screen(
    lon: number,
    lat: number,
    state: string | null,
    defs: readonly ServiceDef[] = this.opts.defs,
  ): Promise<Map<string, Answer>> {
    const cell = h3Key(lat, lon, this.cfg.h3_resolution);
    const steps = defs.map((def) => this.stepOf(def, lon, lat, cell, state));
    const fresh = steps.filter((p): p is Extract<ServiceStep, { kind: "new" }> => p.kind === "new");
    if (fresh.length) {
      const calls = fresh.reduce((n, p) => n + p.def.calls, 0);
      if (this.inFlightCalls > 0 && this.inFlightCalls + calls > this.cfg.max_concurrent) {
        throw new DomainError(
          "busy",
          `The service is busy with ${this.inFlightCalls} outside lookups; retry after a few seconds.`,
          { retryAfter: 2 },
        );
      }
      const c = this.opts.takeLookup();
      const charge = c instanceof Promise ? await c : c; // a shared limits store answers later
      if (!charge.ok) {
        throw new DomainError(
          "lookup-limit",
          "The limit on new outside lookups is used up; cached points still answer.",
          { retryAfter: Math.max(1, Math.ceil(charge.retryAfter)), headers: charge.headers },
        );
      }
    }
    const out = new Map<string, Answer>();
    await Promise.all(
      steps.map(async (p) => {
        out.set(p.def.name, await this.settle(p, lon, lat, cell));
      }),
    );
    return out;
  }

  private stepOf(def: ServiceDef, lon: number, lat: number, cell: string, state: string | null): ServiceStep {
    const layer =
      def.layerKind && this.opts.layers
        ? this.opts.layers.query(def.layerKind, lon, lat, def.reachM(this.cfg), state)
        : null;
    if (layer)
      return {
        def,
        kind: "done",
        answer: {
          reading: def.read(layer.features, lon, lat, layer.origin, this.cfg),
          from: "layer",
          origin: layer.origin,
          at: null,
        },
      };
    const service = serviceConfig(this.cfg, def);
    // switched off (air-gapped installs) or without a base URL: answered as not configured here
    if (!service.enabled || service.base_url === "" || def.configured?.(this.cfg) === false) {
      const o = def.origin(this.cfg);
      return {
        def,
        kind: "done",
        answer: {
          reading: unknown(
            o,
            "This service is switched off on this server (e.g. an air-gapped mirror) and no loaded layer covers the point.",
            "off",
          ),
          from: "off",
          origin: null,
          at: null,
        },
      };
    }
    const areaKey = `${def.name}:a:${cell}`;
    const pointKey = `${def.name}:p:${cell}:${lon},${lat}`;
    for (const key of def.fetchArea ? [areaKey, pointKey] : [pointKey]) {
      const hit = this.cache.get(key);
      if (hit) return { def, kind: "cached", entry: hit };
    }
    for (const key of def.fetchArea ? [areaKey, pointKey] : [pointKey]) {
      const flight = this.flights.get(key);
      if (flight) return { def, kind: "join", flight, key };
    }
    return { def, kind: "new", key: def.fetchArea ? areaKey : pointKey, area: !!def.fetchArea };
  }

  private async settle(p: ServiceStep, lon: number, lat: number, cell: string): Promise<Answer> {
    if (p.kind === "done") return p.answer;
    const def = p.def;
    const origin = def.origin(this.cfg);
    const answer = (e: Entry, from: Answer["from"]): Answer => ({
      reading: def.read(e.features, lon, lat, origin, this.cfg),
      from,
      origin,
      at: e.at,
    });
    if (p.kind === "cached") return answer(p.entry, "cache");
    const pointKey = `${def.name}:p:${cell}:${lon},${lat}`;
    const viaPoint = () =>
      this.flights.run(pointKey, () =>
        this.fetch(def, pointKey, () => def.fetchPoint(this.http(def), lon, lat, this.cfg)),
      );
    try {
      let entry: Entry;
      if (p.kind === "join" ? p.key.includes(":a:") : p.area) {
        const areaKey = `${def.name}:a:${cell}`;
        try {
          entry =
            p.kind === "join"
              ? await p.flight
              : await this.flights.run(areaKey, () =>
                  this.fetch(def, areaKey, () =>
                    def.fetchArea!(this.http(def), this.envelope(cell, lat, def), this.cfg),
                  ),
                );
        } catch (err) {
          // an incomplete or oversized area reply: ask about the exact point instead (not an area entry)
          if (err instanceof UpstreamError && (err.reason === "truncated" || err.reason === "too-large"))
            entry = await viaPoint();
          else throw err;
        }
      } else entry = p.kind === "join" ? await p.flight : await viaPoint();
      const a = answer(entry, p.kind === "join" ? "cache" : "outside");
      // a reply that reads as unknown (e.g. no elevation data) is not kept: unknown is never cached
      if (a.reading.status === "unknown") {
        this.cache.delete(pointKey);
        this.cache.delete(`${def.name}:a:${cell}`);
      }
      return a;
    } catch (err) {
      return {
        reading: unknown(
          origin,
          whyUnknown(err, origin.publisher, serviceConfig(this.cfg, def).timeout_ms, this.cfg.max_bytes),
        ),
        from: "failed",
        origin: null,
        at: null,
      };
    }
  }

  private async fetch(def: ServiceDef, key: string, run: () => Promise<Feature[]>): Promise<Entry> {
    const features = await run();
    const entry = { features, at: new Date(this.opts.now?.() ?? Date.now()).toISOString() };
    this.cache.set(key, entry);
    return entry;
  }

  /** Bounding box of the H3 cell widened by the service's reach (features within reach of any point of the cell). */
  private envelope(cell: string, lat: number, def: ServiceDef): Envelope {
    const b = cellToBoundary(cell); // [lat, lng] pairs
    const { dLon, dLat } = metresToDegrees(def.reachM(this.cfg) + 1, lat);
    return [
      Math.min(...b.map((v) => v[1])) - dLon,
      Math.min(...b.map((v) => v[0])) - dLat,
      Math.max(...b.map((v) => v[1])) + dLon,
      Math.max(...b.map((v) => v[0])) + dLat,
    ];
  }

  private http(def: ServiceDef): Outside {
    const timeoutMs = serviceConfig(this.cfg, def).timeout_ms;
    const maxBytes = this.cfg.max_bytes;
    const counted = async (f: () => Promise<unknown>) => {
      this.inFlightCalls++;
      try {
        return await f();
      } finally {
        this.inFlightCalls--;
      }
    };
    return {
      get: (url) => counted(() => getJson(url, { timeoutMs, maxBytes })),
      post: (url, body) => counted(() => getJson(url, { timeoutMs, maxBytes, body })),
    };
  }
}

/** Approximate memory of a cache entry: coordinates (8 bytes each) plus ~200 bytes of attributes per feature. */
function entryBytes(e: Entry): number {
  let n = 64;
  for (const f of e.features) {
    n += 200;
    for (const p of f.polygons ?? []) for (const r of p) n += r.byteLength;
    for (const l of f.lines ?? []) n += l.byteLength;
  }
  return n;
}

/** Summaries of an unknown fact: a service that failed (worth trying again) or one this server does not offer. */
const UNKNOWN_SUMMARY = {
  failed: "Could not be checked right now; try again later.",
  off: "Not available on this server.",
} as const;

export function unknown(o: Origin, detail: string, why: keyof typeof UNKNOWN_SUMMARY = "failed"): Reading {
  return {
    status: "unknown",
    summary: UNKNOWN_SUMMARY[why],
    detail,
    values: {},
    dataset: o.dataset,
    publisher: o.publisher,
    as_of: null,
  };
}

/** Plain words for each failure (down, slow, garbage, error inside a 200, oversized, truncated). */
function whyUnknown(err: unknown, publisher: string, timeoutMs: number, maxBytes: number): string {
  if (!(err instanceof UpstreamError))
    return `The ${publisher} service could not be read (${err instanceof Error ? err.message.slice(0, 100) : "unexpected failure"}).`;
  switch (err.reason) {
    case "timeout":
      return `The ${publisher} service did not answer within ${timeoutMs} ms (slow); try again later.`;
    case "network":
      return `The ${publisher} service could not be reached (down); try again later.`;
    case "http-status":
      return `The ${publisher} service answered HTTP ${err.status ?? "error"} (down); try again later.`;
    case "bad-json":
      return `The ${publisher} service answered with something that is not JSON (an error page, an empty body or garbage).`;
    case "too-large":
      return `The ${publisher} service sent a reply larger than ${maxBytes} bytes; it was not read.`;
    case "service-error":
      return `The ${publisher} service reported an error inside its reply: ${err.message.replace(/^the service reported /, "")}.`;
    case "truncated":
      return `The ${publisher} service cut its reply short (exceededTransferLimit), so the answer would be incomplete.`;
    default:
      return `The ${publisher} service answered in an unexpected shape (${err.message.slice(0, 100)}).`;
  }
}
