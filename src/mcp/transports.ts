// The MCP server over stdio, or over Streamable HTTP (stateless: a server and transport per request, JSON
// replies): mounted by `serve` on the API's own port (mcp.in_serve, drawing from the same limiter as the API), or
// on its own port by `directory mcp --http`. Nothing is written to stdout in stdio mode except the protocol.
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { createMcpServer, type McpContext } from "./server";

export async function serveStdio(ctx: McpContext): Promise<void> {
  await createMcpServer(ctx).connect(new StdioServerTransport());
}

/** One Streamable HTTP request to the MCP server (a web Request in, a Response out). */
export function mcpHttpHandler(ctx: McpContext): (req: Request) => Promise<Response> {
  return async (req) => {
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

export function serveHttp(ctx: McpContext, host: string, port: number, path = "/mcp") {
  const handle = mcpHttpHandler(ctx);
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
