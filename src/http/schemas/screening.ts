// Part 2: Screening and Fact (the /screening endpoint is built by a later issue; the schemas are part of the
// contract and appear in the OpenAPI components now).
import { Type } from "@sinclair/typebox";
import { Fn, Nullable, Point } from "./common";
import { FunctionEntry, Jurisdiction, Resource } from "./directory";

export const Decider = Type.Object({
  description: Type.String(),
  function: Nullable(Fn),
  office: Nullable(FunctionEntry),
});

export const Fact = Type.Object({
  status: Type.String({ description: "flood: sfha, moderate, minimal, unmapped, unknown; wetlands: yes, near, no, unknown; soils: ok, none, unknown; elevation: ok, unknown; shoreland: likely, no, unknown; radon: zone_1, zone_2, zone_3, not_listed." }),
  summary: Type.String(),
  detail: Nullable(Type.String()),
  values: Type.Record(Type.String(), Type.Unknown()),
  dataset: Type.String(),
  publisher: Type.String(),
  as_of: Nullable(Type.String()),
  caveat: Type.String(),
  decided_by: Decider,
  resources: Type.Array(Resource),
});

export const Screening = Type.Object({
  kind: Type.Literal("screening"),
  point: Point,
  jurisdictions: Type.Array(Jurisdiction),
  facts: Type.Object({
    flood: Fact, wetlands: Fact, soils: Fact, elevation: Fact, radon: Fact,
    shoreland: Type.Optional(Fact),
  }),
});
