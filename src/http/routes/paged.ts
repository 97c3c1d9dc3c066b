// The paged lists (/places/{id}, /resources): the offset the cursor names, the page size for the caller, and the
// reply with its next cursor and the full URL of the next page. A cursor is bound to the endpoint and the other
// parameters (http/paging.ts Cursors).
import { PAGE_CAPS, pageSize } from "../../domain/page-caps";
import type { Deps } from "../deps";
import type { Reply, RequestContext, SourceT } from "../respond";

interface PageOut {
  data: object;
  sources: SourceT[];
  notices: string[];
  nextOffset: number | null;
}

export function pageOf(
  deps: Deps,
  ctx: RequestContext,
  path: string,
  bound: Record<string, string | undefined>,
  asked: { cursor?: string; limit?: number },
) {
  const offset = deps.cursors.read(path, bound, asked.cursor);
  const size = pageSize(PAGE_CAPS.list, asked.limit, ctx.keyed);
  const reply = (r: PageOut): Reply => {
    const next = r.nextOffset === null ? null : deps.cursors.issue(path, bound, r.nextOffset);
    return {
      data: { ...r.data, next_cursor: next },
      sources: r.sources,
      notices: r.notices,
      asOf: deps.asOf,
      cache: "default",
      next: next ? nextUrl(ctx.url, deps.config.base_url, path, next) : null,
    };
  };
  return { offset, size, reply };
}

/** Full URL of the next page: the same request under base_url with the new cursor. */
function nextUrl(url: URL, baseUrl: string, path: string, cursor: string): string {
  const q = new URLSearchParams(url.searchParams);
  q.set("cursor", cursor);
  return `${baseUrl}${path}?${q.toString()}`;
}
