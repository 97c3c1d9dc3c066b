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
  frozen?: boolean;     // data and sources never change for this object: serialise once
}

export interface RequestContext {
  requestId: string;
  url: URL;
  head: boolean;
  keyed: boolean;
  baseUrl: string;
  problemsUrl: string;
  ifNoneMatch: string | null;
}

const md5 = (s: string) => new Bun.CryptoHasher("md5").update(s).digest("hex");

/** The ETag covers data, sources, as_of and notices, not request_id, so a repeat request can match it. */
export function etagOf(content: string): string { return `W/"${md5(content)}"`; }

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

/** Serialised content and ETag of a reply; memoised by the identity of its data for replies built once (topics). */
const memo = new WeakMap<object, { head: string; tail: string; etag: string; key: string }>();

function serialise(reply: Reply) {
  const key = `${reply.asOf}`;
  const hit = typeof reply.data === "object" && reply.data !== null ? memo.get(reply.data) : undefined;
  if (hit && hit.key === key && !reply.notices?.length) return hit;
  // Spec order: data, sources, as_of, request_id, notices. The ETag covers all but request_id.
  const head = `{"data":${JSON.stringify(reply.data)},"sources":${JSON.stringify(uniqueSources(reply.sources))},"as_of":${JSON.stringify(reply.asOf)}`;
  const tail = `"notices":${JSON.stringify(reply.notices ?? [])}}`;
  const out = { head, tail, etag: etagOf(`${head},${tail}`), key };
  if (reply.frozen && typeof reply.data === "object" && reply.data !== null) memo.set(reply.data, out);
  return out;
}

export function respond(ctx: RequestContext, reply: Reply): Response {
  const { head, tail, etag } = serialise(reply);
  const links = [`<${ctx.baseUrl}/openapi.json>; rel="service-desc"`];
  if (reply.next) links.push(`<${reply.next}>; rel="next"`);
  const headers: Record<string, string> = { ETag: etag, "Cache-Control": cacheControlFor(reply.cache), Link: links.join(", ") };
  if (matches(ctx.ifNoneMatch, etag)) return new Response(null, { status: 304, headers });
  const body = `${head},"request_id":${JSON.stringify(ctx.requestId)},${tail}`;
  headers["Content-Type"] = "application/json; charset=utf-8";
  return new Response(body, { status: 200, headers });
}

/** A JSON document that is not enveloped (the OpenAPI description) with the same conditional rules. */
export function respondDocument(ctx: RequestContext, doc: unknown, cache: CacheClass): Response {
  const body = JSON.stringify(doc);
  const etag = etagOf(body);
  const headers: Record<string, string> = { ETag: etag, "Cache-Control": cacheControlFor(cache), Link: `<${ctx.baseUrl}/openapi.json>; rel="service-desc"` };
  if (matches(ctx.ifNoneMatch, etag)) return new Response(null, { status: 304, headers });
  headers["Content-Type"] = "application/json; charset=utf-8";
  return new Response(body, { status: 200, headers });
}
