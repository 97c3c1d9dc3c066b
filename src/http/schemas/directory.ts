// Part 2 directory resources: Jurisdiction, Office, Resource, FunctionEntry, Functions and the pages built of them.
import { Type, type TSchema } from "@sinclair/typebox";
import { DateOnly, Fn, JurisdictionId, JurisdictionType, Nullable, Point, Topic, Uri, VerifiedStatus } from "./common";

export const Jurisdiction = Type.Object({
  jurisdiction_id: JurisdictionId,
  type: JurisdictionType,
  name: Type.String(),
  legal_type: Type.Optional(Nullable(Type.String())),
  state: Type.Optional(Nullable(Type.String())),
  same_as: Type.Optional(Type.Array(JurisdictionId)),
  ocd_id: Type.Optional(Nullable(Type.String())),
  tiger_vintage: Type.Optional(Nullable(Type.String())),
  page_url: Uri,
});

export const Person = Type.Object({
  name: Type.String(),
  title: Type.String(),
  source_url: Uri,
  verified_at: DateOnly,
});

export const Office = Type.Object({
  office_id: Type.String(),
  name: Type.String(),
  kind: Type.Optional(Nullable(Type.String())),
  jurisdiction_id: JurisdictionId,
  phone: Type.Optional(Nullable(Type.String())),
  email: Type.Optional(Nullable(Type.String())),
  address: Type.Optional(Nullable(Type.String())),
  url: Type.Optional(Nullable(Uri)),
  person: Type.Optional(Nullable(Person)),
  verified_status: Type.Optional(VerifiedStatus),
  verified_at: Type.Optional(Nullable(DateOnly)),
  page_url: Type.Optional(Uri),
});

export const Resource = Type.Object({
  resource_id: Type.String(),
  name: Type.String(),
  description: Type.Optional(Nullable(Type.String())),
  url: Uri,
  search_url_template: Type.Optional(Nullable(Type.String())),
  topics: Type.Array(Topic),
  jurisdiction_id: Type.Optional(JurisdictionId),
  publisher: Type.Optional(Nullable(Type.String())),
  provider: Type.Optional(Nullable(Type.String())),
  official: Type.Boolean(),
  verified_status: VerifiedStatus,
  verified_at: Type.Optional(Nullable(DateOnly)),
  verification_method: Type.Optional(
    Nullable(Type.Union([Type.Literal("automated"), Type.Literal("browser"), Type.Literal("manual")])),
  ),
  last_http_status: Type.Optional(Nullable(Type.Integer())),
  license_class: Type.Literal("open"),
  source_kind: Type.Optional(Type.String()),
  page_url: Uri,
});

const FunctionEntryFields = {
  function: Type.Union([Fn, Type.Literal("exemptions")]),
  jurisdiction_id: Nullable(JurisdictionId),
  office_name: Nullable(Type.String()),
  office: Type.Optional(Nullable(Office)),
  resources: Type.Array(Resource),
  role: Type.Optional(Type.Union([Type.Literal("primary"), Type.Literal("secondary"), Type.Literal("delinquent")])),
  levy_scope: Type.Optional(
    Nullable(Type.Union(["county", "municipal", "school", "special", "all"].map((v) => Type.Literal(v)))),
  ),
  basis: Type.Optional(Nullable(Type.String())),
  evidence_url: Type.Optional(Nullable(Uri)),
};
export const FunctionEntry = Type.Object({
  ...FunctionEntryFields,
  also: Type.Optional(Type.Array(Type.Object(FunctionEntryFields))),
});

const optEntry = () => Type.Optional(Nullable(FunctionEntry));
const Functions = Type.Object({
  assessment: optEntry(),
  tax_collection: optEntry(),
  recording: optEntry(),
  zoning: optEntry(),
  permits: optEntry(),
  gis: optEntry(),
});

export const ResolveResult = Type.Object({
  match: Type.Object({
    by: Type.Union(["point", "address", "place", "jurisdiction_id"].map((v) => Type.Literal(v))),
    label: Nullable(Type.String()),
    approximate: Type.Boolean(),
  }),
  point: Nullable(Point),
  jurisdictions: Type.Array(Jurisdiction),
  functions: Functions,
});

export const ResourcePage = Type.Object({
  jurisdiction: Jurisdiction,
  point: Type.Optional(Nullable(Point)),
  topic: Nullable(Topic),
  resources: Type.Array(Resource),
  next_cursor: Nullable(Type.String()),
});

export const PlacePage = Type.Object({
  jurisdiction: Jurisdiction,
  chain: Type.Array(Jurisdiction),
  offices: Type.Array(Office),
  resources: Type.Array(Resource),
  functions: Functions,
  next_cursor: Nullable(Type.String()),
});

export const SearchResult = Type.Object({ places: Type.Array(Jurisdiction), resources: Type.Array(Resource) });

export const named: Record<string, TSchema> = {
  Jurisdiction,
  Office,
  Resource,
  FunctionEntry,
  Functions,
  ResolveResult,
  ResourcePage,
  PlacePage,
  SearchResult,
};
