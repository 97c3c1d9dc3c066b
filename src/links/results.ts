// Link-check results by URL in the writable state file (table link_results, created by src/state/state-file.ts),
// and THE transition rule of verified_status:
//   - a success (2xx after at most the allowed redirects) → verified, verified_at = the check's UTC date,
//     consecutive failures back to 0;
//   - a failure → consecutive_failures + 1 (first_failure_at kept from the first of the run of failures); the link
//     becomes possibly_broken only when consecutive_failures ≥ N AND now − first_failure_at ≥ M days
//     (links.broken_after_failures, links.broken_after_days); until then it keeps its status (and verified_at);
//   - skipped (robots.txt forbids it, or cannot be read) → nothing changes but checked_at and the reason.
// Keyed by URL, so a data update keeps the results of every URL that did not change.
import type { Database } from "bun:sqlite";
import type { ProbeResult } from "./probe";

export type VerifiedStatus = "verified" | "not_yet_verified" | "possibly_broken";
export interface LinkRow {
  url: string;
  final_url: string | null;
  http_status: number | null;
  verification_method: "automated" | null;
  request_method: string | null;
  outcome: "ok" | "failed" | "skipped";
  reason: string | null;
  detail: string | null;
  checked_at: string;
  verified_status: VerifiedStatus;
  verified_at: string | null;
  consecutive_failures: number;
  first_failure_at: string | null;
}
export interface TransitionRule {
  failures: number;
  days: number;
}

const DAY_MS = 86_400_000;

/** The next state of a link after one check at `now` (pure; the one place the transition rule lives). */
export function nextState(prev: LinkRow | null, url: string, r: ProbeResult, now: Date, rule: TransitionRule): LinkRow {
  const at = now.toISOString();
  const base: LinkRow = prev ?? {
    url,
    final_url: null,
    http_status: null,
    verification_method: null,
    request_method: null,
    outcome: "skipped",
    reason: null,
    detail: null,
    checked_at: at,
    verified_status: "not_yet_verified",
    verified_at: null,
    consecutive_failures: 0,
    first_failure_at: null,
  };
  const seen = { checked_at: at, outcome: r.kind, reason: r.reason, detail: r.detail.slice(0, 300) };
  if (r.kind === "skipped") return { ...base, ...seen };
  const answered = {
    final_url: r.finalUrl,
    http_status: r.status,
    request_method: r.method,
    verification_method: "automated" as const,
  };
  if (r.kind === "ok") {
    return {
      ...base,
      ...seen,
      ...answered,
      verified_status: "verified",
      verified_at: at.slice(0, 10),
      consecutive_failures: 0,
      first_failure_at: null,
    };
  }
  const failures = base.consecutive_failures + 1;
  const first = base.first_failure_at ?? at;
  const broken = failures >= rule.failures && now.getTime() - Date.parse(first) >= rule.days * DAY_MS;
  return {
    ...base,
    ...seen,
    ...answered,
    consecutive_failures: failures,
    first_failure_at: first,
    verified_status: broken ? "possibly_broken" : base.verified_status,
  };
}

/** The state file's link results (PostgreSQL's: src/state/postgres.ts, through the same nextState). */
export class LinkResults {
  private readonly one;
  private readonly put;
  constructor(readonly db: Database) {
    db.run("PRAGMA busy_timeout = 5000");
    this.one = db.query<LinkRow, [string]>("SELECT * FROM link_results WHERE url = ?");
    this.put =
      db.query(`INSERT OR REPLACE INTO link_results (url, final_url, http_status, verification_method, request_method, outcome,
      reason, detail, checked_at, verified_status, verified_at, consecutive_failures, first_failure_at)
      VALUES ($url, $final_url, $http_status, $verification_method, $request_method, $outcome, $reason, $detail, $checked_at,
      $verified_status, $verified_at, $consecutive_failures, $first_failure_at)`);
  }

  get(url: string): LinkRow | null {
    return this.one.get(url);
  }

  all(): LinkRow[] {
    return this.db.query<LinkRow, []>("SELECT * FROM link_results").all();
  }

  lastCheckedAt(): string | null {
    return this.db.query<{ at: string | null }, []>("SELECT max(checked_at) AS at FROM link_results").get()?.at ?? null;
  }

  /** Apply one check's result and store it; returns the new row. */
  record(url: string, r: ProbeResult, now: Date, rule: TransitionRule): LinkRow {
    const row = nextState(this.get(url), url, r, now, rule);
    this.put.run(Object.fromEntries(Object.entries(row).map(([k, v]) => [`$${k}`, v])) as any);
    return row;
  }
}
