// Bun.serve in front of the app: the socket address is taken here, everything else happens in app.handle.
// Requests Bun's own parser rejects (unknown method tokens, malformed request lines or heads) never reach
// fetch() or error(): see the README, "Requests the runtime rejects".
import type { App } from "./app";
import { requestIdOf } from "./request-id";

export function startServer(app: App, host: string, port: number) {
  return Bun.serve({
    hostname: host,
    port,
    // Bun's development mode (its default unless NODE_ENV=production) renders errors with stack traces: never here
    development: false,
    fetch(req, server) {
      const addr = server.requestIP(req)?.address ?? "0.0.0.0";
      return app.handle(req, addr);
    },
    // app.handle turns every failure into a problem document; this is the last net if something escapes it
    error(err) {
      const requestId = requestIdOf(null);
      console.error(`internal-error request_id=${requestId} ${err?.stack ?? err}`);
      const body = { type: "about:blank", title: "Internal error", status: 500, detail: "The request could not be finished; it has been logged under its request_id.", request_id: requestId };
      return new Response(JSON.stringify(body), { status: 500, headers: { "Content-Type": "application/problem+json", "Cache-Control": "no-store", "X-Request-Id": requestId, "Access-Control-Allow-Origin": "*" } });
    },
  });
}
