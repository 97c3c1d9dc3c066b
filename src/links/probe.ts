// Checking one URL: HEAD first, GET where HEAD is refused, redirects followed by hand (at most `maxRedirects`),
// every hop's host resolved and vetted by the SSRF guard and robots.txt consulted for every hop's origin.
// The outcome is "ok" (a 2xx at the end), "failed" (with a reason) or "skipped" (robots.txt forbids it). A page
// that answers 2xx is then read once (its first 64 KB) for a notice that the site is retired: reason "retired".
import { hop, HopError, type HopReply } from "./hop";
import type { FetchText, RobotsCache } from "./robots";
import { RETIRED_SCAN_BYTES, retiredNotice } from "./retired";
import { RefusedAddress, vetHost, type Resolver } from "./ssrf";

type Reason =
  | "http-status"
  | "timeout"
  | "reset"
  | "refused"
  | "tls"
  | "network"
  | "too-large"
  | "dns"
  | "refused-address"
  | "too-many-redirects"
  | "bad-redirect"
  | "bad-url"
  | "robots"
  | "retired";

export interface ProbeResult {
  kind: "ok" | "failed" | "skipped";
  status: number | null; // the last HTTP status seen (null when no answer)
  finalUrl: string; // the last URL requested
  method: "HEAD" | "GET"; // the method of the last request
  redirects: number;
  reason: Reason | null; // set unless ok
  detail: string;
}

export interface ProbeDeps {
  resolver: Resolver;
  /** Test-only: allow loopback addresses (the doubles run on 127.0.0.1). Never set from configuration. */
  allowLoopback: boolean;
  timeoutMs: number;
  userAgent: string;
  maxRedirects: number;
  robots: RobotsCache | null;
}

/** HEAD answers that mean "this server does not do HEAD properly": ask again with GET. */
const HEAD_REFUSED = new Set([400, 403, 404, 405, 406, 501]);
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const ROBOTS_MAX_BYTES = 512 * 1024;

async function request(
  url: URL,
  method: "HEAD" | "GET",
  d: ProbeDeps,
  readBody?: number,
  peek?: boolean,
): Promise<HopReply> {
  const to = await vetHost(url.hostname, d.resolver, d.allowLoopback);
  return hop(url, { method, to, timeoutMs: d.timeoutMs, userAgent: d.userAgent, readBody, peek });
}

function failed(e: unknown): { reason: Reason; detail: string } {
  if (e instanceof RefusedAddress) return { reason: "refused-address", detail: e.message };
  if (e instanceof HopError) return { reason: e.reason, detail: e.message };
  const code = (e as { code?: string })?.code ?? "";
  if (/ENOTFOUND|EAI_AGAIN|ENODATA|ESERVFAIL|EAI_NONAME/.test(code))
    return { reason: "dns", detail: `${code}: host name not resolved` };
  return { reason: "network", detail: e instanceof Error ? e.message : String(e) };
}

interface Follow {
  method: "HEAD" | "GET";
  readBody?: number;
  peek?: boolean;
  robots: RobotsCache | null;
}

async function follow(start: string, d: ProbeDeps, f: Follow): Promise<ProbeResult & { body: string | null }> {
  let url: URL;
  let method = f.method;
  let redirects = 0;
  let status: number | null = null;
  const out = (kind: ProbeResult["kind"], reason: Reason | null, detail: string, body: string | null = null) => ({
    kind,
    status,
    finalUrl: url?.href ?? start,
    method,
    redirects,
    reason,
    detail,
    body,
  });
  try {
    url = new URL(start);
  } catch {
    return {
      kind: "failed",
      status: null,
      finalUrl: start,
      method,
      redirects,
      reason: "bad-url",
      detail: "not a URL",
      body: null,
    };
  }
  for (;;) {
    if (url.protocol !== "http:" && url.protocol !== "https:")
      return out("failed", redirects ? "bad-redirect" : "bad-url", `scheme ${url.protocol} is not checked`);
    if (url.username || url.password) return out("failed", "bad-url", "URLs with credentials are not checked");
    try {
      if (f.robots) {
        const rules = await f.robots.rulesFor(url);
        if (rules.failure) return out("failed", rules.failure.reason as Reason, `robots.txt: ${rules.failure.detail}`);
        if (!rules.allowed(url.href)) {
          return out(
            "skipped",
            "robots",
            rules.kind === "unreachable"
              ? `${url.origin}/robots.txt could not be read: not checked for now`
              : `${url.origin}/robots.txt disallows ${url.pathname}`,
          );
        }
      }
      let r = await request(url, method, d, f.readBody, f.peek);
      if (method === "HEAD" && HEAD_REFUSED.has(r.status)) {
        method = "GET";
        r = await request(url, method, d, f.readBody, f.peek);
      }
      status = r.status;
      if (REDIRECTS.has(r.status) && r.location) {
        if (redirects >= d.maxRedirects)
          return out("failed", "too-many-redirects", `more than ${d.maxRedirects} redirects`);
        redirects++;
        try {
          url = new URL(r.location, url);
        } catch {
          return out("failed", "bad-redirect", `unreadable Location: ${r.location.slice(0, 200)}`);
        }
        continue;
      }
      if (r.status >= 200 && r.status < 300) return out("ok", null, `HTTP ${r.status}`, r.body);
      return out("failed", "http-status", `HTTP ${r.status}`, r.body);
    } catch (e) {
      const why = failed(e);
      return out("failed", why.reason, why.detail);
    }
  }
}

/** Check one link (HEAD, then GET where refused; redirects; robots.txt; SSRF guard on every hop). */
export async function probe(url: string, d: ProbeDeps): Promise<ProbeResult> {
  const { body: _body, ...result } = await follow(url, d, { method: "HEAD", robots: d.robots });
  if (result.kind !== "ok") return result;
  // a page that answers but says its site is retired is not a live page: read its start once (src/links/retired.ts)
  const page = await follow(result.finalUrl, d, {
    method: "GET",
    readBody: RETIRED_SCAN_BYTES,
    peek: true,
    robots: d.robots,
  });
  const notice = page.kind === "ok" && page.body ? await retiredNotice(page.body) : null;
  if (!notice) return result;
  return { ...result, kind: "failed", reason: "retired", detail: `the page says: ${notice}` };
}

/** GET a small text document (robots.txt) with the same guard and redirect rules, no robots.txt check. */
export function textFetcher(d: Omit<ProbeDeps, "robots">): FetchText {
  return async (url) => {
    const r = await follow(url, { ...d, robots: null }, { method: "GET", readBody: ROBOTS_MAX_BYTES, robots: null });
    if (r.reason === "too-many-redirects") return { status: 404, body: "" }; // RFC 9309 2.3.1.2: may count as unavailable
    if (r.status === null || (r.kind === "failed" && r.reason !== "http-status"))
      return { reason: r.reason ?? "network", detail: r.detail };
    return { status: r.status, body: r.body ?? "" };
  };
}
