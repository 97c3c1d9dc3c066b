import { topicList } from "../../directory/guides";
import { TopicList } from "../schemas/guides";
import { defineRoute } from "../route";

const cache = new WeakMap<object, ReturnType<typeof topicList>>();

export const topicsRoute = defineRoute({
  path: "/topics",
  operationId: "listTopics",
  summary: "Every topic with its description, the functions it belongs to and its page",
  data: TopicList,
  errors: [304, 401, 429],
  problems: [],
  handler: ({ deps }) => {
    const built = (cache.get(deps) ?? cache.set(deps, topicList(deps.content, deps.links)).get(deps))!;
    return { ...built, asOf: deps.asOf, cache: "topics", frozen: true };
  },
});
