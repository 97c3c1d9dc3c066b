import { topicList } from "../../directory/guides";
import { TopicList } from "../schemas/guides";
import type { RouteDef } from "../route";

export const topicsRoute: RouteDef = {
  path: "/topics",
  operationId: "listTopics",
  summary: "Every topic with its description, the functions it belongs to and its page",
  data: TopicList,
  errors: [304, 401, 429],
  handler: ({ deps }) => ({ ...topicList(deps.content, deps.links), asOf: deps.asOf, cache: "topics" }),
};
