import { DomainError } from "../../domain/errors";
import { ResourcePage } from "../schemas/directory";
import { defineRoute } from "../route";
import { directoryOf } from "../deps";
import { cursorParam, jurisdictionIdParam, latParam, limitParam, lonParam, pointOf, topicParam } from "./shared-params";
import { pageOf } from "./paged";

export const resourcesRoute = defineRoute({
  path: "/resources",
  operationId: "listResources",
  summary: "Ranked official resources for a place or a point",
  description:
    "Give jurisdiction_id, or lat with lon (then topic is required). With a topic: the place's own " +
    "resources first, then up the chain to the state and the national level. Without a topic: the place's " +
    "own only. One order for every caller.",
  list: true,
  query: {
    jurisdiction_id: jurisdictionIdParam,
    lat: latParam,
    lon: lonParam,
    topic: topicParam,
    limit: limitParam,
    cursor: cursorParam,
  },
  data: ResourcePage,
  errors: [304, 400, 401, 404, 429],
  problems: ["bad-parameter", "bad-point", "bad-cursor", "unknown-topic", "unknown-jurisdiction", "outside-coverage"],
  handler: ({ deps, query, ctx }) => {
    const raw = ctx.query;
    const point = pointOf(query, raw);
    if (point && query.jurisdiction_id)
      throw new DomainError("bad-parameter", "Give jurisdiction_id, or lat with lon, not both.");
    if (!point && !query.jurisdiction_id)
      throw new DomainError("bad-parameter", "Give jurisdiction_id, or lat together with lon.");
    if (point && !query.topic) throw new DomainError("bad-parameter", "topic is required with lat and lon.");
    const bound = { jurisdiction_id: query.jurisdiction_id, lat: raw.lat, lon: raw.lon, topic: query.topic };
    const page = pageOf(deps, ctx, "/resources", bound, query);
    return page.reply(
      directoryOf(deps).resources(
        point ? { point } : { jurisdictionId: query.jurisdiction_id },
        query.topic ?? null,
        page.offset,
        page.size,
      ),
    );
  },
});
