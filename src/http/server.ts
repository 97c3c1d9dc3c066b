// Bun.serve in front of the app: the socket address is taken here, everything else happens in app.handle.
import type { App } from "./app";

export function startServer(app: App, host: string, port: number) {
  return Bun.serve({
    hostname: host,
    port,
    fetch(req, server) {
      const addr = server.requestIP(req)?.address ?? "0.0.0.0";
      return app.handle(req, addr);
    },
    error(err) {
      return new Response(JSON.stringify({ type: "about:blank", title: "Internal error", status: 500, detail: String(err?.message ?? err), request_id: "" }), { status: 500, headers: { "Content-Type": "application/problem+json", "Cache-Control": "no-store" } });
    },
  });
}
