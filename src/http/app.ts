// The app: the wire protocol in front, our router (on the path as sent) behind it. The way a request walks:
// request id → methods and CORS preflight → /v1 or the web hook → auth → limits → route (parse → domain →
// reply, within timeouts.request_ms) → envelope, conditional, cache → common headers. Errors anywhere become
// problem documents from the one table. Elysia holds the same routes for the OpenAPI generator.
import type { Elysia } from "elysia";
import { DomainError } from "../domain/errors";
import { requestIdOf } from "./request-id";
import { aboutBlank, problemBody, UNPARSED, type Unparsed } from "./problems";
import { NO_STORE } from "./cache-control";
import { authenticate, type Auth } from "./auth";
import { clientAddress } from "./client-address";
import { callerOf } from "./caller";
import type { LimitOutcome } from "./limits";
import { deprecationHeaders } from "./deprecations";
import { parseParams } from "./params";
import { respond, respondDocument } from "./respond";
import { buildOpenApi, operationDetail } from "./openapi";
import { hasDotSegment, targetOf } from "./request-target";
import { ALLOWED_METHODS, type HeaderReader, type Incoming } from "./incoming";
import { Router } from "./router";
import { Context } from "./context";
import type { Deps } from "./deps";
import type { RouteDef } from "./route";
import { ROUTES } from "./routes";

const CORS_HEADERS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Expose-Headers":
    "ETag, X-Request-Id, RateLimit, RateLimit-Policy, Retry-After, Link, Deprecation, Sunset",
};
/** Seconds a caller is asked to wait after a request ran past timeouts.request_ms. */
const TIMEOUT_RETRY_AFTER_S = 5;

export interface App {
  handle(req: Incoming, socketAddress: string): Response | Promise<Response>;
  /** The answer to a request the front could not parse (only the node front sees those). */
  unparsed(reason: Unparsed): Response;
  openapi(): unknown;
  elysia: Elysia;
}

const OPENAPI_ROUTE: RouteDef = {
  path: "/openapi.json",
  operationId: "getOpenApi",
  summary: "The OpenAPI 3.1 description of this API",
  description:
    "The machine-readable description of this API (OpenAPI 3.1). No key is needed: an Authorization header is ignored here, and the document is not charged to any limit.",
  data: null,
  errors: [304],
  problems: [],
  handler: () => new Response(),
};

