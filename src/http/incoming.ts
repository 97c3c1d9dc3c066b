// What the app reads of a request: the target as sent, the method and header values. A Bun.serve Request is one;
// the node front (src/http/node-front.ts) hands over the same view of a node:http request.
export interface HeaderReader {
  get(name: string): string | null;
}
export interface Incoming {
  readonly url: string;
  readonly method: string;
  readonly headers: HeaderReader;
}
