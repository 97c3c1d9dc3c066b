// The MCP server over stdio, or over Streamable HTTP on its own port (stateless: a server and transport per
// request, JSON replies). Nothing is written to stdout in stdio mode except the protocol.
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { createMcpServer, type McpContext } from "./server";

export async function serveStdio(ctx: McpContext): Promise<void> {
  await createMcpServer(ctx).connect(new StdioServerTransport());
}

export function serveHttp(ctx: McpContext, host: string, port: number, path = "/mcp") {
  return Bun.serve({
    hostname: host,
    port,
    development: false, // no stack traces in error pages (Bun's default unless NODE_ENV=production)
    async fetch(req) {
      const url = new URL(req.url);
      if (url.pathname !== path) return Response.json({ error: `The MCP endpoint is ${path}` }, { status: 404 });
      const server = createMcpServer(ctx);
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      await server.connect(transport);
      const res = await transport.handleRequest(req);
      res.headers.set("Cache-Control", "no-store");
      return res;
    },
  });
}
