// RFC 9457 problem documents: the ONE table of the 18 problem types of spec part 7.
import type { Choice, ProblemSuffix } from "../domain/errors";

export const PROBLEMS: Record<ProblemSuffix, { status: number; title: string }> = {
  "bad-parameter": { status: 400, title: "Bad parameter" },
  "bad-point": { status: 400, title: "Bad point" },
  "bad-cursor": { status: 400, title: "Bad cursor" },
  "unknown-topic": { status: 404, title: "Unknown topic" },
  "unknown-state": { status: 400, title: "Unknown state" },
  "invalid-key": { status: 401, title: "Invalid key" },
  "unknown-jurisdiction": { status: 404, title: "Unknown jurisdiction" },
  "outside-coverage": { status: 404, title: "Outside coverage" },
  "address-not-found": { status: 404, title: "Address not found" },
  "place-not-found": { status: 404, title: "Place not found" },
  "not-found": { status: 404, title: "Not found" },
  "method-not-allowed": { status: 405, title: "Method not allowed" },
  ambiguous: { status: 409, title: "Ambiguous" },
  "rate-limited": { status: 429, title: "Rate limited" },
  "lookup-limit": { status: 429, title: "Lookup limit reached" },
  "internal-error": { status: 500, title: "Internal error" },
  busy: { status: 503, title: "Busy" },
  "upstream-unavailable": { status: 503, title: "Upstream unavailable" },
};

interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  request_id: string;
  choices?: Choice[];
}

/** Build the body; `status` overrides the table only where the spec allows two (unknown-topic 400 or 404). */
export function problemBody(
  problemsUrl: string,
  suffix: ProblemSuffix,
  detail: string,
  requestId: string,
  choices?: Choice[],
  status?: number,
): ProblemBody {
  const p = PROBLEMS[suffix];
  const body: ProblemBody = {
    type: `${problemsUrl}/${suffix}`,
    title: p.title,
    status: status ?? p.status,
    detail,
    request_id: requestId,
  };
  if (suffix === "ambiguous" && choices) body.choices = choices;
  return body;
}

/** A problem outside the API's own types: RFC 9457's `about:blank`, titled with the status phrase where it has one. */
export function aboutBlank(status: number, title: string, detail: string, requestId: string): ProblemBody {
  return { type: "about:blank", title, status, detail, request_id: requestId };
}

/** Requests the front could not parse (the node front's clientError hook): outside the API's own problem types, so
 * RFC 9457's `about:blank` with the status phrase as title — except an unknown method, which is `method-not-allowed`. */
export type Unparsed = "method" | "malformed" | "head-too-large";
export const UNPARSED: Record<Exclude<Unparsed, "method">, { status: number; title: string; detail: string }> = {
  malformed: {
    status: 400,
    title: "Bad Request",
    detail: "The request line or a header is malformed (HTTP/1.1, RFC 9112).",
  },
  "head-too-large": {
    status: 431,
    title: "Request Header Fields Too Large",
    detail: "The request line and headers together may not exceed 16 KB.",
  },
};
