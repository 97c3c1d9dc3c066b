// The OpenAPI 3.1 document, generated from the route definitions and the TypeBox schemas: the Elysia OpenAPI
// plugin's generator (toOpenAPISchema) gives the paths, our route details give parameters and responses, the
// part-2 schemas are components referenced by $ref (every inline copy of a component is replaced by its $ref,
// and components no operation reaches are left out). Nothing here is hand-written API description beyond the
// info block and the header table (openapi-headers.ts).
import { API_VERSION } from "../domain/version";
import type { AnyElysia } from "elysia";
import type { TSchema } from "@sinclair/typebox";
import { Envelope, Problem, Topic } from "./schemas/common";
import { componentSchemas } from "./schemas";
import { PROBLEMS } from "./problems";
import { headersFor } from "./openapi-headers";
import type { ProblemSuffix } from "../domain/errors";
import type { RouteDef } from "./route";
import type { ParamSpecs } from "./params";

const STATUS_TEXT: Record<number, string> = {
  304: "Not modified (the If-None-Match ETag matches); no body.",
  400: "Bad request",
  401: "Invalid key",
  404: "Not found",
  405: "Method not allowed",
  409: "Ambiguous: several candidates; see choices",
  429: "Rate or lookup limit used up",
  500: "Internal error",
  503: "Busy or an outside service did not answer",
};

/** What an operation may answer besides its own problems: the front door's. */
const FRONT_DOOR: ProblemSuffix[] = ["invalid-key", "rate-limited"];

/** The problem types an operation can return: its parameters' types, its declared domain problems and the front
 * door's; a route that declares none gets every type of its statuses. */
function problemsOf(def: RouteDef): Record<number, ProblemSuffix[]> {
  const own = new Set<ProblemSuffix>();
  for (const s of [...Object.values(def.pathParams ?? {}), ...Object.values(def.query ?? {})]) own.add(s.problem);
  for (const p of def.problems ?? []) own.add(p);
  const out: Record<number, ProblemSuffix[]> = {};
  for (const status of def.errors) {
    if (status === 304) continue;
    const all = (Object.keys(PROBLEMS) as ProblemSuffix[]).filter(
      (k) => PROBLEMS[k].status === status || (k === "unknown-topic" && status === 400),
    );
    const mine = def.problems ? all.filter((k) => own.has(k) || FRONT_DOOR.includes(k)) : all;
    // unknown-topic: 404 on the path, 400 in the query
    const fixed = mine.filter((k) => k !== "unknown-topic" || (status === 404) === !!def.pathParams?.topic);
    if (fixed.length) out[status] = fixed;
  }
  return out;
}

function parameters(path?: ParamSpecs, query?: ParamSpecs) {
  const out: unknown[] = [];
  for (const [name, s] of Object.entries(path ?? {}))
    out.push({ name, in: "path", required: true, schema: s.schema, description: s.description });
  for (const [name, s] of Object.entries(query ?? {}))
    out.push({ name, in: "query", required: !!s.required, schema: s.schema, description: s.description });
  out.push({
    name: "X-Request-Id",
    in: "header",
    required: false,
    description: "Echoed as request_id; generated when absent or malformed.",
    schema: { type: "string", pattern: "^[A-Za-z0-9._-]{8,64}$" },
  });
  out.push({
    name: "If-None-Match",
    in: "header",
    required: false,
    description: "An ETag of an earlier response; a match answers 304.",
    schema: { type: "string" },
  });
  return out;
}

/** The `detail` object Elysia carries for a route; the plugin spreads it into the operation. */
export function operationDetail(def: RouteDef) {
  const ok = def.data ? Envelope(def.data) : { type: "object", description: "The OpenAPI 3.1 document." };
  const responses: Record<string, unknown> = {
    200: { description: "OK", headers: headersFor(200), content: { "application/json": { schema: ok } } },
  };
  const problems = problemsOf(def);
  for (const s of def.errors) {
    if (s === 304) {
      responses[s] = { description: STATUS_TEXT[304], headers: headersFor(304) };
      continue;
    }
    if (!problems[s]) continue;
    responses[s] = {
      description: `${STATUS_TEXT[s] ?? "Error"}. Problem types: ${problems[s]!.join(", ")}.`,
      headers: headersFor(s),
      content: { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } },
    };
  }
  const tag = def.path.split("/")[1]!.replace(/\.json$/, "");
  return {
    operationId: def.operationId,
    summary: def.summary,
    description: def.description ?? `${def.summary}.`,
    tags: [tag],
    parameters: parameters(def.pathParams, def.query),
    responses,
    security: def.path === "/openapi.json" ? [] : [{}, { bearer: [] }],
    "x-problem-types": Object.fromEntries(Object.entries(problems).map(([s, l]) => [s, l])),
  };
}

