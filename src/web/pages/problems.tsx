/** @jsxImportSource @kitajs/html */
// /problems and /problems/{type}: the problem types of the API (the one table in src/http/problems.ts), so the
// `type` of every problem document (under the default problems_url) opens a page that explains it.
import { PROBLEMS } from "../../http/problems";
import type { ProblemSuffix } from "../../domain/errors";
import { DomainError } from "../../domain/errors";
import { linker, type Page, type PageInput } from "../site";

/** Spec part 7, the condition of each type, in plain words. */
const WHEN: Record<ProblemSuffix, string> = {
  "bad-parameter": "A query parameter is missing, malformed or out of range.",
  "bad-point": "lat and lon are missing or are not WGS84 decimal degrees.",
  "bad-cursor": "The cursor was not issued by this endpoint for the same other parameters.",
  "unknown-topic": "The topic is not in the vocabulary served by /topics (404 in the path, 400 as a query parameter).",
  "unknown-state": "The state code is not a state, DC or territory covered.",
  "invalid-key": "The Authorization header is malformed, or the key is unknown or revoked.",
  "unknown-jurisdiction": "No place has this jurisdiction_id.",
  "outside-coverage": "The point is not inside a covered state or territory.",
  "address-not-found": "No address matched.",
  "place-not-found": "No county, city, town or township with that name in that state.",
  "not-found": "No endpoint at this path.",
  "method-not-allowed": "Only GET, HEAD and OPTIONS are answered.",
  ambiguous: "Several candidates match; choices lists them.",
  "rate-limited": "A minute or day limit is used up; wait Retry-After seconds.",
  "lookup-limit": "The limit for new outside lookups (addresses and screening) is used up; wait Retry-After seconds.",
  "internal-error": "The request could not be finished.",
  busy: "The same lookup is already running, or the service is busy; retry after a few seconds.",
  "upstream-unavailable": "An outside service needed (address geocoder, parcel database) did not answer.",
};

export function problemsPage({ deps }: PageInput): Page {
  const l = linker(deps.links.site);
  return {
    title: "Problem types",
    body: (
      <>
        <h1>Problem types</h1>
        <p class="lede">
          Errors of the API are RFC 9457 documents (application/problem+json). Match on <code>type</code>, not on the
          text.
        </p>
        <table class="stack">
          <thead>
            <tr>
              <th scope="col">Type</th>
              <th scope="col">Status</th>
              <th scope="col">When</th>
            </tr>
          </thead>
          <tbody>
            {(Object.keys(PROBLEMS) as ProblemSuffix[]).map((k) => (
              <tr>
                <td>
                  <a href={l.path(`/problems/${k}`)}>{k}</a>
                </td>
                <td data-label="Status">{PROBLEMS[k].status}</td>
                <td data-label="When" safe>
                  {WHEN[k]}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </>
    ),
  };
}

export function problemPage({ deps, params }: PageInput): Page {
  const l = linker(deps.links.site);
  const k = params[0] as ProblemSuffix;
  if (!Object.hasOwn(PROBLEMS, k))
    throw new DomainError("not-found", `'${k.slice(0, 60)}' is not a problem type of this API.`);
  return {
    title: PROBLEMS[k].title,
    body: (
      <>
        <h1 safe>{PROBLEMS[k].title}</h1>
        <p class="lede" safe>
          {WHEN[k]}
        </p>
        <dl class="facts">
          <dt>type</dt>
          <dd>
            <code safe>{`${deps.config.problems_url}/${k}`}</code>
          </dd>
          <dt>status</dt>
          <dd safe>{k === "unknown-topic" ? "400 or 404" : String(PROBLEMS[k].status)}</dd>
        </dl>
        <p>
          <a href={l.path("/problems")}>All problem types</a>
        </p>
      </>
    ),
  };
}
