// Parameter specs shared by several routes (spec part 4 "Shared query parameters" and common types).
import { Type } from "@sinclair/typebox";
import { JurisdictionId, StateCode, Topic } from "../schemas/common";
import { CURSOR_MAX } from "../paging";
import type { ParamSpec } from "../params";
import { DomainError } from "../../domain/errors";
import { PAGE_CAPS, type PageCap } from "../../domain/page-caps";

export const latParam = {
  schema: Type.Number({ minimum: -90, maximum: 90 }),
  problem: "bad-point",
  description: "Latitude, WGS84 decimal degrees (with lon).",
} satisfies ParamSpec;
export const lonParam = {
  schema: Type.Number({ minimum: -180, maximum: 180 }),
  problem: "bad-point",
  description: "Longitude, WGS84 decimal degrees (with lat).",
} satisfies ParamSpec;
export const jurisdictionIdParam = { schema: JurisdictionId, problem: "bad-parameter" } satisfies ParamSpec;
export const stateParam = {
  schema: StateCode,
  problem: "unknown-state",
  description: "Two-letter postal code.",
} satisfies ParamSpec;
export const topicParam = { schema: Topic, problem: "unknown-topic" } satisfies ParamSpec;
/** A page-size parameter over one of the caps (src/domain/page-caps.ts); `what` says what is counted. */
export const limitParamOf = (cap: PageCap, what: string) =>
  ({
    schema: Type.Integer({ minimum: 1, maximum: cap.max, default: cap.default }),
    problem: "bad-parameter",
    description: `${what} 1–${cap.max}, default ${cap.default}; at most ${cap.anonymous} without a key.`,
  }) satisfies ParamSpec;
export const limitParam = limitParamOf(PAGE_CAPS.list, "Page size");
export const cursorParam = {
  schema: Type.String({ minLength: 1, maxLength: CURSOR_MAX }),
  problem: "bad-cursor",
  description: "next_cursor of the previous page, unchanged.",
} satisfies ParamSpec;

/** lat and lon come together: one without the other is bad-point. */
export function pointOf(
  q: { lat?: number; lon?: number },
  raw: Record<string, string>,
): { lon: number; lat: number } | null {
  const has = (k: string) => raw[k] !== undefined && raw[k] !== "";
  if (!has("lat") && !has("lon")) return null;
  if (q.lat === undefined || q.lon === undefined) {
    throw new DomainError("bad-point", "Give lat and lon together, in WGS84 decimal degrees.");
  }
  return { lon: q.lon, lat: q.lat };
}
