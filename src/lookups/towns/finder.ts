// The town or township at a point where the data file holds no town boundaries (implements the domain's
// TownLocator). In order: a polygon kept in the layers file (a loaded Census file, or one TIGERweb answered
// before): no outside call; else, when the service is on, one TIGERweb query (single-flight per point, the lookup
// limit, the service's timeout and size limit, errors inside a 200 refused), whose polygons are kept with their
// trail; else a miss saying why (switched off, failed, limited), so the answer stays what it is without the
// service, with a notice.
import type { TakeLookup } from "../charge";
import { getJson, UpstreamError } from "../http-client";
import { singleFlight } from "../single-flight";
import { polygonContains } from "../screening/geometry";
import type { Outside } from "../screening/types";
import type { TownLocator, TownLookup } from "../../directory/town-at-point";
import { CENSUS, TIGERWEB_DATASET, townsAt } from "./tigerweb";
import type { TownStore } from "./store";

interface TownFinderOptions {
  store: TownStore | null;
  /** the County Subdivisions layer URL; "" or enabled false = switched off (air-gapped) */
  service: { enabled: boolean; base_url: string; timeout_ms: number; max_bytes: number };
  /** Charged once per new outside lookup (the lookup limit). */
  takeLookup: TakeLookup;
}

export class TownFinder implements TownLocator {
  private readonly flights = singleFlight<string, TownLookup>();

  constructor(private readonly opts: TownFinderOptions) {}

  async find(lon: number, lat: number, stateFips: string): Promise<TownLookup> {
    const local = this.local(lon, lat, stateFips);
    if (local) return local;
    const s = this.opts.service;
    if (!s.enabled || !s.base_url)
      return { miss: "off", detail: "the Census Bureau's boundary service is switched off on this installation" };
    return this.flights.run(`${lon},${lat}`, () => this.ask(lon, lat, stateFips));
  }

  private local(lon: number, lat: number, stateFips: string): TownLookup | null {
    const k = this.opts.store?.find(lon, lat);
    return k && k.geoid.startsWith(stateFips) ? { hit: { ...k, kept: true } } : null;
  }

  private async ask(lon: number, lat: number, stateFips: string): Promise<TownLookup> {
    const again = this.local(lon, lat, stateFips); // kept by a flight that ended while this one waited
    if (again) return again;
    const c = this.opts.takeLookup();
    const charge = c instanceof Promise ? await c : c; // a shared limits store answers later
    if (!charge.ok)
      return { miss: "limited", detail: "the limit on new outside lookups is used up; kept towns still answer" };
    const s = this.opts.service;
    const http: Outside = {
      get: (url) => getJson(url, { timeoutMs: s.timeout_ms, maxBytes: s.max_bytes }),
      post: () => Promise.reject(new UpstreamError("bad-reply", "not used")),
    };
    try {
      const towns = await townsAt(http, s.base_url, lon, lat);
      const origin = {
        kind: "service" as const,
        dataset: TIGERWEB_DATASET,
        publisher: CENSUS,
        url: s.base_url,
        vintage: null,
        fetched_at: new Date().toISOString(),
      };
      try {
        this.opts.store?.put(towns, origin);
      } catch {
        // a layers file that cannot be written (read-only mount): the answer stands, the polygon is not kept
      }
      const t = towns
        .filter((x) => x.geoid.startsWith(stateFips))
        .sort((a, b) => (a.geoid < b.geoid ? -1 : 1))
        .find((x) => x.polygons.some((p) => polygonContains(p, lon, lat)));
      if (!t) return { miss: "none", detail: "the Census Bureau's boundary service holds no county subdivision here" };
      return { hit: { geoid: t.geoid, name: t.name, funcstat: t.funcstat, origin, kept: false } };
    } catch (e) {
      const why = e instanceof UpstreamError ? `${e.reason}: ${e.message}` : String(e);
      return { miss: "failed", detail: `the Census Bureau's boundary service did not answer usably (${why})` };
    }
  }
}
