// What serve needs of a running front (src/http/server.ts: Bun.serve; node-front.ts: node:http), and the last net
// both use for a failure that escaped app.handle (which turns every failure it sees into a problem document).
import type { Config } from "../config/config";
import { aboutBlank } from "./problems";
import { requestIdOf } from "./request-id";

/** Where it listens, the requests in flight, and stop (true = cut the connections too). */
export interface Front {
  readonly hostname: string | undefined;
  readonly port: number | undefined;
  readonly pendingRequests: number;
  stop(closeActiveConnections?: boolean): unknown;
}
export type FrontKind = Config["front"];

export function escapedError(err: unknown): { status: number; headers: Record<string, string>; body: string } {
  const requestId = requestIdOf(null);
  console.error(`internal-error request_id=${requestId} ${(err as Error)?.stack ?? err}`);
  const body = aboutBlank(
    500,
    "Internal error",
    "The request could not be finished; it has been logged under its request_id.",
    requestId,
  );
  return {
    status: 500,
    body: JSON.stringify(body),
    headers: {
      "Content-Type": "application/problem+json",
      "Cache-Control": "no-store",
      "X-Request-Id": requestId,
      "Access-Control-Allow-Origin": "*",
    },
  };
}
