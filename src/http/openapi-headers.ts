// Response headers of the OpenAPI document (spec part 4, 7 and 8): the 200 headers with their patterns, the
// headers of 304 and of problem responses. One table, read by openapi.ts.

const REQUEST_ID = "^[A-Za-z0-9._-]{8,64}$";
const RATELIMIT = '^"minute";r=\\d+;t=\\d+, "day";r=\\d+;t=\\d+$';
const POLICY = '^"minute";q=\\d+;w=60, "day";q=\\d+;w=86400$';

const h = (description: string, schema: Record<string, unknown>, required = true) => ({
  description,
  required,
  schema: { type: "string", ...schema },
});

const HEADERS = {
  ETag: h("Weak validator over the content (not request_id).", { pattern: '^W/"[0-9a-f]{32}"$' }),
  "Cache-Control": h(
    "public with the endpoint's max-age (a day for topics and guides, an hour for screening, 15 minutes otherwise).",
    { pattern: "^public, max-age=\\d+$" },
  ),
  "X-Request-Id": h("Echo of the request's X-Request-Id, or a generated one (also request_id in the body).", {
    pattern: REQUEST_ID,
  }),
  "RateLimit-Policy": h(
    "The caller's limit policy (draft-ietf-httpapi-ratelimit-headers-11); absent only for configured service callers.",
    { pattern: POLICY },
  ),
  RateLimit: h("Remaining requests and seconds until the quota is whole again, per window.", { pattern: RATELIMIT }),
  Link: h('rel="service-desc" to this document; rel="next" with the full URL of the next page where there is one.', {
    pattern: '^<[^>]+>; rel="service-desc"(, <[^>]+>; rel="next")?$',
  }),
  "Access-Control-Allow-Origin": h("Always *, without credentials.", { const: "*" }),
  NoStore: h("Errors are never cached.", { const: "no-store" }),
  "Retry-After": {
    description: "Seconds to wait, at least 1.",
    required: true,
    schema: { type: "integer", minimum: 1 },
  },
  Allow: h("The methods answered.", { const: "GET, HEAD, OPTIONS" }),
} as const;

const OK_HEADERS = [
  "ETag",
  "Cache-Control",
  "X-Request-Id",
  "RateLimit-Policy",
  "RateLimit",
  "Link",
  "Access-Control-Allow-Origin",
] as const;

/** Headers of a response with this status (200, 304 or a problem status). */
export function headersFor(status: number): Record<string, unknown> {
  if (status === 200) return Object.fromEntries(OK_HEADERS.map((k) => [k, HEADERS[k]]));
  if (status === 304)
    return {
      ETag: HEADERS.ETag,
      "X-Request-Id": HEADERS["X-Request-Id"],
      "Cache-Control": HEADERS["Cache-Control"],
      "Access-Control-Allow-Origin": HEADERS["Access-Control-Allow-Origin"],
    };
  const out: Record<string, unknown> = {
    "X-Request-Id": HEADERS["X-Request-Id"],
    "Cache-Control": HEADERS.NoStore,
    "Access-Control-Allow-Origin": HEADERS["Access-Control-Allow-Origin"],
  };
  if (status === 429)
    Object.assign(out, {
      "Retry-After": HEADERS["Retry-After"],
      RateLimit: HEADERS.RateLimit,
      "RateLimit-Policy": HEADERS["RateLimit-Policy"],
    });
  if (status === 503) out["Retry-After"] = { ...HEADERS["Retry-After"], required: false };
  if (status === 405) out.Allow = HEADERS.Allow;
  return out;
}
