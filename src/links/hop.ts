// One HTTP request of the link checker to an address vetted by ssrf.ts: node:http(s) with `lookup` pinned to
// that address (Bun's built-in `undici` has no working Agent `connect.lookup`; node:http's `lookup` is honoured),
// no redirect following (probe.ts follows them itself, vetting each hop), a whole-request timeout, and the body
// read only when asked (robots.txt), up to a size cap. Failures are a HopError with a closed set of reasons.
import http from "node:http";
import https from "node:https";
import { pinnedLookup, type Resolved } from "./ssrf";

type HopFailure = "timeout" | "reset" | "refused" | "tls" | "network" | "too-large";
export class HopError extends Error {
  override readonly name = "HopError";
  constructor(
    readonly reason: HopFailure,
    message: string,
  ) {
    super(message);
  }
}

interface HopOptions {
  method: "HEAD" | "GET";
  to: Resolved;
  timeoutMs: number;
  userAgent: string;
  /** Read the body up to this many bytes (else the body is not read: the socket is closed after the headers). */
  readBody?: number;
  /** With readBody: keep the first readBody bytes of a longer body instead of failing "too-large". */
  peek?: boolean;
}
export interface HopReply {
  status: number;
  location: string | null;
  body: string | null;
}

function failure(err: unknown, timedOut: boolean): HopError {
  if (err instanceof HopError) return err;
  const e = err as { code?: string; message?: string };
  const code = e?.code ?? "";
  const text = `${code ? `${code}: ` : ""}${e?.message ?? String(err)}`;
  if (timedOut || code === "ETIMEDOUT" || code === "ESOCKETTIMEDOUT") return new HopError("timeout", text);
  if (code === "ECONNRESET" || code === "EPIPE" || /socket hang up|closed|reset/i.test(e?.message ?? ""))
    return new HopError("reset", text);
  if (code === "ECONNREFUSED") return new HopError("refused", text);
  if (/CERT|SSL|TLS|self.signed|altnames/i.test(text)) return new HopError("tls", text);
  return new HopError("network", text);
}

export function hop(url: URL, o: HopOptions): Promise<HopReply> {
  const secure = url.protocol === "https:";
  const hostname = url.hostname.replace(/^\[|\]$/g, "");
  return new Promise<HopReply>((resolve, reject) => {
    let settled = false;
    let timedOut = false;
    const done = (f: () => void) => {
      if (!settled) {
        settled = true;
        clearTimeout(timer);
        f();
      }
    };
    const req = (secure ? https : http).request(
      {
        protocol: url.protocol,
        hostname,
        port: url.port || (secure ? 443 : 80),
        path: `${url.pathname}${url.search}`,
        method: o.method,
        agent: false,
        lookup: pinnedLookup(o.to) as any,
        servername: secure ? hostname : undefined,
        headers: {
          "user-agent": o.userAgent,
          accept: o.readBody && !o.peek ? "text/plain, */*;q=0.5" : "text/html, */*;q=0.8",
          connection: "close",
        },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        const location = typeof res.headers.location === "string" ? res.headers.location : null;
        if (!o.readBody || o.method === "HEAD") {
          done(() => resolve({ status, location, body: null }));
          res.destroy();
          req.destroy();
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (c: Buffer) => {
          size += c.length;
          if (size > o.readBody! && o.peek) {
            // a page read for its first bytes only: keep what fits and stop
            chunks.push(c.subarray(0, Math.max(0, c.length - (size - o.readBody!))));
            const body = Buffer.concat(chunks).toString("utf8");
            done(() => resolve({ status, location, body }));
            res.destroy();
            req.destroy();
            return;
          }
          if (size > o.readBody!) {
            done(() => reject(new HopError("too-large", `body over ${o.readBody} bytes`)));
            res.destroy();
            req.destroy();
            return;
          }
          chunks.push(c);
        });
        res.on("end", () => done(() => resolve({ status, location, body: Buffer.concat(chunks).toString("utf8") })));
        res.on("error", (e) => done(() => reject(failure(e, timedOut))));
      },
    );
    const timer = setTimeout(
      () => {
        timedOut = true;
        req.destroy(new HopError("timeout", `no answer within ${o.timeoutMs} ms`));
        done(() => reject(new HopError("timeout", `no answer within ${o.timeoutMs} ms`)));
      },
      Math.max(1, o.timeoutMs),
    );
    req.on("error", (e) => done(() => reject(failure(e, timedOut))));
    req.end();
  });
}
