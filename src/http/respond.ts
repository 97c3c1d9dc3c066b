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
  /** The members of data (or data itself, sources, notices) that never change, the most specific first (the
   * serialised envelope is kept under the first: see EnvelopePlan); answers name theirs with src/domain/kept.ts
   * keptOf, never a route by hand. */
  frozen?: unknown[];
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
  Bun.hash.wyhash(s, 0x9e3779b97f4a7c15n).toString(16).padStart(16, "0") +
  Bun.hash.wyhash(s, 0x5851f42d4c957f2dn).toString(16).padStart(16, "0");

/** The ETag covers data, sources, as_of and notices, not request_id, so a repeat request can match it. */
export function etagOf(content: string): string {
  return `W/"${digest(content)}"`;
}

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
  return ifNoneMatch.split(",").some((t) => {
    const v = t.trim();
    return v === "*" || v === etag || v === bare || v.replace(/^W\//, "") === bare;
  });
}

/** Sources without repeats (the same name and URL once), in order: the API envelope and the pages' source lists. */
export function uniqueSources<S extends { name: string; url: string }>(list: S[]): S[] {
  const seen = new Set<string>();
  const out: S[] = [];
  for (const s of list) {
    const k = `${s.name}|${s.url}`;
    if (!seen.has(k)) {
      seen.add(k);
      out.push(s);
    }
  }
  return out;
}

/** `{"data":{"key":` (first member of data) and `,"key":` (the others), made once per key. */
const glueFirst = new Map<string, string>(),
  glueNext = new Map<string, string>();
const glueOf = (k: string, first: boolean) => {
  const m = first ? glueFirst : glueNext;
  let g = m.get(k);
  if (g === undefined) m.set(k, (g = `${first ? '{"data":{' : ","}${JSON.stringify(k)}:`));
  return g;
};
const asOfJson = new Map<string, string>();
const asOfPiece = (asOf: string) => {
  let a = asOfJson.get(asOf);
  if (a === undefined) asOfJson.set(asOf, (a = `,"as_of":${JSON.stringify(asOf)}`));
  return a;
};
/** What follows request_id: the notices and the envelope's end. */
const noticesTail = (notices: unknown[]) => `,"notices":${JSON.stringify(notices)}}`;
const hex8 = (x: number) => (x >>> 0).toString(16).padStart(8, "0");

// scratch for serialise (synchronous, never re-entered): the envelope up to sources as slots, each the JSON text
// before a member (its glue: `{"data":{"match":`, `,"point":`, …) and the member's value
const slotGlue: string[] = [],
  slotValue: unknown[] = [];
const VARIABLE = Symbol("variable");

/** The envelope of a reply with frozen members, serialised once: the JSON between its variable slots (`literals`, the
 * last piece ending with as_of) and after request_id (`tail`, when notices are frozen too). Kept under the first
 * frozen member of the reply (answers list their kept members most specific first, src/domain/kept.ts: e.g. the
 * chain's jurisdictions) and used for a later reply only when every slot has the same glue, every frozen slot the
 * same value, declared frozen again, and as_of and frozen notices are the same: a plan can cost a rebuild, never a
 * wrong body. */
interface EnvelopePlan {
  glueBySlot: string[];
  fixed: unknown[]; // per slot: the value inside the literals, or VARIABLE
  vars: number[];
  literals: string[];
  asOf: string;
  notices: unknown[] | null; // null: notices are serialised per reply
  tail: string | null;
  digest16: string; // of the literals, tail and layout
  etag: string; // when nothing is variable
}
const envelopePlans = new WeakMap<object, EnvelopePlan>();

function fits(
  p: EnvelopePlan,
  n: number,
  isFrozen: (v: unknown) => boolean,
  asOf: string,
  notices: unknown[],
): boolean {
  if (p.glueBySlot.length !== n || p.asOf !== asOf) return false;
  if (p.notices !== null && p.notices !== notices && !(p.notices.length === 0 && notices.length === 0)) return false;
  for (let i = 0; i < n; i++) {
    if (p.glueBySlot[i] !== slotGlue[i]) return false;
    const f = p.fixed[i];
    if (f !== VARIABLE && (f !== slotValue[i] || !isFrozen(f))) return false;
  }
  return true;
}

function makeEnvelopePlan(
  n: number,
  isFrozen: (v: unknown) => boolean,
  asOf: string,
  notices: unknown[],
): EnvelopePlan {
  const literals: string[] = [],
    vars: number[] = [],
    fixed: unknown[] = [];
  let cur = "";
  for (let i = 0; i < n; i++) {
    cur += slotGlue[i];
    if (isFrozen(slotValue[i])) {
      cur += JSON.stringify(slotValue[i]);
      fixed.push(slotValue[i]);
      continue;
    }
    literals.push(cur);
    cur = "";
    vars.push(i);
    fixed.push(VARIABLE);
  }
  literals.push(cur + asOfPiece(asOf));
  for (const l of literals) l.charCodeAt(0); // resolves each rope of pieces into one flat string, once
  const frozenNotices = notices.length === 0 || isFrozen(notices);
  const tail = frozenNotices ? noticesTail(notices) : null;
  const d = digest(`${literals.join("\u0000")}\u0001${vars.join(",")}\u0001${tail ?? ""}`);
  return {
    glueBySlot: slotGlue.slice(0, n),
    fixed,
    vars,
    literals,
    asOf,
    notices: frozenNotices ? notices : null,
    tail,
    digest16: d.slice(0, 16),
    etag: `W/"${d}"`,
  };
}

