import { guide } from "../../directory/guides";
import { StateCode, Topic } from "../schemas/common";
import { Guide } from "../schemas/guides";
import { defineRoute } from "../route";

export const guidesRoute = defineRoute({
  path: "/guides/:topic",
  operationId: "getGuide",
  summary: "Plain-language guide for a topic, with the state's own rules when a state is given",
  pathParams: {
    topic: {
      schema: Topic,
      problem: "unknown-topic",
      required: true,
      description: "A Topic (see /topics); any other value → 404 unknown-topic.",
    },
  },
  query: {
    state: { schema: StateCode, problem: "unknown-state", description: "Two-letter postal code." },
  },
  data: Guide,
  errors: [304, 400, 401, 404, 429],
  problems: ["unknown-topic", "unknown-state"],
  handler: ({ deps, params, query }) => ({
    ...guide(deps.content, deps.links, params.topic, query.state),
    asOf: deps.asOf,
    cache: "guides",
  }),
});
