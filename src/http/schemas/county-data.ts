// Part 2: CountyData (no owner fields exist in this schema, by design; additionalProperties false everywhere).
import { Type } from "@sinclair/typebox";
import { Nullable, Uri } from "./common";

export const CountyRow = Type.Object(
  {
    rank: Type.Integer(),
    apn: Type.String(),
    situs_address: Nullable(Type.String()),
    acres: Nullable(Type.Number()),
    value: Nullable(Type.Number()),
    value_label: Nullable(Type.String()),
    last_sale_date: Nullable(Type.String()),
    last_sale_price: Nullable(Type.Number()),
    year_built: Nullable(Type.Integer()),
    parcel_gis_url: Nullable(Uri),
    lat: Nullable(Type.Number()),
    lon: Nullable(Type.Number()),
  },
  { additionalProperties: false },
);

export const CountyData = Type.Object(
  {
    question: Type.String(),
    state: Type.Union(
      ["ok", "no_data", "unavailable", "owners_unavailable", "not_cleared", "busy", "down"].map((v) => Type.Literal(v)),
    ),
    answer: Type.String(),
    notes: Type.Array(Type.String()),
    rows: Type.Array(CountyRow, { maxItems: 50 }),
    value: Type.Optional(Nullable(Type.Number())),
    source: Nullable(
      Type.Object({ name: Type.String(), as_of: Nullable(Type.String()) }, { additionalProperties: false }),
    ),
  },
  { additionalProperties: false },
);
