// GET /county-data (spec part 4): a plain question in q, or a plan (jurisdiction_id, op, field, bounds). The
// answer comes from the parcels domain over the one ParcelSource; a store that does not answer is 503; a server
// without parcel data (none configured or no file) answers no_data for every county.
import { Type } from "@sinclair/typebox";
import { CountyData } from "../schemas/county-data";
import { defineRoute } from "../route";
import { DomainError } from "../../domain/errors";
import { COUNTY_DATA_OFFSET_MAX, PAGE_CAPS } from "../../domain/page-caps";
import { limitParamOf } from "./shared-params";
import { FIELDS, OPS } from "../../parcels/fields";
import { countyData } from "../../parcels/county-data";
import { NoParcelData } from "../../parcels/none";
import { countyNamesOf } from "../../parcels/county-names";

const DATE = Type.String({ pattern: "^\\d{4}-\\d{2}-\\d{2}$" });
/** A real calendar date (2015-13-01 and 2015-02-30 are not): never throws. */
const validDate = (s: string | undefined) => {
  if (s === undefined) return true;
  const t = new Date(`${s}T00:00:00Z`).getTime();
  return !Number.isNaN(t) && new Date(t).toISOString().slice(0, 10) === s;
};
const PLAN_ONLY = ["op", "field", "min", "max", "since", "until"] as const;

export const countyDataRoute = defineRoute({
  path: "/county-data",
  operationId: "getCountyData",
  summary: "Questions over many parcels in one county (never owner names)",
  description:
    "Either a plain question in q, or a plan: jurisdiction_id (a county) with op and field. min and max " +
    "bound the field itself (numeric fields only; for field=sale_date use since/until); since and until " +
    "bound the last sale date, for every op and field. top and bottom list rows (paged by offset); count, " +
    "avg and median give value. Owner names, owner rankings and owner searches are never available. " +
    "Parcel maps are not surveys; the county record is official.",
  query: {
    q: {
      schema: Type.String({ minLength: 2, maxLength: 200 }),
      problem: "bad-parameter",
      description: "A plain question, e.g. 'biggest parcel in King County, WA'.",
    },
    jurisdiction_id: {
      schema: Type.String({ pattern: "^county:[0-9]{5}$" }),
      problem: "bad-parameter",
      description: "A county identifier (county:NNNNN).",
    },
    op: {
      schema: Type.Union(
        OPS.map((o) => Type.Literal(o)),
        { default: "top" },
      ),
      problem: "bad-parameter",
      description: "top, bottom, count, avg or median; default top.",
    },
    field: {
      schema: Type.Union(
        FIELDS.map((f) => Type.Literal(f)),
        { default: "acres" },
      ),
      problem: "bad-parameter",
      description: "The field the op is over; default acres.",
    },
    min: {
      schema: Type.Number(),
      problem: "bad-parameter",
      description: "Lower bound (inclusive) of the field; not for sale_date.",
    },
    max: {
      schema: Type.Number(),
      problem: "bad-parameter",
      description: "Upper bound (inclusive) of the field; not for sale_date.",
    },
    since: {
      schema: DATE,
      problem: "bad-parameter",
      description: "Last sale on or after this date (any op, any field).",
    },
    until: {
      schema: DATE,
      problem: "bad-parameter",
      description: "Last sale on or before this date (any op, any field).",
    },
    limit: limitParamOf(PAGE_CAPS.county_data, "Rows for top and bottom,"),
    offset: {
      schema: Type.Integer({ minimum: 0, maximum: COUNTY_DATA_OFFSET_MAX, default: 0 }),
      problem: "bad-parameter",
      description: `Rows to skip for top and bottom, 0–${COUNTY_DATA_OFFSET_MAX}, default 0.`,
    },
  },
  data: CountyData,
  errors: [304, 400, 401, 429, 503],
  handler: async ({ deps, query }) => {
    if (!validDate(query.since) || !validDate(query.until))
      throw new DomainError("bad-parameter", "since and until must be real calendar dates (YYYY-MM-DD).");
    if (query.q === undefined && query.jurisdiction_id === undefined)
      throw new DomainError(
        "bad-parameter",
        "Give q (a plain question) or jurisdiction_id (a county) with op and field.",
      );
    if (query.q !== undefined) {
      const both = PLAN_ONLY.filter((k) => query[k] !== undefined);
      if (both.length)
        throw new DomainError(
          "bad-parameter",
          `Give q or a plan, not both: ${both.join(", ")} cannot go with q (jurisdiction_id, limit and offset can).`,
        );
    }
    const r = await countyData(deps.parcels ?? new NoParcelData(), countyNamesOf(deps.directory), {
      q: query.q,
      jurisdictionId: query.jurisdiction_id,
      op: query.op,
      field: query.field,
      bounds: { min: query.min, max: query.max, since: query.since, until: query.until },
      limit: query.limit,
      offset: query.offset ?? 0,
    });
    return { data: r.data, sources: r.sources, asOf: deps.asOf, cache: "default" };
  },
});
