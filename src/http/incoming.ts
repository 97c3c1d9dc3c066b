// What the app reads of a request: the target as sent, the method and header values. A Bun.serve Request is one;
// the node front (src/http/node-front.ts) hands over the same view of a node:http request.
/** The methods the API and the pages answer (Allow, Access-Control-Allow-Methods). */
export const ALLOWED_METHODS = "GET, HEAD, OPTIONS";
export interface HeaderReader {
  get(name: string): string | null;
}
export interface Incoming {
  readonly url: string;
  readonly method: string;
  readonly headers: HeaderReader;
}
/** The whole request with its body, for the one handler that reads bodies (the MCP endpoint, POST): a Bun.serve
 *  Request is one already; the node front reads the body on demand. */
export async function fullRequest(req: Incoming): Promise<Request> {
  if (req instanceof Request) return req;
  const r = req as Incoming & { toRequest?: () => Promise<Request> };
  if (!r.toRequest) throw new Error("this front cannot pass a request body");
  return r.toRequest();
}
