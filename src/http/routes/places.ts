import { pageSize } from "../paging";
import { PlacePage } from "../schemas/directory";
import { defineRoute } from "../route";
import { directoryOf } from "../deps";
import { cursorParam, jurisdictionIdParam, limitParam } from "./shared-params";
import { nextUrl } from "./next-url";

export const placesRoute = defineRoute({
  path: "/places/:jurisdiction_id",
  operationId: "getPlace",
  summary:
    "Full directory for one place: the place, its chain, offices, the body per function, its own resources (paged)",
  list: true,
  pathParams: { jurisdiction_id: { ...jurisdictionIdParam, required: true } },
  query: { limit: limitParam, cursor: cursorParam },
  data: PlacePage,
  errors: [304, 400, 401, 404, 429],
  problems: ["bad-parameter", "bad-cursor", "unknown-jurisdiction"],
  handler: ({ deps, params, query, ctx }) => {
    const id = params.jurisdiction_id;
    const path = `/places/${id}`;
    const offset = deps.cursors.read(path, {}, query.cursor);
    const r = directoryOf(deps).place(id, offset, pageSize(query.limit, ctx.keyed));
    const next = r.nextOffset === null ? null : deps.cursors.issue(path, {}, r.nextOffset);
    return {
      data: { ...r.data, next_cursor: next },
      sources: r.sources,
      notices: r.notices,
      asOf: deps.asOf,
      cache: "default",
      next: next ? nextUrl(ctx.url, deps.config.base_url, path, next) : null,
    };
  },
});
