// Who issues building permits where the Census Building Permits Survey (2024) speaks: the survey lists permit
// offices, and for a chain the first that holds wins: the incorporated place; else the county subdivision (a town
// or township office); else, outside every incorporated place, the county when the survey lists its
// unincorporated area. Zoning follows permits (the body that issues permits usually zones), except that a county
// zones its unincorporated area only where the state's zoning rule gives counties that power (its level or
// else_level): Texas counties issue some permits but have no general zoning power. Where the survey is silent the
// state rule answers as before. Every basis built on it says it is survey data, not law.
import type { Fn } from "../domain/vocabulary";
import type { RuleText } from "./content";
import type { JurisdictionRow, PermitOffice, Store } from "./store";
import { isTownGovernment } from "./jurisdictions";

interface SurveyAnswer {
  body: JurisdictionRow;
  office: PermitOffice;
}

/** Whether a zoning rule (level / else_level) names the kind of body a survey office is: a place office a city-level
 *  rule (or else_level place/city), a town office a town- or city-level rule (a city-level rule falls to the town
 *  where no place is held), a county office for its unincorporated area a county level or else_level. Zoning
 *  follows the survey only there; the build's survey-versus-rules table counts with the same predicate. */
export function ruleNames(
  kind: PermitOffice["kind"],
  rule: { level?: string | null; else_level?: string | null } | null,
): boolean {
  if (kind === "place") return rule?.level === "city" || rule?.else_level === "place" || rule?.else_level === "city";
  if (kind === "town") return rule?.level === "town" || rule?.level === "city";
  return rule?.level === "county" || rule?.else_level === "county";
}

export function surveyBody(
  store: Store,
  chain: JurisdictionRow[],
  fn: Fn,
  zoningRule: RuleText | null,
): SurveyAnswer | null {
  if (fn !== "permits" && fn !== "zoning") return null;
  const found = officeIn(store, chain);
  if (!found) return null;
  if (fn === "zoning" && !ruleNames(found.office.kind, zoningRule)) return null;
  return found;
}

function officeIn(store: Store, chain: JurisdictionRow[]): SurveyAnswer | null {
  const place = chain.find((j) => j.type === "place" && j.incorporated !== 0) ?? null;
  if (place) {
    const o = store.permitOffice(place.jurisdiction_id);
    return o ? { body: place, office: o } : null;
  }
  const cousub = chain.find((j) => j.type === "cousub" && isTownGovernment(j)) ?? null;
  if (cousub) {
    const o = store.permitOffice(cousub.jurisdiction_id);
    if (o) return { body: cousub, office: o };
  }
  const county = chain.find((j) => j.type === "county") ?? null;
  if (!county) return null;
  // where towns issue permits in this state and no town boundary holds the point, the survey cannot tell the
  // county's unincorporated area from a town that issues its own permits: it stays silent
  if (!cousub && store.hasTownPermitOffices(county.jurisdiction_id.slice(7, 9))) return null;
  const o = store.permitOffice(county.jurisdiction_id);
  return o && o.kind === "county_unincorporated" ? { body: county, office: o } : null;
}

/** The sentence every survey-based basis carries. */
export function surveySays(a: SurveyAnswer, fn: Fn): string {
  const what =
    a.office.kind === "county_unincorporated"
      ? `${a.office.name} (the county, outside incorporated places)`
      : a.office.name;
  const imputed = a.office.months_reported === 0 ? " It reported no month of 2024: its figures are imputed." : "";
  const zoning =
    fn === "zoning"
      ? " Zoning is taken to follow permits here (the office that issues permits usually administers zoning)."
      : "";
  return (
    `The Census Bureau's Building Permits Survey (2024) lists ${what} as a permit-issuing office: survey data, not ` +
    `law.${imputed}${zoning}`
  );
}
