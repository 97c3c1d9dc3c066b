// The OpenAPI 3.1 document, generated from the route definitions and the TypeBox schemas by the Elysia OpenAPI
// plugin's own generator (toOpenAPISchema). Nothing here is hand-written API description: only the info block.
import { toOpenAPISchema } from "@elysiajs/openapi";
import type { AnyElysia } from "elysia";
import type { TSchema } from "@sinclair/typebox";
import { Envelope, Problem } from "./schemas/common";
import { componentSchemas } from "./schemas";
import { PROBLEMS } from "./problems";
import type { RouteDef } from "./route";
import type { ParamSpecs } from "./params";

export const API_VERSION = "1.4.0";

const STATUS_TEXT: Record<number, string> = {
  304: "Not modified (the If-None-Match ETag matches); no body.", 400: "Bad request", 401: "Invalid key",
  404: "Not found", 405: "Method not allowed", 409: "Ambiguous: several candidates; see choices", 429: "Rate or lookup limit used up",
  500: "Internal error", 503: "Busy or an outside service did not answer",
};

const COMMON_HEADERS = ["ETag", "Cache-Control", "X-Request-Id", "RateLimit-Policy", "RateLimit", "Link", "Access-Control-Allow-Origin"];

function parameters(path?: ParamSpecs, query?: ParamSpecs) {
  const out: unknown[] = [];
  for (const [name, s] of Object.entries(path ?? {})) out.push({ name, in: "path", required: true, schema: s.schema, description: s.description });
  for (const [name, s] of Object.entries(query ?? {})) out.push({ name, in: "query", required: !!s.required, schema: s.schema, description: s.description });
  out.push({ name: "X-Request-Id", in: "header", required: false, schema: { type: "string", pattern: "^[A-Za-z0-9._-]{8,64}$" } });
  out.push({ name: "If-None-Match", in: "header", required: false, schema: { type: "string" } });
  return out;
}

function problemTypes(status: number): string[] {
  return Object.entries(PROBLEMS).filter(([k, p]) => p.status === status || (k === "unknown-topic" && status === 400)).map(([k]) => k);
}

/** The `detail` object Elysia carries for a route; the plugin spreads it into the operation. */
export function operationDetail(def: RouteDef) {
  const ok = def.data ? Envelope(def.data) : { type: "object", description: "The OpenAPI 3.1 document." };
  const headers = Object.fromEntries(COMMON_HEADERS.map((h) => [h, { schema: { type: "string" } }]));
  const responses: Record<string, unknown> = { 200: { description: "OK", headers, content: { "application/json": { schema: ok } } } };
  for (const s of def.errors) {
    responses[s] = s === 304
      ? { description: STATUS_TEXT[304], headers: { ETag: { schema: { type: "string" } } } }
      : { description: `${STATUS_TEXT[s] ?? "Error"}. Problem types: ${problemTypes(s).join(", ")}.`, content: { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } } };
  }
  return {
    operationId: def.operationId, summary: def.summary, description: def.description,
    parameters: parameters(def.pathParams, def.query), responses,
    security: def.path === "/openapi.json" ? [] : [{}, { bearer: [] }],
  };
}

export function buildOpenApi(app: AnyElysia, baseUrl: string, details: Record<string, ReturnType<typeof operationDetail>>) {
  const generated = toOpenAPISchema(app, { methods: ["HEAD", "OPTIONS"] }, undefined, undefined, "3.1.0" as any) as any;
  const schemas: Record<string, TSchema> = { ...(generated.components?.schemas ?? {}), ...componentSchemas, Problem };
  // Paths are mounted under /v1 on the app; servers[0] is the base_url, so paths are relative to it.
  const paths: Record<string, unknown> = {};
  for (const [p, v] of Object.entries(generated.paths ?? {})) paths[p.replace(/^\/v1/, "") || "/"] = v;
  // The plugin fills path parameters as plain strings when no Elysia params schema is given (validation is ours,
  // with typed problems); put back the parameters generated from our TypeBox specs. Paths the plugin skips as
  // static files (/openapi.json) are added from the same route detail.
  for (const [p, detail] of Object.entries(details)) {
    const key = p.replace(/:([^/]+)/g, "{$1}");
    const item = ((paths[key] ??= {}) as Record<string, any>);
    item.get = { ...(item.get ?? {}), ...detail, parameters: detail.parameters };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Property, Land and GIS Directory API",
      version: API_VERSION,
      description: "Read-only directory of official US government offices and websites for property, land and map questions. A guide, not an authority: the named office has the final say. Screening is never a determination.",
    },
    servers: [{ url: baseUrl }],
    paths,
    components: {
      schemas,
      securitySchemes: { bearer: { type: "http", scheme: "bearer", description: "Optional key (raises limits and page sizes only)." } },
    },
    security: [{}, { bearer: [] }],
  };
}
