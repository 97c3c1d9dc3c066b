// Client of the US Census Bureau geocoder, "locations/onelineaddress" endpoint (see SOURCES.md, "Census Geocoder").
// Reply: {"result":{"input":{...},"addressMatches":[{matchedAddress, coordinates:{x:lon,y:lat}, tigerLine, addressComponents}]}}
// No match is `addressMatches: []`. Anything not of that shape is garbage → UpstreamError('bad-reply').
import { getJson, UpstreamError } from "../http-client.ts";
import type { GeocodeMatch, GeocodeReply, GeocoderClient } from "./types.ts";

export type { GeocodeMatch, GeocodeReply, GeocoderClient } from "./types.ts";

interface CensusGeocoderOptions {
  /** Service root without the "/geocoder/..." path, e.g. "https://geocoding.geo.census.gov". */
  baseUrl: string;
  timeoutMs: number;
  /** Default "Public_AR_Current". */
  benchmark?: string;
  /** Default 1 MiB. */
  maxBytes?: number;
}

const PATH = "/geocoder/locations/onelineaddress";

export class CensusGeocoder implements GeocoderClient {
  private readonly baseUrl: string;
  private readonly timeoutMs: number;
  private readonly benchmark: string;
  private readonly maxBytes: number | undefined;

  constructor(opts: CensusGeocoderOptions) {
    this.baseUrl = opts.baseUrl.replace(/\/+$/, "");
    this.timeoutMs = opts.timeoutMs;
    this.benchmark = opts.benchmark ?? "Public_AR_Current";
    this.maxBytes = opts.maxBytes;
  }

  /** Geocode one free-text address. Throws UpstreamError on any transport failure or malformed reply. */
  async search(address: string): Promise<GeocodeReply> {
    const url = new URL(this.baseUrl + PATH);
    url.searchParams.set("address", address);
    url.searchParams.set("benchmark", this.benchmark);
    url.searchParams.set("format", "json");
    const body = await getJson(url, { timeoutMs: this.timeoutMs, maxBytes: this.maxBytes });
    return parseCensusReply(body, address);
  }
}

/** Validate a onelineaddress JSON body; exported for tests and for the "geographies" variant later. */
function parseCensusReply(body: unknown, inputAddress: string): GeocodeReply {
  if (!isObject(body) || !isObject(body.result)) throw bad("missing result object");
  const raw = body.result.addressMatches;
  if (!Array.isArray(raw)) throw bad("result.addressMatches is not an array");
  const houseNumber = leadingHouseNumber(inputAddress);
  const matches: GeocodeMatch[] = raw.map((m, i) => {
    if (!isObject(m)) throw bad(`match ${i} is not an object`);
    const label = m.matchedAddress;
    if (typeof label !== "string" || label.trim() === "") throw bad(`match ${i} has no matchedAddress`);
    const c = m.coordinates;
    if (!isObject(c)) throw bad(`match ${i} has no coordinates`);
    const lon = c.x,
      lat = c.y;
    if (
      typeof lon !== "number" ||
      typeof lat !== "number" ||
      !Number.isFinite(lon) ||
      !Number.isFinite(lat) ||
      lon < -180 ||
      lon > 180 ||
      lat < -90 ||
      lat > 90
    ) {
      throw bad(`match ${i} has coordinates outside WGS84`);
    }
    const comps = isObject(m.addressComponents) ? m.addressComponents : {};
    return {
      label: label.trim(),
      lon,
      lat,
      approximate: isApproximate(houseNumber, comps.fromAddress, comps.toAddress),
    };
  });
  return { matches };
}

/*
 * "approximate" — the onelineaddress endpoint interpolates a point along a TIGER street segment whose address
 * range is addressComponents.fromAddress..toAddress. We call a match EXACT only when
 *   (a) the input starts with a house number, and
 *   (b) the match carries a non-empty from/to range, and
 *   (c) if both range ends and the house number are plain integers, the number lies within [min, max].
 *       (Non-integer ranges such as Queens-style "123-45" can't be compared simply; (a)+(b) suffice there.)
 * Otherwise approximate = true: the point only stands for a street or an area, not the requested house.
 * Deterministic, local, and independent of any scoring the service may add.
 */
export function isApproximate(houseNumber: string | null, fromAddress: unknown, toAddress: unknown): boolean {
  if (houseNumber === null) return true;
  const from = typeof fromAddress === "string" ? fromAddress.trim() : "";
  const to = typeof toAddress === "string" ? toAddress.trim() : "";
  if (from === "" || to === "") return true;
  const n = /^\d+$/.test(houseNumber) ? Number(houseNumber) : NaN;
  const a = /^\d+$/.test(from) ? Number(from) : NaN;
  const b = /^\d+$/.test(to) ? Number(to) : NaN;
  if (Number.isFinite(n) && Number.isFinite(a) && Number.isFinite(b)) {
    return n < Math.min(a, b) || n > Math.max(a, b);
  }
  return false;
}

/** Leading house number of a one-line address ("350 S 5th St" → "350", "123-45 Main" → "123-45"), or null. */
export function leadingHouseNumber(address: string): string | null {
  const m = /^\s*(\d+(?:-\d+)?)(?=[a-z]?(?:\s|,|$))/i.exec(address);
  return m ? m[1]! : null;
}

function bad(why: string): UpstreamError {
  return new UpstreamError("bad-reply", `unexpected geocoder reply: ${why}`);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
