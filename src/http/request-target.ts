// The request target as sent, never as rebuilt from Host: Bun builds req.url from the Host header when it can
// (`http://<host><target>`) and leaves the bare target when Host is missing or malformed. Routing reads the path
// from here, so a short, odd or missing Host neither shifts the path nor throws.
interface Target {
  path: string;
  search: string;
}

export function targetOf(rawUrl: string): Target {
  let start = 0;
  if (rawUrl.charCodeAt(0) !== 47 /* / */) {
    const scheme = rawUrl.indexOf("://");
    start = scheme < 0 ? rawUrl.length : rawUrl.indexOf("/", scheme + 3);
    if (start < 0) start = rawUrl.length;
  }
  const q = rawUrl.indexOf("?", start);
  const hash = rawUrl.indexOf("#", start);
  const end = hash < 0 ? rawUrl.length : hash;
  if (q < 0 || q > end) return { path: rawUrl.slice(start, end) || "/", search: "" };
  return { path: rawUrl.slice(start, q) || "/", search: rawUrl.slice(q, end) };
}

/** A path with a dot segment ("/v1/../topics", "/v1/%2e%2e/topics", "/./x"): no page or endpoint has one. The node
 *  front passes the target as sent; Bun.serve resolves dot segments itself (RFC 3986 5.2.4) before the app sees the
 *  target, so there "/v1/../topics" arrives as "/topics" (README). */
export function hasDotSegment(path: string): boolean {
  return /(^|\/)(\.|%2e){1,2}(\/|$)/i.test(path);
}
