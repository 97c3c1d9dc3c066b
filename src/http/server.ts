// The front: the socket in front of the app. Two to choose from (config `front`):
// - "bun" (the default): Bun.serve. Fastest here. Requests Bun's own parser rejects (unknown method tokens, a
//   malformed request line or head) never reach fetch() or error(): see the README, "Requests the runtime rejects".
// - "node": the same app behind node:http (src/http/node-front.ts), whose clientError hook answers those requests
//   with problem documents too, at a cost per request measured in the README.
// Either way the socket address is taken here and everything else happens in app.handle.
import type { App } from "./app";
import { escapedError, type Front, type FrontKind } from "./front";

export type { Front, FrontKind } from "./front";

/** `shared`: one of the workers of `serve --workers N` (src/cli/workers.ts), which share the port (SO_REUSEPORT);
 *  the primary has made sure no other server holds it. */
export function startServer(app: App, host: string, port: number, shared = false) {
  return Bun.serve({
    hostname: host,
    port,
    // a port another process already serves is an error (SO_REUSEPORT only among one serve's own workers: two
    // unrelated servers would share the traffic)
    reusePort: shared,
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

/** Start the configured front. node:http is loaded only for the node front (it listens asynchronously). */
export async function startFront(
  kind: FrontKind,
  app: App,
  host: string,
  port: number,
  shared = false,
): Promise<Front> {
  if (kind === "node") return (await import("./node-front")).startNodeFront(app, host, port);
  return startServer(app, host, port, shared);
}
