// Turns a route's Reply into the 200 response: envelope (spec part 1), weak ETag over the content, 304 on a
// matching If-None-Match, Cache-Control from the one table, Link (service-desc, next).
import type { Static } from "@sinclair/typebox";
import type { Source } from "./schemas/common";
import { cacheControlFor, type CacheClass } from "./cache-control";

export type SourceT = Static<typeof Source>;
export interface Reply {
  data: unknown;
  sources: SourceT[];
  asOf: string;
  notices?: string[];
  cache: CacheClass;
  next?: string | null; // full URL of the next page
  /** true: data and sources never change (serialise once); or a list of members of data that never change. */
  frozen?: boolean | unknown[];
}

export interface RequestContext {
  requestId: string;
  /** The request path as sent (never rebuilt from Host) and its search part ("" or "?..."). */
  path: string;
  search: string;
  /** Raw query values (first value of each name). */
  query: Record<string, string>;
  /** The request URL under base_url's origin (built on first use). */
  url: URL;
  head: boolean;
  keyed: boolean;
  baseUrl: string;
  problemsUrl: string;
  ifNoneMatch: string | null;
  /** Headers every response of this request carries (X-Request-Id, CORS, RateLimit), set at construction. */
  common: Record<string, string>;
}

/** 128-bit content digest as 32 hex: two 64-bit wyhash runs with different seeds (an ETag needs no
 * cryptographic strength, only to change when the content does; md5 cost 4x more on the hot path). */
const digest = (s: string) =>
  Bun.hash.wyhash(s, 0x9e3779b97f4a7c15n).toString(16).padStart(16, "0") + Bun.hash.wyhash(s, 0x5851f42d4c957f2dn).toString(16).padStart(16, "0");

/** The ETag covers data, sources, as_of and notices, not request_id, so a repeat request can match it. */
export function etagOf(content: string): string { return `W/"${digest(content)}"`; }

/** The Link to the OpenAPI document that every 200 carries. */
const serviceDesc = (ctx: RequestContext) => `<${ctx.baseUrl}/openapi.json>; rel="service-desc"`;

export function matches(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const bare = etag.slice(2);
  return ifNoneMatch.split(",").some((t) => { const v = t.trim(); return v === "*" || v === etag || v === bare || v.replace(/^W\//, "") === bare; });
}

function uniqueSources(list: SourceT[]): SourceT[] {
  const seen = new Set<string>();
  const out: SourceT[] = [];
  for (const s of list) { const k = `${s.name}|${s.url}`; if (!seen.has(k)) { seen.add(k); out.push(s); } }
  return out;
}

/** JSON of values that never change (marked by the route as `frozen`), with its digest, by object identity. */
const frozenJson = new WeakMap<object, { json: string; digest: string }>();

function part(v: unknown, frozen: unknown[] | undefined): { chunk: string; seed: string } {
  if (v !== null && typeof v === "object") {
    const hit = frozenJson.get(v);
    if (hit) return { chunk: hit.json, seed: hit.digest };
    if (frozen?.includes(v)) {
      const json = JSON.stringify(v);
      const e = { json, digest: digest(json) };
      frozenJson.set(v, e);
      return { chunk: e.json, seed: e.digest };
    }
  }
  const json = JSON.stringify(v) ?? "null";
  return { chunk: json, seed: json };
}

const keyJson = new Map<string, string>();

/** Serialise data (member by member, so frozen members are reused), sources, as_of and notices. The ETag is
 * the digest of the content with every frozen member replaced by its own digest: it changes whenever the body does. */
function serialise(reply: Reply) {
  const frozen = reply.frozen === true ? [reply.data, reply.sources] : reply.frozen ? reply.frozen : undefined;
  const seed: string[] = [];
  const head: string[] = ['{"data":'];
  const take = (v: unknown) => { const p = part(v, frozen); seed.push(p.seed); head.push(p.chunk); };
  const d = reply.data;
  if (d === null || typeof d !== "object" || Array.isArray(d) || reply.frozen === true || frozenJson.has(d)) take(d);
  else {
    let first = true;
    for (const k in d as Record<string, unknown>) {
      let key = keyJson.get(k);
      if (key === undefined) keyJson.set(k, (key = JSON.stringify(k)));
      head.push(`${first ? "{" : ","}${key}:`);
      first = false;
      take((d as Record<string, unknown>)[k]);
    }
    head.push(first ? "{}" : "}");
  }
  head.push(',"sources":');
  take(reply.sources.length > 1 && !frozen?.includes(reply.sources) ? uniqueSources(reply.sources) : reply.sources);
  const notices = JSON.stringify(reply.notices ?? []);
  seed.push(reply.asOf, notices);
  head.push(`,"as_of":${JSON.stringify(reply.asOf)}`);
  return { head, tail: `"notices":${notices}}`, etag: `W/"${digest(seed.join("\u0000"))}"` };
}

export function respond(ctx: RequestContext, reply: Reply): Response {
  const { head, tail, etag } = serialise(reply);
  const links = [serviceDesc(ctx)];
  if (reply.next) links.push(`<${reply.next}>; rel="next"`);
  const headers: Record<string, string> = { ...ctx.common, ETag: etag, "Cache-Control": cacheControlFor(reply.cache), Link: links.join(", ") };
  if (matches(ctx.ifNoneMatch, etag)) return new Response(null, { status: 304, headers });
  head.push(`,"request_id":${JSON.stringify(ctx.requestId)},${tail}`);
  headers["Content-Type"] = "application/json; charset=utf-8";
  return new Response(head.join(""), { status: 200, headers });
}

/** A JSON document that is not enveloped (the OpenAPI description) with the same conditional rules. */
const documents = new WeakMap<object, { body: string; etag: string }>();

export function respondDocument(ctx: RequestContext, doc: object, cache: CacheClass): Response {
  let d = documents.get(doc);
  if (!d) { const body = JSON.stringify(doc); d = { body, etag: etagOf(body) }; documents.set(doc, d); }
  const { body, etag } = d;
  const headers: Record<string, string> = { ...ctx.common, ETag: etag, "Cache-Control": cacheControlFor(cache), Link: serviceDesc(ctx) };
  if (matches(ctx.ifNoneMatch, etag)) return new Response(null, { status: 304, headers });
  headers["Content-Type"] = "application/json; charset=utf-8";
  return new Response(body, { status: 200, headers });
}
