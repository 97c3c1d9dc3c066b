// Parameter specs shared by several routes (spec part 4 "Shared query parameters" and common types).
import { Type } from "@sinclair/typebox";
import { JurisdictionId, StateCode, Topic } from "../schemas/common";
import { CURSOR_MAX } from "../paging";
import type { ParamSpec } from "../params";
import { DomainError } from "../../domain/errors";

export const latParam: ParamSpec = {
  schema: Type.Number({ minimum: -90, maximum: 90 }),
  as: "number",
  problem: "bad-point",
  description: "Latitude, WGS84 decimal degrees (with lon).",
};
export const lonParam: ParamSpec = {
  schema: Type.Number({ minimum: -180, maximum: 180 }),
  as: "number",
  problem: "bad-point",
  description: "Longitude, WGS84 decimal degrees (with lat).",
};
export const jurisdictionIdParam: ParamSpec = { schema: JurisdictionId, as: "string", problem: "bad-parameter" };
export const stateParam: ParamSpec = {
  schema: StateCode,
  as: "string",
  problem: "unknown-state",
  description: "Two-letter postal code.",
};
export const topicParam: ParamSpec = { schema: Topic, as: "string", problem: "unknown-topic" };
export const limitParam: ParamSpec = {
  schema: Type.Integer({ minimum: 1, maximum: 100, default: 50 }),
  as: "integer",
  problem: "bad-parameter",
  description: "Page size 1–100, default 50; at most 50 without a key.",
};
export const cursorParam: ParamSpec = {
  schema: Type.String({ minLength: 1, maxLength: CURSOR_MAX }),
  as: "string",
  problem: "bad-cursor",
  description: "next_cursor of the previous page, unchanged.",
};

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
