/** @jsxImportSource @kitajs/html */
// Pages built on an in-process /v1 call: the call's query from the page's own, and a problem answer as a page.
import type { Children } from "@kitajs/html";
import type { Page, PageInput } from "../site";
import { NOT_OFFERED_HERE } from "../../domain/errors";

/** The page's query parameters among `keys`, empty values dropped (an empty form field means "not given"). */
export function apiQuery(url: URL, keys: string[]): URLSearchParams {
  const q = new URLSearchParams();
  for (const k of keys) {
    const v = url.searchParams.get(k);
    if (v !== null && v.trim() !== "") q.set(k, v.trim());
  }
  return q;
}

export const hasAny = (url: URL, keys: string[]) => keys.some((k) => (url.searchParams.get(k) ?? "").trim() !== "");

const TITLES: Record<number, string> = {
  400: "Please check the request",
  404: "Nothing found",
  409: "More than one match",
  429: "Too many requests",
  503: "Temporarily unavailable",
};

/** A problem answer of the API as a page with the same status (never cached), the forms to try again below it. */
export function problemAsPage(res: Awaited<ReturnType<PageInput["api"]>>, heading: string, children?: Children): Page {
  const status = res.status >= 400 && res.status < 600 ? res.status : 500;
  const detail: string = typeof res.json?.detail === "string" ? res.json.detail : "The request could not be finished.";
  const retry = res.headers.get("retry-after");
  const title = detail.includes(NOT_OFFERED_HERE)
    ? "Not available on this server"
    : (TITLES[status] ?? "Something went wrong");
  return {
    title,
    status,
    noStore: true,
    headers: retry ? { "Retry-After": retry } : {},
    body: (
      <>
        <h1 safe>{heading}</h1>
        <p class="lede">
          <strong safe>{title}.</strong> <span safe>{detail}</span>
        </p>
        {retry ? <p safe>{`Try again in ${retry} seconds.`}</p> : ""}
        {children}
      </>
    ),
  };
}
