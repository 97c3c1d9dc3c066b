// The app: the wire protocol in front, Elysia routing the /v1 endpoints behind it. The way a request walks:
// request id → methods and CORS preflight → auth → limits → route (parse → domain → reply) → envelope,
// conditional, cache → common headers. Errors anywhere become problem documents from the one table.
import { Elysia } from "elysia";
import { DomainError } from "../domain/errors";
import { requestIdOf } from "./request-id";
import { problemBody } from "./problems";
import { NO_STORE } from "./cache-control";
import { authenticate, type Auth } from "./auth";
import { clientAddress, inAny, limitKey } from "./client-address";
import type { Caller } from "./limits";
import { deprecationHeaders } from "./deprecations";
import { parseParams, queryOf } from "./params";
import { respond, respondDocument, type RequestContext } from "./respond";
import { buildOpenApi, operationDetail } from "./openapi";
import type { Deps } from "./deps";
import type { RouteDef } from "./route";
import { ROUTES } from "./routes";

export const ALLOWED_METHODS = "GET, HEAD, OPTIONS";
const CORS_HEADERS = { "Access-Control-Allow-Origin": "*", "Access-Control-Expose-Headers": "ETag, X-Request-Id, RateLimit, RateLimit-Policy, Retry-After, Link, Deprecation, Sunset" };
const LIST_PATHS = /^\/v1\/(places\/|resources(\/|$))/;

const contexts = new WeakMap<Request, RequestContext>();

export interface App { handle(req: Request, socketAddress: string): Response | Promise<Response>; openapi(): unknown; elysia: Elysia }

