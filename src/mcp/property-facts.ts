// get_property_facts: the only way to single-property facts (spec part 1). By parcel number and county (id or
// name), or by a point (the parcel at it, or the nearest within a stated distance). The parcel's facts, the
// chain and who assesses, collects tax and records deeds there, source, as_of and the caveat. Never owners.
import { DomainError } from "../domain/errors";
import type { Directory } from "../directory/directory";
import type { ParcelSource, ParcelRecord, CountyInfo } from "../parcels/source";
import { noDataReason, parcelFacts, parcelUrl, OFFICIAL, OWNERS_REFUSAL } from "../parcels/county-data";
import { countyNamesOf } from "../parcels/county-names";
import { countyIn } from "../parcels/question";
import { asksAboutPeople } from "../parcels/people-words";
import { chainFacts, resolveChain } from "./chain";

interface FactsInput {
  apn?: string;
  county?: string;
  lat?: number;
  lon?: number;
  max_distance_m?: number;
  fields?: string[];
  question?: string;
}
type FactsResult = { refusal: string } | { facts: Record<string, unknown> };

/** By point: the parcel whose shape holds the point, else one within AT_POINT_M counts as the property; the search
 *  reaches max_distance_m (default DEFAULT_DISTANCE_M), and a parcel found farther than AT_POINT_M is reported as
 *  the nearest parcel with its distance, never as the property (found: false). */
const AT_POINT_M = 25;
export const DEFAULT_DISTANCE_M = 25;
export const MAX_DISTANCE_M = 1000;
const CAVEAT = `${OFFICIAL} These facts come from the loaded county file named in source, as of its date; confirm them with the county's assessor.`;

// a request for any owner field or an owner question is refused (THE rule: src/parcels/people-words.ts)
const wantsOwners = (i: FactsInput) => [...(i.fields ?? []), i.question ?? ""].some((f) => asksAboutPeople(f));

function parcelOut(r: ParcelRecord, info: CountyInfo) {
  return {
    ...parcelFacts(r, info),
    building_sqft: r.sqft,
    land_use: r.land_use,
    units: r.units,
    deed_reference: r.deed_ref ? { text: r.deed_ref, what: info.deedLabel } : null,
    parcel_map_url: parcelUrl(info.parcelUrlTemplate, r.apn),
    lat: r.lat,
    lon: r.lon,
  };
}

function countyIdOf(text: string, dir: Directory | null): string {
  const t = text.trim();
  if (/^county:\d{5}$/.test(t)) return t;
  const names = countyNamesOf(dir);
  const ref = countyIn(/\b(county|parish|borough)\b/i.test(t) ? `in ${t}` : `in ${t} County`).ref;
  const found = ref && !("id" in ref) ? names.find(ref.name, ref.state) : [];
  if (found.length === 1) return found[0]!.id;
  throw new DomainError(
    "bad-parameter",
    found.length
      ? `'${t}' names ${found.length} counties (${found
          .slice(0, 5)
          .map((c) => `${c.label}: ${c.id}`)
          .join("; ")}); give the state or the county id.`
      : `No county named '${t}'; give a county id such as county:53033 or a name such as "King County, WA".`,
  );
}

/** The counties whose parcel facts this server gives (loaded and licensed for API use), with their names; none
 *  when the store fails. */
export async function countiesWithData(parcels: ParcelSource, dir: Directory | null) {
  const names = countyNamesOf(dir);
  return (await parcels.counties().catch(() => []))
    .filter((c) => c.apiUse)
    .map((c) => ({ county: c.countyId, name: names.label(c.countyId) ?? c.countyId }));
}

