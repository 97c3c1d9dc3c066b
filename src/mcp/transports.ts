// The MCP server over stdio, or over Streamable HTTP (stateless: a server and transport per request, JSON
// replies): mounted by `serve` on the API's own port (mcp.in_serve, drawing from the same limiter as the API), or
// on its own port by `directory mcp --http`. Nothing is written to stdout in stdio mode except the protocol.
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { createMcpServer, type McpContext } from "./server";
import { isWildcard, localAddress } from "../config/config";

export async function serveStdio(ctx: McpContext): Promise<void> {
  await createMcpServer(ctx).connect(new StdioServerTransport());
}

/** The host names a Streamable HTTP request may name in Host and Origin (DNS-rebinding protection, as the MCP
 *  transport asks): loopback names, the host the server is bound to (unless a wildcard) and base_url's host. */
export function allowedHostnames(boundHost: string, baseUrl: string): string[] {
  const out = new Set(["localhost", "127.0.0.1", "[::1]"]);
  if (boundHost && !isWildcard(boundHost)) out.add(localAddress(boundHost).toLowerCase());
  try {
    out.add(new URL(baseUrl).hostname.toLowerCase());
  } catch {}
  return [...out];
}

const hostnameOf = (hostHeader: string) => {
  try {
    return new URL(`http://${hostHeader}`).hostname.toLowerCase();
  } catch {
    return null;
  }
};

/** 403 unless Host names an allowed host and Origin, when sent, is on one (port-agnostic). */
function rebindingRefusal(req: Request, allowed: string[]): Response | null {
  const host = hostnameOf(req.headers.get("host") ?? new URL(req.url).host);
  const origin = req.headers.get("origin");
  let why: string | null = null;
  if (!host || !allowed.includes(host)) why = `Host ${req.headers.get("host") ?? ""} is not this server`;
  else if (origin !== null) {
    let oh: string | null = null;
    try {
      oh = new URL(origin).hostname.toLowerCase();
    } catch {}
    if (!oh || !allowed.includes(oh)) why = `Origin ${origin.slice(0, 100)} is not allowed`;
  }
  if (!why) return null;
  return Response.json(
    { jsonrpc: "2.0", error: { code: -32000, message: `Forbidden: ${why}` }, id: null },
    { status: 403, headers: { "Cache-Control": "no-store" } },
  );
}

/** One Streamable HTTP request to the MCP server (a web Request in, a Response out). */
export function mcpHttpHandler(ctx: McpContext, allowed?: string[]): (req: Request) => Promise<Response> {
  return async (req) => {
    const refused = allowed ? rebindingRefusal(req, allowed) : null;
    if (refused) return refused;
    const server = createMcpServer(ctx);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await server.connect(transport);
    const res = await transport.handleRequest(req);
    res.headers.set("Cache-Control", "no-store");
    return res;
  };
}

export function serveHttp(ctx: McpContext, host: string, port: number, path = "/mcp", baseUrl = "") {
  const handle = mcpHttpHandler(ctx, allowedHostnames(host, baseUrl));
  return Bun.serve({
    hostname: host,
    port,
    development: false, // no stack traces in error pages (Bun's default unless NODE_ENV=production)
    async fetch(req) {
      const url = new URL(req.url);
      if (url.pathname !== path) return Response.json({ error: `The MCP endpoint is ${path}` }, { status: 404 });
      return handle(req);
    },
  });
}