/** Plain JSON of a schema (TypeBox symbols dropped), with anyOf-of-string-consts written as an enum. */
function plain(v: unknown): any {
  if (Array.isArray(v)) return v.map(plain);
  if (v === null || typeof v !== "object") return v;
  const o = v as Record<string, unknown>;
  if (
    Array.isArray(o.anyOf) &&
    o.anyOf.length > 1 &&
    o.anyOf.every(
      (m: any) => typeof m?.const === "string" && Object.keys(m).every((k) => k === "const" || k === "type"),
    )
  ) {
    const { anyOf, ...rest } = o;
    return { ...plain(rest), type: "string", enum: (anyOf as { const: string }[]).map((m) => m.const) };
  }
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(o)) if (o[k] !== undefined && k !== "$id") out[k] = plain(o[k]);
  return out;
}

/** Replace every inline copy of a component (same JSON) by its $ref, except the component's own root. */
function refify(v: unknown, byJson: Map<string, string>, root = true): any {
  if (Array.isArray(v)) return v.map((x) => refify(x, byJson, false));
  if (v === null || typeof v !== "object") return v;
  if (!root) {
    const name = byJson.get(JSON.stringify(v));
    if (name) return { $ref: `#/components/schemas/${name}` };
  }
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) out[k] = refify(x, byJson, false);
  return out;
}

function reachable(doc: unknown, schemas: Record<string, unknown>): Set<string> {
  const seen = new Set<string>();
  const walk = (v: unknown) => {
    if (Array.isArray(v)) return v.forEach(walk);
    if (v === null || typeof v !== "object") return;
    const ref = (v as { $ref?: unknown }).$ref;
    if (typeof ref === "string" && ref.startsWith("#/components/schemas/")) {
      const n = ref.slice(21);
      if (!seen.has(n)) {
        seen.add(n);
        walk(schemas[n]);
      }
    }
    for (const x of Object.values(v)) walk(x);
  };
  walk(doc);
  return seen;
}

interface OpenApiInfo {
  contact: { name: string; url?: string; email?: string };
  license: { name: string; url?: string; identifier?: string };
}

export function buildOpenApi(
  app: AnyElysia,
  baseUrl: string,
  details: Record<string, ReturnType<typeof operationDetail>>,
  info?: OpenApiInfo,
) {
  // loaded here, not at start: only this document needs the plugin
  const { toOpenAPISchema } = require("@elysiajs/openapi") as typeof import("@elysiajs/openapi");
  const generated = toOpenAPISchema(app, { methods: ["HEAD", "OPTIONS"] }, undefined, undefined, "3.1.0" as any) as any;
  const all: Record<string, unknown> = Object.fromEntries(
    Object.entries({ ...componentSchemas, Problem, Topic } as Record<string, TSchema>).map(([k, s]) => [k, plain(s)]),
  );
  // larger components first, so a component that contains another is matched whole
  const byJson = new Map<string, string>();
  for (const [name, s] of Object.entries(all).sort(
    (a, b) => JSON.stringify(b[1]).length - JSON.stringify(a[1]).length,
  )) {
    const j = JSON.stringify(s);
    if (!byJson.has(j)) byJson.set(j, name);
  }
  const schemas = Object.fromEntries(Object.entries(all).map(([k, s]) => [k, refify(s, byJson)]));
  // Paths are mounted under /v1 on the app; servers[0] is the base_url, so paths are relative to it.
  const paths: Record<string, any> = {};
  for (const p of Object.keys(generated.paths ?? {})) paths[p.replace(/^\/v1/, "") || "/"] = {};
  for (const [p, detail] of Object.entries(details)) {
    const key = p.replace(/:([^/]+)/g, "{$1}");
    paths[key] = { get: refify(plain(detail), byJson, false) };
  }
  const used = reachable(paths, schemas);
  const origin = new URL(baseUrl).origin;
  const tags = [...new Set(Object.values(details).flatMap((d) => d.tags))]
    .sort()
    .map((name) => ({ name, description: `The /${name} endpoint${name === "openapi" ? " (this document)" : ""}.` }));
  return {
    openapi: "3.1.0",
    info: {
      title: "Property, Land and GIS Directory API",
      version: API_VERSION,
      description:
        "Read-only directory of official US government offices and websites for property, land and map " +
        "questions. A guide, not an authority: the named office has the final say. Screening is never a " +
        "determination.",
      contact: info?.contact ?? { name: "The operator of this directory", url: `${origin}/` },
      license: info?.license ?? {
        name: "Terms of use not yet published: credit the service as the data origin, with a link",
        url: `${origin}/`,
      },
    },
    servers: [{ url: baseUrl }],
    tags,
    paths,
    components: {
      schemas: Object.fromEntries(Object.entries(schemas).filter(([k]) => used.has(k))),
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", description: "Optional key (raises limits and page sizes only)." },
      },
    },
    security: [{}, { bearer: [] }],
  };
}
