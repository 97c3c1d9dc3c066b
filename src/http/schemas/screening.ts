// Part 2: Screening and Fact. Each fact of `facts` admits only its own statuses (spec part 2, Fact.status), as its
// definition lists them (src/lookups/screening: the services of SERVICES and radon).
import { Type } from "@sinclair/typebox";
import { Fn, Nullable, Point } from "./common";
import { FunctionEntry, Jurisdiction, Resource } from "./directory";
import { FACTS } from "../../lookups/screening";
import type { FactDef } from "../../lookups/screening/types";

const Decider = Type.Object({
  description: Type.String({ description: "Who makes the official decision." }),
  function: Nullable(Fn),
  office: Nullable(FunctionEntry),
});

/** The allowed statuses per fact (spec part 2), from the fact definitions (src/lookups/screening). */
export const FACT_STATUSES: Record<string, readonly string[]> = Object.fromEntries(
  FACTS.map((f) => [f.name, f.statuses]),
);

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
const statusOf = (f: FactDef) =>
  Type.Union(
    f.statuses.map((s) => Type.Literal(s)),
    { description: `${f.name}: ${f.statuses.join(", ")}` },
  );

/** Any fact (the generic shape of part 2). */
export const Fact = factWith(
  Type.String({ description: `${FACTS.map((f) => `${f.name}: ${f.statuses.join(", ")}`).join("; ")}.` }),
);

/** The screening answer over `facts` (default: every fact of SERVICES and radon, in answer order): each fact with
 * its own statuses, optional where the fact is answered only in some states. */
export function screeningSchema(facts: readonly FactDef[] = FACTS) {
  const only = facts.filter((f) => f.onlyIn);
  return Type.Object({
    kind: Type.Literal("screening"),
    point: Point,
    jurisdictions: Type.Array(Jurisdiction),
    facts: Type.Object(
      Object.fromEntries(
        facts.map((f) => [f.name, f.onlyIn ? Type.Optional(factWith(statusOf(f))) : factWith(statusOf(f))]),
      ),
      only.length
        ? { description: `${only.map((f) => `${f.name} only for points ${f.onlyIn!.words}`).join("; ")}.` }
        : {},
    ),
  });
}

export const Screening = screeningSchema();
