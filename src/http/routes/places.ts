import { PlacePage } from "../schemas/directory";
import { defineRoute } from "../route";
import { directoryOf } from "../deps";
import { cursorParam, jurisdictionIdParam, limitParam } from "./shared-params";
import { pageOf } from "./paged";

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
    const page = pageOf(deps, ctx, `/places/${id}`, {}, query);
    return page.reply(directoryOf(deps).place(id, page.offset, page.size));
  },
});
