/** @jsxImportSource @kitajs/html */
// A lookup page that could not answer (find, screening): the domain's error as a page with the API's status for
// it, in words for people, the forms to try again below it.
import type { Children } from "@kitajs/html";
import type { Page } from "../site";
import { DomainError, NOT_OFFERED_HERE } from "../../domain/errors";
import { PROBLEMS } from "../../http/problems";

/** True when any of `keys` has a non-blank value (an empty form field means "not given"). */
export const hasAny = (url: URL, keys: string[]) => keys.some((k) => (url.searchParams.get(k) ?? "").trim() !== "");
/** A form field's value, trimmed ("" when absent). */
export const field = (url: URL, key: string) => (url.searchParams.get(key) ?? "").trim();

const TITLES: Record<number, string> = {
  400: "Please check what you typed",
  404: "Nothing found",
  409: "More than one match",
  429: "Too many requests",
  503: "Temporarily unavailable",
};

/** The domain error as a page with the same status (never cached), the forms to try again below it. Any other
 * error is rethrown (an internal error page, logged). */
export function problemPage(err: unknown, heading: string, children?: Children): Page {
  if (!(err instanceof DomainError)) throw err;
  const status = PROBLEMS[err.suffix].status;
  const retry = err.extra.retryAfter;
  const title = err.detail.includes(NOT_OFFERED_HERE)
    ? "Not available on this server"
    : (TITLES[status] ?? "Something went wrong");
  return {
    title,
    status,
    noStore: true,
    headers: { ...err.extra.headers, ...(retry ? { "Retry-After": String(retry) } : {}) },
    body: (
      <>
        <h1 safe>{heading}</h1>
        <p class="lede">
          <strong safe>{`${title}.`}</strong> <span safe>{err.detail}</span>
        </p>
        {retry ? <p safe>{`Try again in ${retry} seconds.`}</p> : ""}
        {children}
      </>
    ),
  };
}
