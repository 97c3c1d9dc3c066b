import { guide } from "../../directory/guides";
import { StateCode, Topic } from "../schemas/common";
import { Guide } from "../schemas/guides";
import type { RouteDef } from "../route";

export const guidesRoute: RouteDef = {
  path: "/guides/:topic",
  operationId: "getGuide",
  summary: "Plain-language guide for a topic, with the state's own rules when a state is given",
  pathParams: {
    topic: {
      schema: Topic,
      as: "string",
      problem: "unknown-topic",
      required: true,
      in: "path",
      description: "A Topic (see /topics); any other value → 404 unknown-topic.",
    },
  },
  query: {
    state: { schema: StateCode, as: "string", problem: "unknown-state", description: "Two-letter postal code." },
  },
  data: Guide,
  errors: [304, 400, 401, 404, 429],
  problems: ["unknown-topic", "unknown-state"],
  handler: ({ deps, params, query }) => ({
    ...guide(deps.content, deps.links, params.topic!, query.state),
    asOf: deps.asOf,
    cache: "guides",
  }),
};
