import { Type } from "@sinclair/typebox";
import { SearchResult } from "../schemas/directory";
import { defineRoute } from "../route";
import { directoryOf } from "../deps";
import { stateParam } from "./shared-params";

export const SEARCH_MAX_ANONYMOUS = 20;

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
    limit: {
      schema: Type.Integer({ minimum: 1, maximum: 50, default: 10 }),
      problem: "bad-parameter",
      description: "How many places and how many resources, 1–50, default 10; at most 20 of each without a key.",
    },
  },
  data: SearchResult,
  errors: [304, 400, 401, 429],
  problems: ["bad-parameter", "unknown-state"],
  handler: ({ deps, query, ctx }) => {
    const dir = directoryOf(deps);
    dir.requireState(query.state);
    const limit = Math.min(query.limit ?? 10, ctx.keyed ? 50 : SEARCH_MAX_ANONYMOUS);
    const r = dir.searchNames(query.q, query.state?.toUpperCase() ?? null, limit);
    return { ...r, asOf: deps.asOf, cache: "default" };
  },
});
