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
const serviceDescs = new Map<string, string>();
const serviceDesc = (ctx: RequestContext) => {
  let v = serviceDescs.get(ctx.baseUrl);
  if (v === undefined) serviceDescs.set(ctx.baseUrl, (v = `<${ctx.baseUrl}/openapi.json>; rel="service-desc"`));
  return v;
};

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

/** A run of consecutive frozen values of one envelope with the glue before each (`,"functions":`, `},"sources":`),
 * serialised once as one flat string and kept under its first value. Valid only for the same values and glue. */
interface Run { values: unknown[]; glue: string[]; json: string; digest: string }
const runs = new WeakMap<object, Run>();

/** `{"data":{"key":` (first member of data) and `,"key":` (the others), made once per key. */
const glueFirst = new Map<string, string>(), glueNext = new Map<string, string>();
const glueOf = (k: string, first: boolean) => {
  const m = first ? glueFirst : glueNext;
  let g = m.get(k);
  if (g === undefined) m.set(k, (g = `${first ? '{"data":{' : ","}${JSON.stringify(k)}:`));
  return g;
};
const asOfJson = new Map<string, string>();

/** The run of values[from..to) (cached under its first value). */
function runOf(values: unknown[], glue: string[], from: number, to: number): Run {
  const hit = runs.get(values[from] as object);
  if (hit && hit.values.length === to - from) {
    let same = true;
    for (let i = from; i < to && same; i++) same = hit.values[i - from] === values[i] && hit.glue[i - from] === glue[i];
    if (same) return hit;
  }
  let json = "";
  for (let i = from; i < to; i++) json += glue[i] + JSON.stringify(values[i]);
  json.charCodeAt(0); // resolves the rope of pieces into one flat string, once
  const run = { values: values.slice(from, to), glue: glue.slice(from, to), json, digest: digest(json) };
  runs.set(values[from] as object, run);
  return run;
}

// scratch for serialise (synchronous, never re-entered): the envelope as glue/value pairs up to sources
const G: string[] = [], V: unknown[] = [];

/** Serialise data (member by member, so frozen members are reused), sources, as_of and notices. Consecutive
 * frozen members (with the keys between them) are one cached string. The ETag is the digest of the content with
 * every frozen run replaced by its own digest: it changes whenever the body does; request_id is left out of it, so
 * a repeat request can match. Returns the body before request_id (`head`) and after it (`tail`). */
function serialise(reply: Reply): { head: string; tail: string; etag: string } {
  const frozen = reply.frozen === true ? [reply.data, reply.sources] : reply.frozen ? reply.frozen : undefined;
  const isFrozen = (v: unknown) => frozen !== undefined && v !== null && typeof v === "object" && frozen.includes(v);
  let n = 0;
  const d = reply.data;
  let open = false; // data is written member by member (a plain object that is not frozen as a whole)
  if (d !== null && typeof d === "object" && !Array.isArray(d) && !isFrozen(d)) {
    for (const k in d as Record<string, unknown>) {
      G[n] = glueOf(k, !open);
      V[n++] = (d as Record<string, unknown>)[k];
      open = true;
    }
  }
  if (!open) { G[n] = '{"data":'; V[n++] = d; }
  G[n] = open ? '},"sources":' : ',"sources":';
  V[n++] = reply.sources.length > 1 && !frozen?.includes(reply.sources) ? uniqueSources(reply.sources) : reply.sources;
  let head = "", seed = "";
  for (let i = 0; i < n;) {
    if (!isFrozen(V[i])) {
      const j = JSON.stringify(V[i]) ?? "null";
      head += G[i] + j;
      seed += G[i] + j + "\u0000";
      i++;
      continue;
    }
    let k = i + 1;
    while (k < n && isFrozen(V[k])) k++;
    const run = runOf(V, G, i, k);
    head += run.json;
    seed += run.digest;
    i = k;
  }
  V.fill(undefined, 0, n); // hold no reference past the call
  let a = asOfJson.get(reply.asOf);
  if (a === undefined) asOfJson.set(reply.asOf, (a = `,"as_of":${JSON.stringify(reply.asOf)}`));
  const list = reply.notices ?? [];
  const notices = list.length === 0 ? "[]" : isFrozen(list) ? runOf([list], [""], 0, 1).json : JSON.stringify(list);
  seed += a + notices;
  return { head: head + a, tail: `,"notices":${notices}}`, etag: `W/"${digest(seed)}"` };
}

export function respond(ctx: RequestContext, reply: Reply): Response {
  const { head, tail, etag } = serialise(reply);
  const link = reply.next ? `${serviceDesc(ctx)}, <${reply.next}>; rel="next"` : serviceDesc(ctx);
  const headers: Record<string, string> = { ...ctx.common, ETag: etag, "Cache-Control": cacheControlFor(reply.cache), Link: link };
  if (matches(ctx.ifNoneMatch, etag)) return new Response(null, { status: 304, headers });
  headers["Content-Type"] = "application/json; charset=utf-8";
  return new Response(`${head},"request_id":${JSON.stringify(ctx.requestId)}${tail}`, { status: 200, headers });
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
