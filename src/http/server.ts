// The front: the socket in front of the app. Two to choose from (config `front`):
// - "bun" (the default): Bun.serve. Fastest here. Requests Bun's own parser rejects (unknown method tokens, a
//   malformed request line or head) never reach fetch() or error(): see the README, "Requests the runtime rejects".
// - "node": the same app behind node:http (src/http/node-front.ts), whose clientError hook answers those requests
//   with problem documents too, at a cost per request measured in the README.
// Either way the socket address is taken here and everything else happens in app.handle.
import type { App } from "./app";
import { requestIdOf } from "./request-id";

/** What serve needs of a running front: where it listens, the requests in flight, and stop (true = cut). */
export interface Front { readonly hostname: string | undefined; readonly port: number | undefined; readonly pendingRequests: number; stop(closeActiveConnections?: boolean): unknown }
export type FrontKind = "bun" | "node";

/** The last net, for a failure that escaped app.handle (which turns every failure it sees into a problem). */
export function escapedError(err: unknown): { status: number; headers: Record<string, string>; body: string } {
  const requestId = requestIdOf(null);
  console.error(`internal-error request_id=${requestId} ${(err as Error)?.stack ?? err}`);
  const body = { type: "about:blank", title: "Internal error", status: 500, detail: "The request could not be finished; it has been logged under its request_id.", request_id: requestId };
  return { status: 500, body: JSON.stringify(body), headers: { "Content-Type": "application/problem+json", "Cache-Control": "no-store", "X-Request-Id": requestId, "Access-Control-Allow-Origin": "*" } };
}

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
    error(err) {
      const e = escapedError(err);
      return new Response(e.body, { status: e.status, headers: e.headers });
    },
  });
}

/** Start the configured front; the node front listens asynchronously. */
export async function startFront(kind: FrontKind, app: App, host: string, port: number): Promise<Front> {
  if (kind === "node") return (await import("./node-front")).startNodeFront(app, host, port);
  return startServer(app, host, port);
}
