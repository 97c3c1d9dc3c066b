import { Type } from "@sinclair/typebox";
import { DomainError } from "../../domain/errors";
import { ResolveResult } from "../schemas/directory";
import type { SourceT } from "../respond";
import { defineRoute } from "../route";
import { directoryOf } from "../deps";
import { resolveBy, type Selector } from "../../directory/resolve-by";
import { jurisdictionIdParam, latParam, lonParam, pointOf, stateParam } from "./shared-params";

/** Selectors of resolve: exactly one must be given (none or several → 400 bad-parameter). */
const SELECTORS = [["lat", "lon"], ["address"], ["place"], ["jurisdiction_id"]] as const;
const NO_SELECTOR = "Give one selector: lat and lon, address, place (with state) or jurisdiction_id.";

export const resolveRoute = defineRoute({
  path: "/jurisdictions/resolve",
  operationId: "resolveJurisdictions",
  summary: "The jurisdiction chain and, per function, the body that performs it",
  description:
    "Give exactly one selector: lat+lon, address, place (+state) or jurisdiction_id. None or several → 400 bad-parameter.",
  query: {
    lat: latParam,
    lon: lonParam,
    address: {
      schema: Type.String({ minLength: 3, maxLength: 200 }),
      problem: "bad-parameter",
      description: "Free-text US address, geocoded (cached for a day).",
    },
    place: {
      schema: Type.String({ minLength: 2, maxLength: 100 }),
      problem: "bad-parameter",
      description: "County, city, town or township name; ', County' may follow; may end in the state code.",
    },
    state: stateParam,
    jurisdiction_id: jurisdictionIdParam,
  },
  data: ResolveResult,
  errors: [304, 400, 401, 404, 409, 429, 503],
  problems: [
    "bad-parameter",
    "unknown-state",
    "outside-coverage",
    "unknown-jurisdiction",
    "address-not-found",
    "place-not-found",
    "ambiguous",
    "lookup-limit",
    "busy",
    "upstream-unavailable",
  ],
  handler: ({ deps, query, ctx }) => {
    const raw = ctx.query;
    const isGiven = (s: readonly string[]) => s.some((k) => raw[k] !== undefined && raw[k] !== "");
    let count = 0;
    for (const s of SELECTORS) if (isGiven(s)) count++;
    if (count !== 1) {
      const given = SELECTORS.filter(isGiven);
      throw new DomainError(
        "bad-parameter",
        given.length === 0
          ? NO_SELECTOR
          : `Give exactly one selector; got ${given.map((s) => s.join("+")).join(", ")}.`,
      );
    }
    const dir = directoryOf(deps);
    // jurisdictions, functions, sources and notices are memoised per chain by the directory, and a point's match is
    // one constant: serialise them once (the chain's jurisdictions first: the envelope is kept under it)
    const done = (r: {
      data: { match: unknown; jurisdictions: unknown; functions: unknown };
      sources: SourceT[];
      notices: string[];
      frozen: object[];
    }) => ({
      data: r.data,
      sources: r.sources,
      notices: r.notices,
      asOf: deps.asOf,
      cache: "default" as const,
      frozen: r.frozen,
    });
    dir.requireState(query.state); // with any selector, before the point's own check, as always
    const point = pointOf(query, raw);
    const sel: Selector | null = point
      ? point
      : query.jurisdiction_id !== undefined
        ? { jurisdiction_id: query.jurisdiction_id }
        : query.place !== undefined
          ? { place: query.place, state: query.state }
          : query.address !== undefined
            ? { address: query.address }
            : null;
    if (!sel) throw new DomainError("bad-parameter", NO_SELECTOR); // counted above: never reached
    const r = resolveBy(dir, deps.addresses, sel);
    return r instanceof Promise ? r.then(done) : done(r);
  },
});
