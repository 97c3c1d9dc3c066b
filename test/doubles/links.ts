// Loopback double of the web sites the link checker visits (127.0.0.1 only). One Bun.serve answers by path and
// by Host header (tests give every site a *.test name that `testResolver` maps to 127.0.0.1), plus a raw TCP
// server that resets every connection. It records each request (method, host, path, user agent).
import { createServer, type Server, type Socket } from "node:net";
import type { Resolved, Resolver } from "../../src/links/ssrf";

export interface Seen {
  method: string;
  host: string;
  path: string;
  userAgent: string;
}

export interface LinkDouble {
  port: number;
  resetPort: number;
  seen: Seen[];
  /** Status of /flaky (tests flip it between 200 and 500). */
  flaky: { status: number };
  /** Highest number of requests in flight at once, per host (politeness). */
  maxInFlight: Map<string, number>;
  url(host: string, path: string): string;
  stop(): void;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function startLinkDouble(opts: { slowMs?: number; latencyMs?: number } = {}): LinkDouble {
  const seen: Seen[] = [];
  const flaky = { status: 200 };
  const inFlight = new Map<string, number>();
  const maxInFlight = new Map<string, number>();
  let port = 0;
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const u = new URL(req.url);
      const host = (req.headers.get("host") ?? "").replace(/:\d+$/, "");
      seen.push({ method: req.method, host, path: u.pathname, userAgent: req.headers.get("user-agent") ?? "" });
      const n = (inFlight.get(host) ?? 0) + 1;
      inFlight.set(host, n);
      maxInFlight.set(host, Math.max(maxInFlight.get(host) ?? 0, n));
      try {
        if (opts.latencyMs) await sleep(opts.latencyMs);
        return await answer(req.method, host, u.pathname);
      } finally {
        inFlight.set(host, (inFlight.get(host) ?? 1) - 1);
      }
    },
  });
  port = server.port!;
  const to = (loc: string) => new Response(null, { status: 302, headers: { location: loc } });

  async function answer(method: string, host: string, path: string): Promise<Response> {
    if (path === "/robots.txt") {
      if (host.startsWith("blocked."))
        return new Response("User-agent: *\nDisallow: /private\n\nUser-agent: otherbot\nDisallow: /\n", {
          headers: { "content-type": "text/plain" },
        });
      if (host.startsWith("onlyus."))
        return new Response("User-agent: property-land-gis-directory-linkcheck\nDisallow: /\n", {
          headers: { "content-type": "text/plain" },
        });
      if (host.startsWith("robots500.")) return new Response("oops", { status: 500 });
      return new Response("not here", { status: 404 });
    }
    if (path === "/ok" || path.startsWith("/private") || path.startsWith("/public"))
      return new Response(method === "HEAD" ? null : "ok");
    const html = (body: string) =>
      new Response(
        method === "HEAD"
          ? null
          : `<html><head><title>County</title><script>var s="this site has moved";</script></head><body>${body}</body></html>`,
        {
          headers: { "content-type": "text/html; charset=utf-8" },
        },
      );
    if (path === "/retired")
      return html(
        "<div class=notice><p>This website is no longer in use. Please visit our new site at the county's .gov address.</p></div>",
      );
    if (path === "/news-moved")
      return html("<p>The assessor's office moved to the annex in 2019. Hours are 8 to 5.</p>");
    if (path === "/long-page") return html(`<p>${"Property records. ".repeat(8000)}</p>`);
    if (path === "/head-refused") return method === "HEAD" ? new Response(null, { status: 405 }) : new Response("ok");
    if (path === "/head-501") return method === "HEAD" ? new Response(null, { status: 501 }) : new Response("ok");
    const chain = path.match(/^\/redirect\/(\d+)$/);
    if (chain) {
      const k = Number(chain[1]);
      return to(k <= 1 ? "/ok" : `/redirect/${k - 1}`);
    }
    if (path === "/redirect-absolute") return to(`http://other.test:${port}/ok`);
    const code = path.match(/^\/status\/(\d{3})$/);
    if (code) return new Response(method === "HEAD" ? null : "status", { status: Number(code[1]) });
    if (path === "/slow") {
      await sleep(opts.slowMs ?? 5_000);
      return new Response("late");
    }
    if (path === "/flaky") return new Response(null, { status: flaky.status });
    if (path === "/to-metadata") return to(`http://metadata.test:${port}/latest/meta-data/`);
    if (path === "/to-metadata-ip") return to("http://169.254.169.254/latest/meta-data/");
    if (path === "/to-metadata-name") return to("http://metadata.google.internal/computeMetadata/v1/");
    if (path === "/to-private") return to(`http://private.test:${port}/ok`);
    if (path === "/to-mapped") return to(`http://[::ffff:10.0.0.7]:${port}/ok`);
    if (path === "/to-file") return to("file:///etc/passwd");
    return new Response("no such page", { status: 404 });
  }

  const sockets = new Set<Socket>();
  const reset: Server = createServer((s) => {
    sockets.add(s);
    s.once("data", () => s.destroy());
    s.on("error", () => {});
  });
  reset.listen(0, "127.0.0.1");
  const resetPort = () => (reset.address() as { port: number }).port;

  return {
    port,
    get resetPort() {
      return resetPort();
    },
    seen,
    flaky,
    maxInFlight,
    url: (host, path) => `http://${host}:${port}${path}`,
    stop() {
      server.stop(true);
      for (const s of sockets) s.destroy();
      reset.close();
    },
  };
}

/** Resolver for names the tests control: *.test → 127.0.0.1, except the special names given (e.g.
 * metadata.test → 169.254.169.254). Counts lookups per name. Never touches real DNS. */
export function testResolver(
  special: Record<string, string | ((n: number) => string)> = {},
): Resolver & { calls: Map<string, number> } {
  const calls = new Map<string, number>();
  const fn = (async (name: string): Promise<Resolved[]> => {
    const n = (calls.get(name) ?? 0) + 1;
    calls.set(name, n);
    const s = special[name];
    const address = typeof s === "function" ? s(n) : (s ?? (name.endsWith(".test") ? "127.0.0.1" : null));
    if (!address) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${name}`), { code: "ENOTFOUND" });
    return [{ address, family: address.includes(":") ? 6 : 4 }];
  }) as Resolver & { calls: Map<string, number> };
  fn.calls = calls;
  return fn;
}
