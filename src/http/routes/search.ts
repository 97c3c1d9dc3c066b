import { Type } from "@sinclair/typebox";
import { SearchResult } from "../schemas/directory";
import { defineRoute } from "../route";
import { directoryOf } from "../deps";
import { limitParamOf, stateParam } from "./shared-params";
import { PAGE_CAPS, pageSize } from "../../domain/page-caps";

export const searchRoute = defineRoute({
  path: "/search",
  operationId: "searchNames",
  summary: "Name lookup over place names and directory resource names (never people)",
  query: {
    q: {
      schema: Type.String({ minLength: 2, maxLength: 200 }),
      problem: "bad-parameter",
      required: true,
    },
    state: stateParam,
    limit: limitParamOf(PAGE_CAPS.search, "How many places and how many resources (each):"),
  },
  data: SearchResult,
  errors: [304, 400, 401, 429],
  problems: ["bad-parameter", "unknown-state"],
  handler: ({ deps, query, ctx }) => {
    const dir = directoryOf(deps);
    dir.requireState(query.state);
    const limit = pageSize(PAGE_CAPS.search, query.limit, ctx.keyed);
    const r = dir.searchNames(query.q, query.state?.toUpperCase() ?? null, limit);
    return { ...r, asOf: deps.asOf, cache: "default" };
  },
});
