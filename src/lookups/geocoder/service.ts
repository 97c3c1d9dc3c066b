// AddressLookup: free-text address → one point, with caching, single-flight and a lookup limiter.
//
// Order of work for geocode(address):
//   1. normalise (cache key; also the text sent upstream, so equal keys always mean equal questions); then, when
//      switched off (geocoder.enabled false) → DomainError('upstream-unavailable', ADDRESS_SEARCH_OFF), no call
//   2. cache hit (match, not-found or ambiguous)      → answer; the lookup limit is NOT charged
//   3. same key already in flight                     → join it; no charge, no extra request
//   4. charge takeLookup(); refused                    → DomainError('lookup-limit', {retryAfter ≥ 1})
//   5. ask the client:
//        0 candidates → DomainError('address-not-found')  (cached: it is a valid answer)
//        1 candidate  → {kind:'match', ...}               (cached)
//        >1           → DomainError('ambiguous', {choices}) (cached)
//        any failure  → DomainError('upstream-unavailable') (NEVER cached)
// Candidates with identical label + coordinates are merged before counting.
import type { TakeLookup } from "../charge";
import { DomainError, NOT_OFFERED_HERE, type Choice } from "../../domain/errors.ts";
import { TtlCache, normaliseAddress } from "../cache.ts";
import { CACHE_MB, estimateBytes } from "../../domain/cache-budget";
import { singleFlight } from "../single-flight.ts";
import { UpstreamError } from "../http-client.ts";
import type { GeocodeMatch, GeocodeReply } from "./types.ts";

interface AddressMatchResult {
  kind: "match";
  label: string;
  lon: number;
  lat: number;
  approximate: boolean;
}

interface AddressLookupOptions {
  client: { search(address: string): Promise<GeocodeReply> };
  /** Cache lifetime of answers (match, not-found, ambiguous). Default one day. */
  ttlMs?: number;
  /** Default 10 000. */
  maxEntries?: number;
  /** Charged once per real upstream request; retryAfter in seconds. */
  takeLookup: TakeLookup;
  /** Longest accepted input after normalisation. Default 200 characters. */
  maxAddressLength?: number;
  /** Most choices reported for an ambiguous address. Default 10. */
  maxChoices?: number;
  /** false: address search is switched off on this server (air-gapped); every lookup is refused saying so. */
  enabled?: boolean;
}

type Outcome = AddressMatchResult | { kind: "not-found" } | { kind: "ambiguous"; choices: Choice[] };

/** The detail of every address lookup on a server whose geocoder is switched off (never "try again later"). */
const ADDRESS_SEARCH_OFF = `Address search ${NOT_OFFERED_HERE} (its geocoder is switched off, e.g. an air-gapped mirror); give a point (lat, lon) or search by place name instead.`;

const ONE_DAY_MS = 24 * 60 * 60 * 1000;

export class AddressLookup {
  private readonly client: AddressLookupOptions["client"];
  private readonly takeLookup: AddressLookupOptions["takeLookup"];
  private readonly cache: TtlCache<string, Outcome>;
  private readonly flights = singleFlight<string, Outcome>();
  private readonly maxAddressLength: number;
  private readonly maxChoices: number;
  readonly enabled: boolean;

  constructor(opts: AddressLookupOptions) {
    this.client = opts.client;
    this.takeLookup = opts.takeLookup;
    this.cache = new TtlCache({
      max: opts.maxEntries ?? 10_000,
      ttl: opts.ttlMs ?? ONE_DAY_MS,
      maxSize: CACHE_MB.geocoder * 1024 * 1024,
      sizeOf: estimateBytes,
    });
    this.maxAddressLength = opts.maxAddressLength ?? 200;
    this.maxChoices = opts.maxChoices ?? 10;
    this.enabled = opts.enabled ?? true;
  }

  /** Resolve a free-text US address to exactly one point, or throw a DomainError. */
  async geocode(address: string): Promise<AddressMatchResult> {
    const key = normaliseAddress(typeof address === "string" ? address : "");
    if (key === "") throw new DomainError("bad-parameter", "address must not be empty");
    if (key.length > this.maxAddressLength) {
      throw new DomainError("bad-parameter", `address is longer than ${this.maxAddressLength} characters`);
    }

    if (!this.enabled) throw new DomainError("upstream-unavailable", ADDRESS_SEARCH_OFF);
    const cached = this.cache.get(key);
    if (cached) return settle(cached);

    const inFlight = this.flights.get(key);
    if (inFlight) return settle(await inFlight);

    const c = this.takeLookup();
    const charge = c instanceof Promise ? await c : c; // a shared limits store answers later
    if (!charge.ok) {
      const retryAfter = Math.max(1, Math.ceil(Number.isFinite(charge.retryAfter) ? charge.retryAfter : 1));
      throw new DomainError("lookup-limit", "address lookup limit reached; try again later", {
        retryAfter,
        headers: charge.headers,
      });
    }

    return settle(await this.flights.run(key, () => this.ask(key)));
  }

  private async ask(key: string): Promise<Outcome> {
    let reply: GeocodeReply;
    try {
      reply = await this.client.search(key);
    } catch (err) {
      throw upstreamUnavailable(err);
    }
    const candidates = dedupe(reply.matches);
    let outcome: Outcome;
    if (candidates.length === 0) outcome = { kind: "not-found" };
    else if (candidates.length === 1) {
      const m = candidates[0]!;
      outcome = { kind: "match", label: m.label, lon: m.lon, lat: m.lat, approximate: m.approximate };
    } else {
      outcome = {
        kind: "ambiguous",
        choices: candidates.slice(0, this.maxChoices).map((m) => ({ label: m.label, lat: m.lat, lon: m.lon })),
      };
    }
    this.cache.set(key, outcome);
    return outcome;
  }
}

function settle(o: Outcome): AddressMatchResult {
  switch (o.kind) {
    case "match":
      return { ...o };
    case "not-found":
      throw new DomainError("address-not-found", "no address matched the text given");
    case "ambiguous":
      throw new DomainError("ambiguous", "the address matched several places; choose one", {
        choices: o.choices.map((c) => ({ ...c })),
      });
  }
}

function upstreamUnavailable(err: unknown): DomainError {
  if (err instanceof DomainError) return err;
  const detail =
    err instanceof UpstreamError && err.reason === "timeout"
      ? "the address geocoding service did not answer in time"
      : "the address geocoding service is unavailable";
  const e = new DomainError("upstream-unavailable", detail);
  (e as Error).cause = err;
  return e;
}

/** Merge candidates with the same label and the same coordinates (to ~1 cm); exact beats approximate. */
function dedupe(matches: GeocodeMatch[]): GeocodeMatch[] {
  const seen = new Map<string, GeocodeMatch>();
  for (const m of matches) {
    const k = `${m.label.toUpperCase()}|${m.lat.toFixed(7)}|${m.lon.toFixed(7)}`;
    const prev = seen.get(k);
    if (!prev) seen.set(k, { ...m });
    else if (prev.approximate && !m.approximate) prev.approximate = false;
  }
  return [...seen.values()];
}
