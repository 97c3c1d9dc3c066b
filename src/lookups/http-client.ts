// Tiny JSON-over-HTTP client for outside services (Census geocoder now, screening services later).
// Every failure surfaces as an UpstreamError with a closed set of reasons, so callers map one type.
import { fetch } from "undici";

type UpstreamReason =
  "timeout" | "http-status" | "bad-json" | "network" | "too-large" | "bad-reply" | "service-error" | "truncated";

export class UpstreamError extends Error {
  override readonly name = "UpstreamError";
  constructor(
    readonly reason: UpstreamReason,
    message: string,
    /** HTTP status, set for reason 'http-status'. */
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

interface GetJsonOptions {
  /** Whole-call budget: connect + headers + body. */
  timeoutMs: number;
  /** Maximum response body size in bytes (default 1 MiB). */
  maxBytes?: number | undefined;
  headers?: Record<string, string> | undefined;
  /** Optional caller cancellation; reported as 'network' (not 'timeout'). */
  signal?: AbortSignal | undefined;
  /** A request body: the call becomes a POST (e.g. NRCS Soil Data Access post.rest). */
  body?: string | undefined;
}

const DEFAULT_MAX_BYTES = 1024 * 1024;
const USER_AGENT = "property-land-gis-directory/0.1 (+lookups)";

/** GET `url`, require a 2xx status, read at most `maxBytes`, parse JSON. Returns the parsed value (unvalidated). */
export async function getJson(url: string | URL, opts: GetJsonOptions): Promise<unknown> {
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  const controller = new AbortController();
  let timedOut = false;
  let rejectOnAbort: (e: unknown) => void = () => {};
  const aborted = new Promise<never>((_, reject) => {
    rejectOnAbort = reject;
  });
  aborted.catch(() => {}); // never an unhandled rejection
  const abort = (why: "timeout" | "caller") => {
    if (controller.signal.aborted) return;
    if (why === "timeout") timedOut = true;
    controller.abort();
    rejectOnAbort(
      why === "timeout"
        ? new UpstreamError("timeout", `no complete answer within ${opts.timeoutMs} ms`)
        : new UpstreamError("network", "request cancelled"),
    );
  };
  const timer = setTimeout(() => abort("timeout"), Math.max(1, opts.timeoutMs));
  const onCallerAbort = () => abort("caller");
  if (opts.signal) {
    if (opts.signal.aborted) onCallerAbort();
    else opts.signal.addEventListener("abort", onCallerAbort, { once: true });
  }

  try {
    const work = (async () => {
      let res: Awaited<ReturnType<typeof fetch>>;
      try {
        res = await fetch(url, {
          method: opts.body === undefined ? "GET" : "POST",
          body: opts.body,
          headers: {
            accept: "application/json",
            "user-agent": USER_AGENT,
            ...(opts.body === undefined ? {} : { "content-type": "application/json" }),
            ...opts.headers,
          },
          redirect: "manual",
          signal: controller.signal,
        });
      } catch (err) {
        if (timedOut)
          throw new UpstreamError("timeout", `no answer within ${opts.timeoutMs} ms`, undefined, { cause: err });
        throw new UpstreamError("network", "could not reach the service", undefined, { cause: err });
      }
      if (res.status < 200 || res.status > 299) {
        await res.body?.cancel().catch(() => {});
        throw new UpstreamError("http-status", `service answered HTTP ${res.status}`, res.status);
      }
      const declared = Number(res.headers.get("content-length"));
      if (Number.isFinite(declared) && declared > maxBytes) {
        await res.body?.cancel().catch(() => {});
        throw new UpstreamError("too-large", `reply of ${declared} bytes exceeds ${maxBytes}`);
      }
      const bytes = await readCapped(res.body, maxBytes, () => timedOut, opts.timeoutMs);
      const text = new TextDecoder("utf-8").decode(bytes);
      try {
        return JSON.parse(text) as unknown;
      } catch (err) {
        throw new UpstreamError("bad-json", "reply is not valid JSON", undefined, { cause: err });
      }
    })();
    return await Promise.race([work, aborted]);
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener("abort", onCallerAbort);
  }
}

/** Structural view of a web ReadableStream (undici's and the DOM typings differ). */
interface ByteStream {
  getReader(): { read(): Promise<{ done: boolean; value?: unknown }>; cancel(): Promise<void>; releaseLock(): void };
}

async function readCapped(
  body: ByteStream | null,
  maxBytes: number,
  timedOut: () => boolean,
  timeoutMs: number,
): Promise<Uint8Array> {
  if (!body) return new Uint8Array(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      let step: { done: boolean; value?: unknown };
      try {
        step = await reader.read();
      } catch (err) {
        if (timedOut())
          throw new UpstreamError("timeout", `reply not complete within ${timeoutMs} ms`, undefined, { cause: err });
        throw new UpstreamError("network", "connection failed while reading the reply", undefined, { cause: err });
      }
      if (step.done) break;
      const chunk = step.value;
      if (!(chunk instanceof Uint8Array)) throw new UpstreamError("network", "unexpected body chunk type");
      total += chunk.byteLength;
      if (total > maxBytes) {
        await reader.cancel().catch(() => {});
        throw new UpstreamError("too-large", `reply exceeds ${maxBytes} bytes`);
      }
      chunks.push(chunk);
    }
  } finally {
    try {
      reader.releaseLock();
    } catch {
      /* already released or cancelled */
    }
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}