export function createApp(deps: Deps, routes: RouteDef[] = ROUTES): App {
  const cfg = deps.config;
  const log = deps.log ?? (() => {});

  const problem = (ctx: { requestId: string; common: Record<string, string> }, e: DomainError, extraHeaders: Record<string, string> = {}, status?: number) => {
    const body = problemBody(cfg.problems_url, e.suffix, e.detail, ctx.requestId, e.extra.choices, status);
    const headers: Record<string, string> = { ...ctx.common, "Content-Type": "application/problem+json", "Cache-Control": NO_STORE, ...extraHeaders };
    if (e.extra.retryAfter !== undefined) headers["Retry-After"] = String(Math.max(1, Math.ceil(e.extra.retryAfter)));
    if (e.suffix === "method-not-allowed") headers.Allow = ALLOWED_METHODS;
    return new Response(JSON.stringify(body), { status: body.status, headers });
  };

  const toProblem = (ctx: RequestContext, err: unknown): Response => {
    if (err instanceof DomainError) {
      // unknown-topic is 404 on the path and 400 as a query parameter
      const status = err.suffix === "unknown-topic" && !/^\/v1\/guides\//.test(ctx.url.pathname) ? 400 : undefined;
      return problem(ctx, err, {}, status);
    }
    log(`internal-error request_id=${ctx.requestId} ${err instanceof Error ? err.stack ?? err.message : String(err)}`);
    return problem(ctx, new DomainError("internal-error", "The request could not be finished; it has been logged under its request_id."));
  };

  const elysia = new Elysia({ aot: true });
  let openapiDoc: unknown = null;
  const details: Record<string, ReturnType<typeof operationDetail>> = {};
  const openapiDef: RouteDef = { path: "/openapi.json", operationId: "getOpenApi", summary: "The OpenAPI 3.1 description of this API", data: null, errors: [], handler: () => new Response() };
  details[openapiDef.path] = operationDetail(openapiDef);

  for (const def of routes) {
    elysia.get(`/v1${def.path}`, ({ request, params }) => {
      const ctx = contexts.get(request)!;
      try {
        const path = def.pathParams ? parseParams(decodeParams(params as Record<string, string>), def.pathParams) : {};
        const query = def.query ? parseParams(queryOf(ctx.url), def.query) : {};
        const out = def.handler({ ctx, query, params: path, deps });
        // synchronous handlers answer without a promise; async ones (outside lookups) are awaited
        if (out instanceof Promise) return out.then((o) => (o instanceof Response ? o : respond(ctx, o)), (err) => toProblem(ctx, err));
        return out instanceof Response ? out : respond(ctx, out);
      } catch (err) {
        return toProblem(ctx, err);
      }
    }, { detail: (details[def.path] = operationDetail(def)) as any });
  }
  const openapi = () => (openapiDoc ??= buildOpenApi(elysia, cfg.base_url, details));
  elysia.get("/v1/openapi.json", ({ request }) => respondDocument(contexts.get(request)!, openapi(), "default"), { detail: details[openapiDef.path] as any });
  elysia.onError(({ request, code, error }) => {
    const ctx = contexts.get(request);
    if (!ctx) return new Response("", { status: 500 });
    if (code === "NOT_FOUND") return problem(ctx, new DomainError("not-found", `No endpoint at ${ctx.url.pathname.slice(0, 100)}.`));
    return toProblem(ctx, error);
  });

  function callerOf(auth: Auth, address: string): Caller {
    if (auth.kind === "key") return { kind: "key", tier: auth.tier, keyId: auth.keyId };
    if (inAny(address, cfg.service_callers)) return { kind: "service", address: limitKey(address) };
    return { kind: "anonymous", address: limitKey(address) };
  }

  function handle(req: Request, socketAddress: string): Response | Promise<Response> {
    const requestId = requestIdOf(req.headers);
    const url = new URL(req.url);
    if (deps.web && !/^\/v1(\/|$)/.test(url.pathname)) return deps.web(req, socketAddress); // issue 11 hook: human pages (src/web) answer every path outside /v1
    const head = req.method === "HEAD";
    const common: Record<string, string> = { "X-Request-Id": requestId, ...CORS_HEADERS };
    const ctx: RequestContext = {
      requestId, url, head, keyed: false, baseUrl: cfg.base_url, problemsUrl: cfg.problems_url,
      ifNoneMatch: req.headers.get("if-none-match"), common,
    };
    const address = clientAddress(socketAddress, req.headers, cfg.trusted_proxies);
    const list = LIST_PATHS.test(url.pathname);
    const withLimits = (h: Record<string, string>) => { for (const k in h) common[k] = h[k]!; };
    let res: Response | Promise<Response>;
    try {
      if (req.method === "OPTIONS") res = preflight(ctx, req.headers);
      else if (req.method !== "GET" && !head) res = problem(ctx, new DomainError("method-not-allowed", `${req.method.slice(0, 10)} is not answered; use GET, HEAD or OPTIONS.`));
      else {
        let auth: Auth;
        try { auth = authenticate(req.headers, deps.keys); } catch (e) {
          withLimits(deps.limiter.peekHeaders(callerOf({ kind: "anonymous" }, address), list));
          throw e;
        }
        ctx.keyed = auth.kind === "key";
        const outcome = deps.limiter.check(callerOf(auth, address), list);
        withLimits(outcome.headers);
        if (!outcome.ok) res = problem(ctx, new DomainError("rate-limited", `A minute or day limit is used up; wait ${outcome.retryAfter} seconds.`, { retryAfter: outcome.retryAfter }));
        else {
          const routed = head ? new Request(req.url, { method: "GET", headers: req.headers }) : req;
          contexts.set(routed, ctx);
          // Elysia's compiled fetch answers synchronously when the route does (no promise round trip)
          const out = (elysia as unknown as { fetch(r: Request): Response | Promise<Response> }).fetch(routed);
          res = out instanceof Promise ? out.catch((err) => toProblem(ctx, err)) : out;
        }
      }
    } catch (err) {
      res = toProblem(ctx, err);
    }
    return res instanceof Promise ? res.then((r) => finish(r, ctx, url, common)) : finish(res, ctx, url, common);
  }

  /** Last touches common to every response: headers of responses not built by us, deprecations, HEAD. */
  function finish(res: Response, ctx: RequestContext, url: URL, common: Record<string, string>): Response | Promise<Response> {
    const h = res.headers;
    if (!h.has("x-request-id")) for (const k in common) h.set(k, common[k]!);
    if (deps.deprecations.length && (res.status === 200 || res.status === 304)) {
      for (const [k, v] of Object.entries(deprecationHeaders(url.pathname.replace(/^\/v1/, ""), deps.deprecations))) h.set(k, v);
    }
    if (ctx.head && res.body) {
      return res.arrayBuffer().then((b) => {
        h.set("Content-Length", String(b.byteLength));
        return new Response(null, { status: res.status, headers: h });
      });
    }
    return res;
  }

  function preflight(ctx: RequestContext, headers: Headers): Response {
    const asked = (headers.get("access-control-request-headers") ?? "").toLowerCase().split(",").map((s) => s.trim()).filter(Boolean);
    if (asked.includes("authorization")) {
      return problem(ctx, new DomainError("bad-parameter", "Keys are for servers only: a browser preflight may not ask for the Authorization header."));
    }
    const method = headers.get("access-control-request-method");
    if (method && !["GET", "HEAD", "OPTIONS"].includes(method.toUpperCase())) {
      return problem(ctx, new DomainError("method-not-allowed", `${method.slice(0, 10)} is not answered; use GET, HEAD or OPTIONS.`));
    }
    return new Response(null, {
      status: 204,
      headers: {
        ...ctx.common,
        Allow: ALLOWED_METHODS,
        "Access-Control-Allow-Methods": ALLOWED_METHODS,
        "Access-Control-Allow-Headers": "X-Request-Id, If-None-Match",
        "Access-Control-Max-Age": "86400",
        "Cache-Control": "public, max-age=86400",
      },
    });
  }

  return { handle, openapi, elysia };
}

function decodeParams(p: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(p)) { try { out[k] = decodeURIComponent(v); } catch { out[k] = v; } }
  return out;
}