export function createApp(deps: Deps, routes: RouteDef[] = ROUTES): App {
  const cfg = deps.config;
  const log = deps.log ?? (() => {});
  const origin = new URL(cfg.base_url).origin;
  const timeoutMs = cfg.timeouts.request_ms;

  const problem = (ctx: Context, e: DomainError, extraHeaders?: Record<string, string>) => {
    const body = problemBody(cfg.problems_url, e.suffix, e.detail, ctx.requestId, e.extra.choices, e.extra.status);
    const headers: Record<string, string> = {
      ...ctx.common,
      "Content-Type": "application/problem+json",
      "Cache-Control": NO_STORE,
      ...extraHeaders,
      ...e.extra.headers,
    };
    if (e.extra.retryAfter !== undefined) headers["Retry-After"] = String(Math.max(1, Math.ceil(e.extra.retryAfter)));
    if (e.suffix === "method-not-allowed") headers.Allow = ALLOWED_METHODS;
    return new Response(JSON.stringify(body), { status: body.status, headers });
  };

  const toProblem = (ctx: Context, err: unknown): Response => {
    if (err instanceof DomainError) return problem(ctx, err);
    log(
      `internal-error request_id=${ctx.requestId} ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
    );
    return problem(
      ctx,
      new DomainError("internal-error", "The request could not be finished; it has been logged under its request_id."),
    );
  };

  // Elysia holds the routes for the OpenAPI generator (toOpenAPISchema reads them); requests never go through it,
  // so it is loaded on the first /openapi.json (not at start).
  let built: { elysia: Elysia; doc: unknown } | null = null;
  const build = () => {
    const { Elysia } = require("elysia") as typeof import("elysia");
    const elysia = new Elysia();
    const details: Record<string, ReturnType<typeof operationDetail>> = {};
    for (const def of [...routes, OPENAPI_ROUTE]) {
      details[def.path] = operationDetail(def);
      elysia.get(`/v1${def.path}`, () => "", { detail: details[def.path] as any });
    }
    return { elysia, doc: buildOpenApi(elysia, cfg.base_url, details, cfg.openapi ?? undefined) };
  };
  const openapi = () => (built ??= build()).doc;
  const router = new Router(routes, "/v1");

  /** Run a route: parameters, handler, reply. Synchronous answers stay synchronous. */
  function run(ctx: Context, def: RouteDef, params: Record<string, string>): Response | Promise<Response> {
    const path = def.pathParams ? parseParams(params, def.pathParams, "path") : {};
    const query = def.query ? parseParams(ctx.query, def.query) : {};
    const out = def.handler({ ctx, query, params: path, deps });
    if (out instanceof Promise)
      return out.then(
        (o) => (o instanceof Response ? withCommon(o, ctx) : respond(ctx, o)),
        (err) => toProblem(ctx, err),
      );
    return out instanceof Response ? withCommon(out, ctx) : respond(ctx, out);
  }

  /** Limit headers into the response's common headers, then go on (a shared limits store may answer later). */
  function afterHeaders<T>(
    ctx: Context,
    h: Record<string, string> | Promise<Record<string, string>>,
    next: () => T,
  ): T | Promise<Awaited<T>> {
    if (h instanceof Promise)
      return h.then((x) => {
        Object.assign(ctx.common, x);
        return next() as Awaited<T>;
      });
    Object.assign(ctx.common, h);
    return next();
  }

  /** The API behind the method check: auth, limits, route. */
  function api(req: Incoming, ctx: Context, address: string): Response | Promise<Response> {
    if (ctx.path === "/v1/openapi.json")
      // no key needed: Authorization is ignored here, and the document is not charged to any limit
      return afterHeaders(
        ctx,
        deps.limiter.peekHeaders(callerOf({ kind: "anonymous" }, address, cfg.service_callers), "call"),
        () => respondDocument(ctx, openapi() as object, "default"),
      );
    const found = router.match(ctx.path);
    const draw = found?.def.list ? "list" : "call";
    const refused = (e: unknown) =>
      afterHeaders(
        ctx,
        deps.limiter.peekHeaders(callerOf({ kind: "anonymous" }, address, cfg.service_callers), draw),
        () => {
          throw e;
        },
      );
    let auth: Auth | Promise<Auth>;
    try {
      auth = authenticate(req.headers, deps.keys);
    } catch (e) {
      return refused(e);
    }
    // a key a shared state store has not seen yet is answered later (src/state/postgres.ts)
    if (auth instanceof Promise) return auth.then((a) => limitsAndRoute(ctx, found, draw, address, a), refused);
    return limitsAndRoute(ctx, found, draw, address, auth);
  }

  /** Limits, then the route, for an authenticated caller. */
  function limitsAndRoute(
    ctx: Context,
    found: ReturnType<Router["match"]>,
    draw: "list" | "call",
    address: string,
    auth: Auth,
  ): Response | Promise<Response> {
    ctx.keyed = auth.kind === "key";
    const admitted = (outcome: LimitOutcome): Response | Promise<Response> => {
      Object.assign(ctx.common, outcome.headers);
      if (!outcome.ok)
        throw new DomainError("rate-limited", `A minute or day limit is used up; wait ${outcome.retryAfter} seconds.`, {
          retryAfter: outcome.retryAfter,
        });
      if (!found) throw new DomainError("not-found", `No endpoint at ${ctx.path.slice(0, 100)}.`);
      return run(ctx, found.def, found.params);
    };
    const outcome = deps.limiter.check(callerOf(auth, address, cfg.service_callers), draw);
    return outcome instanceof Promise ? outcome.then(admitted) : admitted(outcome);
  }

  function handle(req: Incoming, socketAddress: string): Response | Promise<Response> {
    const { path, search } = targetOf(req.url);
    const method = req.method;
    const head = method === "HEAD";
    // the human pages (src/web) answer every path outside /v1 themselves: methods, limits, HTML errors; a target
    // with a dot segment is nobody's page (it may be a /v1 request in disguise): a problem document below
    const dotted = hasDotSegment(path);
    // the MCP endpoint (serve with mcp.in_serve): its own protocol, methods and errors; the same limiter
    if (deps.mcp && path === deps.mcp.path) return deps.mcp.handle(req, socketAddress);
    if (deps.web && !dotted && !(path === "/v1" || path.startsWith("/v1/"))) return deps.web(req, socketAddress);
    const requestId = requestIdOf(req.headers.get("x-request-id"));
    const common: Record<string, string> = { "X-Request-Id": requestId, ...CORS_HEADERS };
    const ctx = new Context(
      requestId,
      path,
      search,
      head,
      cfg.base_url,
      origin,
      cfg.problems_url,
      req.headers.get("if-none-match"),
      common,
    );
    let res: Response | Promise<Response>;
    try {
      if (method === "OPTIONS") res = preflight(ctx, req.headers);
      else if (method !== "GET" && !head)
        throw new DomainError(
          "method-not-allowed",
          `${method.slice(0, 10)} is not answered; use GET, HEAD or OPTIONS.`,
        );
      else if (dotted) throw new DomainError("not-found", `No endpoint at ${path.slice(0, 100)}.`);
      else if (path === "/v1" || path.startsWith("/v1/"))
        res = api(req, ctx, clientAddress(socketAddress, req.headers, cfg.trusted_proxies));
      else throw new DomainError("not-found", `No endpoint at ${path.slice(0, 100)}.`);
    } catch (err) {
      res = toProblem(ctx, err);
    }
    if (res instanceof Promise) return withTimeout(ctx, res).then((r) => finish(r, ctx));
    return finish(res, ctx);
  }

  /** timeouts.request_ms bounds the whole request: past it the caller gets 503 busy, never a hang. */
  function withTimeout(ctx: Context, p: Promise<Response>): Promise<Response> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<Response>((resolve) => {
      timer = setTimeout(
        () =>
          resolve(
            problem(
              ctx,
              new DomainError(
                "busy",
                `The request could not be finished within ${timeoutMs} ms; retry in a few seconds.`,
                { retryAfter: TIMEOUT_RETRY_AFTER_S },
              ),
            ),
          ),
        timeoutMs,
      );
    });
    return Promise.race([p.catch((err) => toProblem(ctx, err)), late]).finally(() => clearTimeout(timer));
  }

  /** A Response a route built itself gets the headers common to every response (ours carry them already). */
  function withCommon(res: Response, ctx: Context): Response {
    const h = res.headers;
    for (const k in ctx.common) if (!h.has(k)) h.set(k, ctx.common[k]!);
    return res;
  }

  /** Last touches common to every response: deprecations, HEAD. */
  function finish(res: Response, ctx: Context): Response | Promise<Response> {
    if (deps.deprecations.length && (res.status === 200 || res.status === 304)) {
      for (const [k, v] of Object.entries(deprecationHeaders(ctx.path.replace(/^\/v1/, ""), deps.deprecations)))
        res.headers.set(k, v);
    }
    if (ctx.head && res.body) {
      return res.arrayBuffer().then((b) => {
        const h = res.headers;
        h.set("Content-Length", String(b.byteLength));
        return new Response(null, { status: res.status, headers: h });
      });
    }
    return res;
  }

  function unparsed(reason: Unparsed): Response {
    const requestId = requestIdOf(null);
    const ctx = new Context(requestId, "/", "", false, cfg.base_url, origin, cfg.problems_url, null, {
      "X-Request-Id": requestId,
      ...CORS_HEADERS,
    });
    if (reason === "method")
      return problem(
        ctx,
        new DomainError("method-not-allowed", "The method is not answered; use GET, HEAD or OPTIONS."),
      );
    const u = UNPARSED[reason];
    return new Response(JSON.stringify(aboutBlank(u.status, u.title, u.detail, requestId)), {
      status: u.status,
      headers: { ...ctx.common, "Content-Type": "application/problem+json", "Cache-Control": NO_STORE },
    });
  }

  function preflight(ctx: Context, headers: HeaderReader): Response {
    const asked = (headers.get("access-control-request-headers") ?? "")
      .toLowerCase()
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    if (asked.includes("authorization")) {
      return problem(
        ctx,
        new DomainError(
          "bad-parameter",
          "Keys are for servers only: a browser preflight may not ask for the Authorization header.",
        ),
      );
    }
    const method = headers.get("access-control-request-method");
    if (method && !["GET", "HEAD", "OPTIONS"].includes(method.toUpperCase())) {
      return problem(
        ctx,
        new DomainError("method-not-allowed", `${method.slice(0, 10)} is not answered; use GET, HEAD or OPTIONS.`),
      );
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

  return {
    handle,
    unparsed,
    openapi,
    get elysia() {
      return (built ??= build()).elysia;
    },
  };
}
