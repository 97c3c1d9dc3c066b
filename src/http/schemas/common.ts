// TypeBox schemas of spec part 2 "Common types", part 1 Source and part 7 Problem: the ONE source for
// validation, serialisation checks in tests, and the generated OpenAPI document.
import { Type, type TSchema } from "@sinclair/typebox";
import "./formats";
import { FUNCTIONS, JURISDICTION_TYPES, LICENSE_CLASSES, TOPICS, VERIFIED_STATUSES } from "../../domain/vocabulary";

export const Nullable = <T extends TSchema>(s: T) => Type.Union([s, Type.Null()]);
const lit = (values: readonly string[]) => Type.Union(values.map((v) => Type.Literal(v)));

const STATE_CODE_PATTERN = "^[A-Za-z]{2}$";
const JURISDICTION_ID_PATTERN =
  "^(state:\\d{2}|county:\\d{5}|cousub:\\d{10}|place:\\d{7}|district:[a-z0-9-]+|country:us)$";

export const StateCode = Type.String({
  pattern: STATE_CODE_PATTERN,
  description: "Two-letter postal code of a state, DC or territory.",
});
export const JurisdictionId = Type.String({
  pattern: JURISDICTION_ID_PATTERN,
  description: "Census GEOID with a type prefix.",
});
export const Topic = Type.Union(
  TOPICS.map((t) => Type.Literal(t)),
  { $id: undefined, description: "Topic vocabulary (see /topics)." },
);
export const Fn = lit(FUNCTIONS);
export const VerifiedStatus = lit(VERIFIED_STATUSES);
const LicenseClass = lit(LICENSE_CLASSES);
export const JurisdictionType = lit(JURISDICTION_TYPES);
export const DateTime = Type.String({ format: "date-time" });
export const DateOnly = Type.String({ format: "date" });
export const Uri = Type.String({ format: "uri" });

export const Point = Type.Object(
  {
    type: Type.Literal("Point"),
    coordinates: Type.Array(Type.Number(), { minItems: 2, maxItems: 2, description: "longitude, latitude (WGS84)" }),
  },
  { additionalProperties: false },
);

export const Source = Type.Object({
  name: Type.String(),
  url: Uri,
  publisher: Nullable(Type.String()),
  official: Type.Boolean(),
  retrieved_at: Nullable(DateTime),
  license_class: LicenseClass,
  verified_status: Type.Optional(VerifiedStatus),
  verified_at: Type.Optional(Nullable(DateOnly)),
});

export const Choice = Type.Object({
  label: Type.String(),
  lat: Type.Optional(Type.Number()),
  lon: Type.Optional(Type.Number()),
  jurisdiction_id: Type.Optional(JurisdictionId),
  page_url: Type.Optional(Uri),
});

export const Problem = Type.Object({
  type: Uri,
  title: Type.String(),
  status: Type.Integer(),
  detail: Type.String(),
  request_id: Type.String(),
  choices: Type.Optional(Type.Array(Choice, { description: "Only with ambiguous (409)." })),
});

/** The envelope of every 200 (spec part 1). */
export const Envelope = <T extends TSchema>(data: T) =>
  Type.Object({
    data,
    sources: Type.Array(Source),
    as_of: DateTime,
    request_id: Type.String(),
    notices: Type.Array(Type.String()),
  });
