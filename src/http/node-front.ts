// The node front (config `front: node`): the same app behind Bun's node:http. Its parser reports what it rejects
// to the clientError hook, so every request gets an answer from the app's own problem table: an unknown method
// token (FOO, lowercase get) → 405 method-not-allowed with Allow; a malformed request line or header (a bad
// version, obs-fold, a control character in the target) → 400; a head over 16 KB → 431. Bun.serve (the default
// front) closes the first without a reply and answers the others itself with empty bodies (README).
import { createServer, STATUS_CODES, type IncomingMessage, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { App } from "./app";
import type { HeaderReader, Incoming } from "./incoming";
import type { Unparsed } from "./problems";
import { escapedError, type Front } from "./front";

/** Bun.serve's limit on the request line and headers together. */
const MAX_HEAD_BYTES = 16 * 1024;
/** The largest body read (only the MCP endpoint reads bodies: one JSON-RPC message). */
const MAX_BODY_BYTES = 1024 * 1024;

/** llhttp's error codes (as node:http reports them) → what the app answers. */
export function unparsedReason(code: string | undefined): Unparsed | null {
  if (code === "HPE_INVALID_METHOD") return "method";
  if (code === "HPE_HEADER_OVERFLOW") return "head-too-large";
  if (code?.startsWith("HPE_")) return "malformed";
  return null; // the connection itself failed (ECONNRESET …): nobody to answer
}

/** Header values as Headers.get gives them: by any case of the name, repeated fields joined with ", ". */
class RawHeaders implements HeaderReader {
  private map: Map<string, string> | null = null;
  constructor(private readonly raw: string[]) {}
  get(name: string): string | null {
    if (this.map === null) {
      this.map = new Map();
      for (let i = 0; i < this.raw.length; i += 2) {
        const k = this.raw[i]!.toLowerCase(),
          v = this.raw[i + 1]!;
        const had = this.map.get(k);
        this.map.set(k, had === undefined ? v : `${had}, ${v}`);
      }
    }
    return this.map.get(name.toLowerCase()) ?? null;
  }
}

function send(res: ServerResponse, r: Response): void | Promise<void> {
  const headers: Record<string, string> = {};
  r.headers.forEach((v, k) => {
    headers[k] = v;
  });
  if (r.body === null) {
    res.writeHead(r.status, headers);
    res.end();
    return;
  }
  return r.arrayBuffer().then((b) => {
    headers["content-length"] ??= String(b.byteLength);
    res.writeHead(r.status, headers);
    res.end(new Uint8Array(b));
  });
}

function sendEscaped(res: ServerResponse, err: unknown): void {
  const e = escapedError(err);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(e.status, e.headers);
  res.end(e.body);
}

/** A response written straight onto the socket (the parser has given up on the connection): then close. */
async function answerRaw(socket: Socket, r: Response): Promise<void> {
  const body = Buffer.from(await r.arrayBuffer());
  let head = `HTTP/1.1 ${r.status} ${STATUS_CODES[r.status] ?? ""}\r\n`;
  r.headers.forEach((v, k) => {
    head += `${k}: ${v}\r\n`;
  });
  head += `Date: ${new Date().toUTCString()}\r\nContent-Length: ${body.byteLength}\r\nConnection: close\r\n\r\n`;
  socket.end(Buffer.concat([Buffer.from(head, "latin1"), body]));
}

export function startNodeFront(app: App, host: string, port: number): Promise<Front> {
  let pending = 0;
  const server = createServer({ maxHeaderSize: MAX_HEAD_BYTES }, (req: IncomingMessage, res: ServerResponse) => {
    pending++;
    let done = false;
    const finished = () => {
      if (!done) {
        done = true;
        pending--;
      }
    };
    res.on("finish", finished);
    res.on("close", finished);
    const incoming: Incoming & { toRequest: () => Promise<Request> } = {
      url: req.url ?? "/",
      method: req.method ?? "GET",
      headers: new RawHeaders(req.rawHeaders),
      // read only by the MCP endpoint (POST with a JSON body), bounded like the parser's head
      toRequest: () =>
        new Promise<Request>((resolve, reject) => {
          const chunks: Buffer[] = [];
          let size = 0;
          req.on("data", (c: Buffer) => {
            size += c.length;
            if (size > MAX_BODY_BYTES) {
              req.destroy();
              reject(new Error("request body too large"));
            } else chunks.push(c);
          });
          req.on("end", () => {
            const headers = new Headers();
            for (let i = 0; i < req.rawHeaders.length; i += 2)
              headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
            const method = req.method ?? "GET";
            resolve(
              new Request(`http://localhost${req.url ?? "/"}`, {
                method,
                headers,
                body: method === "GET" || method === "HEAD" ? undefined : Buffer.concat(chunks),
              }),
            );
          });
          req.on("error", reject);
        }),
    };
    try {
      const out = app.handle(incoming, req.socket.remoteAddress ?? "0.0.0.0");
      const sent = out instanceof Promise ? out.then((r) => send(res, r)) : send(res, out);
      if (sent instanceof Promise) sent.catch((err) => sendEscaped(res, err));
    } catch (err) {
      sendEscaped(res, err);
    }
  });
  server.on("clientError", (err: Error & { code?: string }, socket: Socket) => {
    const reason = unparsedReason(err.code);
    if (reason === null || !socket.writable) {
      socket.destroy();
      return;
    }
    answerRaw(socket, app.unparsed(reason)).catch(() => socket.destroy());
  });
  const front: Front = {
    get hostname() {
      const a = server.address();
      return a && typeof a === "object" ? a.address : undefined;
    },
    get port() {
      const a = server.address();
      return a && typeof a === "object" ? a.port : undefined;
    },
    get pendingRequests() {
      return pending;
    },
    stop(closeActiveConnections = false) {
      server.close();
      if (closeActiveConnections) server.closeAllConnections();
      else server.closeIdleConnections();
    },
  };
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve(front);
    });
  });
}