export async function propertyFacts(parcels: ParcelSource, dir: Directory | null, i: FactsInput): Promise<FactsResult> {
  if (wantsOwners(i)) return { refusal: OWNERS_REFUSAL };
  const byPoint = i.lat !== undefined && i.lon !== undefined;
  if (!byPoint && !(i.apn && i.county))
    throw new DomainError("bad-parameter", "Give apn with county (id or name), or lat with lon.");
  let rec: ParcelRecord | null = null,
    between = false,
    countyId: string,
    match: Record<string, unknown>;
  if (byPoint) {
    const dist = Math.min(MAX_DISTANCE_M, Math.max(0, i.max_distance_m ?? DEFAULT_DISTANCE_M));
    const hit = await parcels.near(i.lon!, i.lat!, dist);
    rec = hit?.record ?? null;
    between = !!hit && !hit.record;
    countyId =
      rec?.countyId ??
      (dir
        ? (dir.resolvePoint(i.lon!, i.lat!).data.jurisdictions.find((j) => j.type === "county")?.jurisdiction_id ?? "")
        : "");
    match = {
      by: "point",
      max_distance_m: dist,
      inside_parcel_shape: hit?.inside ?? false,
      distance_m: hit?.distanceM != null ? Math.round(hit.distanceM * 10) / 10 : null,
    };
  } else {
    countyId = countyIdOf(i.county!, dir);
    rec = await parcels.parcel(countyId, i.apn!.trim());
    match = { by: "apn", apn: i.apn!.trim(), county: countyId };
  }
  const info = countyId ? await parcels.county(countyId) : null;
  const label = (countyId && countyNamesOf(dir).label(countyId)) || countyId || "this place";
  const none = noDataReason(info, label, parcels.holdsNone?.() ?? false);
  if (none) {
    // a county that answers no_data exposes nothing derived from its rows: no match distance, no shape test, no
    // parcel position (the chain below is resolved from the caller's own point)
    rec = null;
    if (byPoint) match = { ...match, inside_parcel_shape: false, distance_m: null };
  }
  let where: ReturnType<typeof chainFacts> | null = null;
  if (dir) {
    const sel =
      rec?.lat != null && rec.lon != null
        ? { lat: rec.lat, lon: rec.lon }
        : byPoint
          ? { lat: i.lat!, lon: i.lon! }
          : { jurisdiction_id: countyId };
    try {
      where = chainFacts(await resolveChain(dir, sel), ["assessment", "tax_collection", "recording"]);
    } catch (e) {
      if (!(e instanceof DomainError)) throw e;
    }
  }
  const base = {
    match,
    county: countyId || null,
    jurisdictions: where?.jurisdictions ?? [],
    who_assesses_collects_records: where?.who_does_what ?? null,
    caveat: CAVEAT,
  };
  if (none || !info) {
    return {
      facts: {
        ...base,
        parcel: null,
        found: false,
        note: none ?? "No parcel data here.",
        parcel_data_here: await countiesWithData(parcels, dir),
      },
    };
  }
  const source = {
    name: info.source.name,
    url: info.source.url,
    publisher: info.source.publisher,
    license: info.source.license,
    as_of: info.asOf,
  };
  const covers = info.coverage ? ` The loaded data covers ${info.coverage}.` : "";
  if (!rec)
    return {
      facts: {
        ...base,
        parcel: null,
        found: false,
        note: between
          ? `The point lies in no parcel's shape of ${label}'s loaded data: parcel shapes are held around it, so it is most likely on a street, a railway or water between lots (no nearest parcel is guessed).${covers}`
          : byPoint
            ? `No parcel of ${label} within ${match.max_distance_m} m of the point.${covers}`
            : `No parcel ${i.apn} in ${label}'s loaded data.`,
        source,
      },
    };
  if (byPoint && !match.inside_parcel_shape && Number(match.distance_m) > AT_POINT_M)
    return {
      facts: {
        ...base,
        parcel: null,
        found: false,
        nearest_parcel: { ...parcelOut(rec, info), distance_m: match.distance_m },
        note: `No parcel of ${label} at the point (its shape is not held, or the point is in none): the nearest parcel point is ${match.distance_m} m away. That parcel is not the property at the point; give its apn to ask about it.`,
        notes: info.notes,
        source,
      },
    };
  return {
    facts: {
      ...base,
      parcel: parcelOut(rec, info),
      found: true,
      ...(info.coverage ? { coverage: info.coverage } : {}),
      notes: info.notes,
      source,
    },
  };
}
