// Domain failures carry a problem-type suffix of spec part 7; src/http/problems.ts maps each suffix to its
// status and title (the ONE table). Domain code throws these and never knows about HTTP.
export type ProblemSuffix =
  | "bad-parameter"
  | "bad-point"
  | "bad-cursor"
  | "unknown-topic"
  | "unknown-state"
  | "invalid-key"
  | "unknown-jurisdiction"
  | "outside-coverage"
  | "address-not-found"
  | "place-not-found"
  | "not-found"
  | "method-not-allowed"
  | "ambiguous"
  | "rate-limited"
  | "lookup-limit"
  | "internal-error"
  | "busy"
  | "upstream-unavailable";

export interface Choice {
  label: string;
  lat?: number;
  lon?: number;
  jurisdiction_id?: string;
  page_url?: string;
}

/** The words of every detail about a service this server does not offer at all (switched off by its operator):
 *  pages head such answers "Not available on this server", never "temporarily unavailable" or "try again". */
export const NOT_OFFERED_HERE = "is not available on this server";

export class DomainError extends Error {
  constructor(
    readonly suffix: ProblemSuffix,
    readonly detail: string,
    readonly extra: {
      choices?: Choice[];
      retryAfter?: number;
      /** response headers (e.g. the RateLimit of the bucket that refused) */ headers?: Record<string, string>;
      /** the status where the type's own (problems.ts) does not apply: unknown-topic as a query parameter, 400 */
      status?: number;
    } = {},
  ) {
    super(`${suffix}: ${detail}`);
  }
}
