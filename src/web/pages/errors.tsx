/** @jsxImportSource @kitajs/html */
// Error pages: the status in words, what to do next, and the request id to quote.
import { DomainError, NOT_OFFERED_HERE } from "../../domain/errors";
import type { Linker, Page } from "../site";

const HEADINGS: Record<number, string> = {
  400: "Something in the request is not right",
  404: "Page not found",
  405: "Method not allowed",
  409: "More than one match",
  429: "Too many requests",
  500: "Something went wrong",
  503: "Temporarily unavailable",
};

export function errorPage(status: number, e: DomainError | Error, requestId: string, l: Linker): Page {
  const detail = e instanceof DomainError ? e.detail : "The request could not be finished.";
  const title = detail.includes(NOT_OFFERED_HERE)
    ? "Not available on this server"
    : (HEADINGS[status] ?? `Error ${status}`);
  return {
    title,
    status,
    noStore: true,
    body: (
      <>
        <h1 safe>{title}</h1>
        <p class="lede" safe>
          {detail}
        </p>
        {status === 429 ? (
          <p>Wait a little and try again. The limits are the same as the API's anonymous limits.</p>
        ) : (
          ""
        )}
        {status === 404 ? (
          <p>
            Try the <a href={l.path("/search")}>search</a> or the <a href={l.path("/topics")}>list of topics</a>.
          </p>
        ) : (
          ""
        )}
        <p class="meta">
          Status <span safe>{String(status)}</span> · request id <code safe>{requestId}</code>
        </p>
      </>
    ),
  };
}
