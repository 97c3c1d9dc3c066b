// The human pages behind every page_url: answered in front of the /v1 API (one hook in src/http/app.ts), on the
// same port, with the API's own rules for X-Request-Id, weak ETag / 304 and Cache-Control (one table), and the
// anonymous request limits. Errors are HTML pages here; problem+json stays on /v1.
import type { LimitOutcome } from "../http/limits";
import { requestIdOf } from "../http/request-id";
import { targetOf } from "../http/request-target";
import { ALLOWED_METHODS, type Incoming } from "../http/incoming";
import { etagOf, matches } from "../http/respond";
import { cacheControlFor, NO_STORE } from "../http/cache-control";
import { clientAddress } from "../http/client-address";
import { callerOf } from "../http/caller";
import { PROBLEMS } from "../http/problems";
import { DomainError } from "../domain/errors";
import type { Deps, WebHandler } from "../http/deps";
import { linker, type Page, type PageInput } from "./site";
import { renderPage } from "./render";
import { ROUTES, type WebRoute } from "./routes";
import { STYLESHEET } from "./layout";
import { errorPage } from "./pages/errors";

const ROBOTS = "User-agent: *\nDisallow: /find\nDisallow: /screening\nDisallow: /search\nDisallow: /v1/\n";
const SECURITY: Record<string, string> = {
  // no scripts, no outside assets: the pages work on an air-gapped LAN and without JavaScript
  "Content-Security-Policy":
    "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
};

export function createWeb(deps: Deps): WebHandler {
  const l = linker(deps.links.site);

  return function web(req: Incoming, socketAddress: string): Response | Promise<Response> {
    const requestId = requestIdOf(req.headers.get("x-request-id"));
    const common: Record<string, string> = { "X-Request-Id": requestId, ...SECURITY };
    const head = req.method === "HEAD";
    // the path as sent (never from Host, which may be missing or malformed), on a fixed origin
    const target = targetOf(req.url);
    // "//x/topics" would read as a host: a path that starts with "//" is no page (and never throws here)
    const url = target.path.startsWith("//")
      ? null
      : (() => {
          try {
            return new URL(target.path + target.search, "http://localhost");
          } catch {
            return null;
          }
        })();
    const finish = (res: Response | Promise<Response>) => (head ? Promise.resolve(res).then(stripBody) : res);
    const fail = (status: number, e: DomainError | Error, extra: Record<string, string> = {}) =>
      finish(
        html(renderPage(errorPage(status, e, requestId, l), l), status, {
          ...common,
          "Cache-Control": NO_STORE,
          ...extra,
        }),
      );

    if (req.method === "OPTIONS")
      return new Response(null, {
        status: 204,
        headers: { ...common, Allow: ALLOWED_METHODS, "Cache-Control": "public, max-age=86400" },
      });
    if (req.method !== "GET" && !head)
      return fail(
        405,
        new DomainError("method-not-allowed", `${req.method.slice(0, 10)} is not answered; pages answer GET and HEAD.`),
        { Allow: ALLOWED_METHODS },
      );

    if (!url) return fail(404, new DomainError("not-found", `There is no page at ${target.path.slice(0, 100)}.`));
    if (url.pathname === "/style.css") {
      return finish(conditional(req, STYLESHEET, "text/css; charset=utf-8", cacheControlFor("assets"), common));
    }

    // not counted against the limits: a browser's icon request, and the crawler rules (lookups are not for crawlers)
    if (url.pathname === "/favicon.ico")
      return new Response(null, { status: 404, headers: { ...common, "Cache-Control": cacheControlFor("assets") } });
    if (url.pathname === "/robots.txt")
      return finish(conditional(req, ROBOTS, "text/plain; charset=utf-8", cacheControlFor("assets"), common));

    const match = matchRoute(url.pathname);
    if (!match) return fail(404, new DomainError("not-found", `There is no page at ${url.pathname.slice(0, 100)}.`));
    const { route, params } = match;

    const address = clientAddress(socketAddress, req.headers, deps.config.trusted_proxies);
    // every page draws from the pages' own limits (per address and all readers together), never the API's
    const caller = callerOf({ kind: "anonymous" }, address, deps.config.service_callers);
    const admitted = (outcome: LimitOutcome): Response | Promise<Response> => {
      Object.assign(common, outcome.headers);
      if (!outcome.ok)
        return fail(
          429,
          new DomainError(
            "rate-limited",
            `Too many pages in a short time from your address; wait ${outcome.retryAfter} seconds.`,
          ),
          { "Retry-After": String(outcome.retryAfter) },
        );
      return page();
    };
    const page = (): Response | Promise<Response> => {
      const input: PageInput = { deps, url, params, requestId };

      const done = (page: Page): Response => {
        const body = renderPage(page, l);
        const status = page.status ?? 200;
        if (status !== 200 || page.noStore)
          return html(body, status, { ...common, "Cache-Control": NO_STORE, ...page.headers });
        return conditional(req, body, "text/html; charset=utf-8", cacheControlFor(page.cache ?? "pages"), common);
      };
      const caught = (err: unknown): Response | Promise<Response> => {
        if (err instanceof DomainError) return fail(PROBLEMS[err.suffix].status, err);
        deps.log?.(
          `internal-error request_id=${requestId} ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
        );
        return fail(
          500,
          new DomainError("internal-error", "The page could not be built; it has been logged under its request id."),
        );
      };
      try {
        const out = route.page(input);
        if (out instanceof Promise) return out.then((p) => finish(done(p)), caught);
        return finish(done(out));
      } catch (err) {
        return caught(err);
      }
    };
    const outcome = deps.limiter.check(caller, "page");
    return outcome instanceof Promise ? outcome.then(admitted) : admitted(outcome);
  };
}

function matchRoute(path: string): { route: WebRoute; params: string[] } | null {
  for (const route of ROUTES) {
    const m = route.pattern.exec(path);
    if (!m) continue;
    try {
      return { route, params: m.slice(1).map((s) => decodeURIComponent(s)) };
    } catch {
      return null; // a malformed %-escape is no page
    }
  }
  return null;
}

function html(body: string, status: number, headers: Record<string, string>): Response {
  return new Response(body, { status, headers: { ...headers, "Content-Type": "text/html; charset=utf-8" } });
}

/** 200 with a weak ETag over the body, or 304 when If-None-Match matches (the API's rule). */
function conditional(
  req: Incoming,
  body: string,
  type: string,
  cacheControl: string,
  headers: Record<string, string>,
): Response {
  const etag = etagOf(body);
  const h = { ...headers, "Cache-Control": cacheControl, ETag: etag };
  if (matches(req.headers.get("if-none-match"), etag)) return new Response(null, { status: 304, headers: h });
  return new Response(body, { status: 200, headers: { ...h, "Content-Type": type } });
}

async function stripBody(res: Response): Promise<Response> {
  if (!res.body) return res;
  const b = await res.arrayBuffer();
  const h = new Headers(res.headers);
  h.set("Content-Length", String(b.byteLength));
  return new Response(null, { status: res.status, headers: h });
}
