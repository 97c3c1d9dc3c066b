// GET /v1/screening?lat&lon: screening facts for the exact point (spec part 2 "Screening", part 4, part 3 rule 1).
// A fact that could not be checked is `unknown` and the answer is still 200; busy (503) and lookup-limit (429)
// come from the screening runner; the 429 shows the lookup bucket's own RateLimit figures.
import { DomainError } from "../../domain/errors";
import { screenAt } from "../../directory/screen-at";
import { queryOf } from "../params";
import { Screening } from "../schemas/screening";
import { FACTS } from "../../lookups/screening";
import { defineRoute } from "../route";
import { directoryOf } from "../deps";
import { latParam, lonParam, pointOf } from "./shared-params";

export const screeningRoute = defineRoute({
  path: "/screening",
  operationId: "getScreening",
  summary: `Screening facts for the exact point: ${factList()}`,
  description:
    "Screening, never a determination: each fact names its data, date, caveat and who decides. A fact " +
    "that could not be checked is `unknown` (retry later). New outside lookups draw from the lookup limit " +
    "(429 lookup-limit); too many outside lookups at once → 503 busy.",
  query: { lat: { ...latParam, required: true }, lon: { ...lonParam, required: true } },
  data: Screening,
  errors: [304, 400, 401, 404, 429, 503],
  handler: async ({ deps, query, ctx }) => {
    const point = pointOf(query, queryOf(ctx.url));
    if (!point) throw new DomainError("bad-point", "Give lat and lon, in WGS84 decimal degrees.");
    if (!deps.screening) throw new Error("screening is not composed into this app");
    // a lookup-limit refusal carries the lookup bucket's own RateLimit headers (the runner's)
    const r = await screenAt(directoryOf(deps), deps.screening, point.lon, point.lat);
    return {
      data: r.data,
      sources: r.sources,
      notices: r.notices,
      asOf: deps.asOf,
      frozen: r.frozen,
      cache: "screening", // an hour (spec part 4), also when a fact is unknown; our own cache never keeps an unknown
    };
  },
});

/** "flood, wetlands, …, radon, and shoreland in Minnesota": every fact, in answer order, with where it applies. */
function factList(): string {
  const words = FACTS.map((f) => (f.onlyIn ? `${f.name} ${f.onlyIn.words}` : f.name));
  return words.length > 1 ? `${words.slice(0, -1).join(", ")}, and ${words.at(-1)}` : words.join("");
}
