// Part 2: Screening and Fact. Each fact of `facts` admits only its own statuses (spec part 2, Fact.status).
import { Type } from "@sinclair/typebox";
import { Fn, Nullable, Point } from "./common";
import { FunctionEntry, Jurisdiction, Resource } from "./directory";

export const Decider = Type.Object({
  description: Type.String({ description: "Who makes the official decision." }),
  function: Nullable(Fn),
  office: Nullable(FunctionEntry),
});

/** The allowed statuses per fact (spec part 2). */
export const FACT_STATUSES = {
  flood: ["sfha", "moderate", "minimal", "unmapped", "unknown"],
  wetlands: ["yes", "near", "no", "unknown"],
  soils: ["ok", "none", "unknown"],
  elevation: ["ok", "unknown"],
  shoreland: ["likely", "no", "unknown"],
  // "unknown" beyond the spec's list: only from a data file built without the radon map (issue 22: never "no" for
  // data that is not loaded; README reference table, "Facts from data that is not loaded")
  radon: ["zone_1", "zone_2", "zone_3", "not_listed", "unknown"],
} as const;

const factWith = (status: ReturnType<typeof Type.String> | ReturnType<typeof Type.Union>) =>
  Type.Object({
    status,
    summary: Type.String({ description: "Plain-language result." }),
    detail: Nullable(Type.String()),
    values: Type.Record(Type.String(), Type.Unknown(), {
      description: "Machine values, e.g. zone, subtype, base_flood_elevation_ft, firm_panel, feet, map_unit.",
    }),
    dataset: Type.String({ description: "The data the fact was read from (a loaded layer names its file and date)." }),
    publisher: Type.String(),
    as_of: Nullable(
      Type.String({
        description:
          "Source date where known: panel effective date, wetland image year, soil survey version date, radon map edition.",
      }),
    ),
    caveat: Type.String(),
    decided_by: Decider,
    resources: Type.Array(Resource),
  });
const statusOf = (k: keyof typeof FACT_STATUSES) =>
  Type.Union(
    FACT_STATUSES[k].map((s) => Type.Literal(s)),
    { description: `${k}: ${FACT_STATUSES[k].join(", ")}` },
  );

/** Any fact (the generic shape of part 2). */
export const Fact = factWith(
  Type.String({
    description:
      "flood: sfha, moderate, minimal, unmapped, unknown; wetlands: yes, near, no, unknown; soils: ok, " +
      "none, unknown; elevation: ok, unknown; shoreland: likely, no, unknown; radon: zone_1, zone_2, " +
      "zone_3, not_listed.",
  }),
);

export const Screening = Type.Object({
  kind: Type.Literal("screening"),
  point: Point,
  jurisdictions: Type.Array(Jurisdiction),
  facts: Type.Object(
    {
      flood: factWith(statusOf("flood")),
      wetlands: factWith(statusOf("wetlands")),
      soils: factWith(statusOf("soils")),
      elevation: factWith(statusOf("elevation")),
      radon: factWith(statusOf("radon")),
      shoreland: Type.Optional(factWith(statusOf("shoreland"))),
    },
    { description: "shoreland only for points in Minnesota." },
  ),
});
