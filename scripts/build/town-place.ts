// Whether a county subdivision is another government than the place of the same name: the Town of Hempstead and the
// Village of Hempstead (NY), the Town of Groton and the City of Groton (CT), Franklin Township (Somerset) and Franklin
// borough (Sussex, NJ). Used where a staged row's domain, filed under the town by the row's own words, would also go
// to the same-named place by its name alone (registry-hosts.ts, uscityurl.ts).
// One government, never "another": the same kind (a Wisconsin city and its county subdivision; a New Jersey borough);
// a city or town of Massachusetts, New Hampshire, Maine or Rhode Island, which is its own county subdivision whatever
// the Census calls it (Framingham city, "Framingham town"); a consolidated or metro government (Louisville).
import { keyOf, nameTokens } from "./dotgov-names";
import { placeBase } from "../../src/directory/names";
import type { JurisdictionIn } from "./records-common";

const ONE_TIER = new Set(["MA", "NH", "ME", "RI"]);
/** Legal kinds of an ordinary municipality: any other (consolidated government, unified government, metro
 *  government, "(balance)") is a government that is also its county. */
export const MUNICIPAL = new Set(["city", "town", "village", "borough", "township"]);
/** A place's or subdivision's legal kind ("city", "town", "village" ...; "" when none is known). */
export const kindOf = (j: JurisdictionIn) => (j.legal_type ?? placeBase(j.name).legal ?? "").toLowerCase();
/** A place's or subdivision's name key ("leaguecity", "hempstead"). */
export const nameKey = (j: Pick<JurisdictionIn, "name">) => keyOf(nameTokens(placeBase(j.name).base));

/** A place of no ordinary municipal kind (a consolidated, unified or metro government, a "(balance)") lying in the
 *  county: one government with that county (Echols County consolidated government, Butte-Silver Bow). */
export const oneWithItsCounty = (place: JurisdictionIn, county: JurisdictionIn) =>
  place.county_id === county.jurisdiction_id && !MUNICIPAL.has(kindOf(place));

export function anotherOfTheName(place: JurisdictionIn, other: JurisdictionIn): boolean {
  return (
    other.type === "cousub" &&
    !!place.state &&
    other.state === place.state &&
    !ONE_TIER.has(place.state) &&
    MUNICIPAL.has(kindOf(place)) &&
    kindOf(other) !== kindOf(place) &&
    nameKey(other) === nameKey(place)
  );
}
