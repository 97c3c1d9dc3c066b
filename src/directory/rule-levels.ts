// The rule's level → the body in the chain that does the job: state → the state; county → the county; town → the
// county subdivision (a town government, or the place a fictitious subdivision stands for); city → the incorporated
// place, else the county subdivision. Where that level has no body, the rule's else_level may name another (pick);
// a city-level rule in a data file without places falls back to nobody. Used by functions.ts.
import type { JurisdictionRow } from "./store";
import { isTownGovernment } from "./jurisdictions";

export function atLevel(chain: JurisdictionRow[], level: string | null | undefined): JurisdictionRow | null {
  const of = (t: string) => chain.find((j) => j.type === t && (t !== "cousub" || isTownGovernment(j))) ?? null;
  const place = chain.find((j) => j.type === "place" && j.incorporated !== 0) ?? null;
  switch (level) {
    case "state":
      return of("state");
    case "county":
      return of("county");
    case "town": {
      const cousub = chain.find((j) => j.type === "cousub") ?? null;
      if (!cousub) return null;
      if (isTownGovernment(cousub)) return cousub;
      return cousub.funcstat === "F" ? place : null;
    }
    case "city":
      return place ?? of("cousub");
    default:
      return null;
  }
}

/** else_level: county; place (any incorporated place: city, village, borough ...); city (a place whose legal type is
 *  city, e.g. New York, where cities assess but villages do not). */
function elseBody(chain: JurisdictionRow[], elseLevel: string): JurisdictionRow | null {
  const place = chain.find((j) => j.type === "place" && j.incorporated !== 0) ?? null;
  if (elseLevel === "place") return place;
  if (elseLevel === "city") return place && (place.legal_type ?? "").toLowerCase() === "city" ? place : null;
  return atLevel(chain, elseLevel);
}

/** The body at the rule's level, else at its else_level; `fallback` tells which one answered. A fallback that holds
 *  only in counties without townships (else_only_without_towns) asks `countyHasTowns`. A city-level rule in a data
 *  file that holds no places at all falls back to nobody (`unheld`): the absence of city boundaries is not a finding
 *  that the point lies outside every city. */
export function pick(
  chain: JurisdictionRow[],
  rule: { level: string | null; else_level?: string | null; else_only_without_towns?: boolean } | null,
  countyHasTowns: (countyId: string) => boolean = () => false,
  placesHeld = true,
): { body: JurisdictionRow | null; fallback: boolean; unheld?: boolean } {
  const body = atLevel(chain, rule?.level ?? null);
  if (!body && !placesHeld && (rule?.level === "city" || rule?.level === "place"))
    return { body: null, fallback: false, unheld: true };
  if (body || !rule?.else_level) return { body, fallback: false };
  const county = chain.find((j) => j.type === "county");
  if (rule.else_only_without_towns && county && countyHasTowns(county.jurisdiction_id))
    return { body: null, fallback: false };
  const other = elseBody(chain, rule.else_level);
  return { body: other, fallback: !!other };
}

export const LEVEL_WORD: Record<string, string> = {
  town: "town or township",
  city: "city",
  place: "city, village or borough",
  county: "county",
  state: "state",
};