/** Serialise data (member by member, so frozen members are reused), sources, as_of and notices. With frozen
 * members the envelope around the variable ones comes from a plan (above); the ETag is then the plan's digest
 * and 64 bits of hash over the variable JSON, so it changes whenever the body does. Without, the ETag is the digest
 * of the whole content. request_id is left out of both, so a repeat request can match. Returns the body before
 * request_id (`head`) and after it (`tail`). */
function serialise(reply: Reply): { head: string; tail: string; etag: string } {
  const frozen = reply.frozen;
  const isFrozen = (v: unknown) => frozen !== undefined && v !== null && typeof v === "object" && frozen.includes(v);
  let n = 0;
  const d = reply.data;
  let open = false; // data is written member by member (a plain object that is not frozen as a whole)
  if (d !== null && typeof d === "object" && !Array.isArray(d) && !isFrozen(d)) {
    for (const k in d as Record<string, unknown>) {
      slotGlue[n] = glueOf(k, !open);
      slotValue[n++] = (d as Record<string, unknown>)[k];
      open = true;
    }
  }
  if (!open) {
    slotGlue[n] = '{"data":';
    slotValue[n++] = d;
  }
  slotGlue[n] = open ? '},"sources":' : ',"sources":';
  slotValue[n++] = reply.sources.length > 1 && !isFrozen(reply.sources) ? uniqueSources(reply.sources) : reply.sources;
  const notices = reply.notices ?? [];
  const key = frozen?.find((v) => v !== null && typeof v === "object") as object | undefined;
  try {
    if (key === undefined) {
      let head = "";
      for (let i = 0; i < n; i++) head += slotGlue[i] + (JSON.stringify(slotValue[i]) ?? "null");
      head += asOfPiece(reply.asOf);
      const tail = noticesTail(notices);
      return { head, tail, etag: `W/"${digest(head + tail)}"` };
    }
    let plan = envelopePlans.get(key);
    if (plan === undefined || !fits(plan, n, isFrozen, reply.asOf, notices))
      envelopePlans.set(key, (plan = makeEnvelopePlan(n, isFrozen, reply.asOf, notices)));
    let head = plan.literals[0]!,
      seed = "";
    for (let i = 0; i < plan.vars.length; i++) {
      const j = JSON.stringify(slotValue[plan.vars[i]!]) ?? "null";
      head += j + plan.literals[i + 1]!;
      seed += j + "\u0000";
    }
    const tail = plan.tail ?? noticesTail(notices);
    if (plan.tail === null) seed += tail;
    const etag =
      seed === ""
        ? plan.etag
        : `W/"${plan.digest16}${hex8(Bun.hash.xxHash32(seed))}${hex8(Bun.hash.murmur32v3(seed))}"`;
    return { head, tail, etag };
  } finally {
    slotValue.fill(undefined, 0, n); // hold no reference past the call
  }
}

export function respond(ctx: RequestContext, reply: Reply): Response {
  const { head, tail, etag } = serialise(reply);
  const link = reply.next ? `${serviceDesc(ctx)}, <${reply.next}>; rel="next"` : serviceDesc(ctx);
  const headers: Record<string, string> = {
    ...ctx.common,
    ETag: etag,
    "Cache-Control": cacheControlFor(reply.cache),
    Link: link,
  };
  if (matches(ctx.ifNoneMatch, etag)) return new Response(null, { status: 304, headers });
  headers["Content-Type"] = "application/json; charset=utf-8";
  return new Response(`${head},"request_id":${JSON.stringify(ctx.requestId)}${tail}`, { status: 200, headers });
}

/** A JSON document that is not enveloped (the OpenAPI description) with the same conditional rules. */
const documents = new WeakMap<object, { body: string; etag: string }>();

export function respondDocument(ctx: RequestContext, doc: object, cache: CacheClass): Response {
  let d = documents.get(doc);
  if (!d) {
    const body = JSON.stringify(doc);
    d = { body, etag: etagOf(body) };
    documents.set(doc, d);
  }
  const { body, etag } = d;
  const headers: Record<string, string> = {
    ...ctx.common,
    ETag: etag,
    "Cache-Control": cacheControlFor(cache),
    Link: serviceDesc(ctx),
  };
  if (matches(ctx.ifNoneMatch, etag)) return new Response(null, { status: 304, headers });
  headers["Content-Type"] = "application/json; charset=utf-8";
  return new Response(body, { status: 200, headers });
}
