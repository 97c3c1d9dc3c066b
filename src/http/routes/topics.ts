import { topicList } from "../../directory/guides";
import { TopicList } from "../schemas/guides";
import { defineRoute } from "../route";
import type { Deps } from "../deps";
import { keepAll, keptOf } from "../../domain/kept";

/** The topic list of a server's content, made once and kept. */
const lists = new WeakMap<object, ReturnType<typeof topicList>>();
function keptList(deps: Deps) {
  let l = lists.get(deps);
  if (!l) {
    l = topicList(deps.content, deps.links);
    keepAll(l.data, l.sources);
    lists.set(deps, l);
  }
  return l;
}

export const topicsRoute = defineRoute({
  path: "/topics",
  operationId: "listTopics",
  summary: "Every topic with its description, the functions it belongs to and its page",
  data: TopicList,
  errors: [304, 401, 429],
  problems: [],
  handler: ({ deps }) => {
    const l = keptList(deps);
    return { ...l, asOf: deps.asOf, cache: "topics", frozen: keptOf(l.data, l.sources) };
  },
});
