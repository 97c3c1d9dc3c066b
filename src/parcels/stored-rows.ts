// How the parcel stores' rows (the SQLite file, PostGIS) become the ParcelSource's records: THE columns of a parcel
// record, in the order both stores write them, and a counties row → CountyInfo (SQLite's 0/1 and PostgreSQL's
// booleans alike).
import type { CountyInfo } from "./source";

export const RECORD_COLUMNS = [
  "county_id",
  "apn",
  "situs_address",
  "acres",
  "value",
  "sale_date",
  "sale_price",
  "year_built",
  "sqft",
  "land_use",
  "units",
  "deed_ref",
  "lat",
  "lon",
] as const;

/** The record columns as a SELECT list (county_id as countyId, the ParcelRecord member). */
export const RECORD_SELECT = RECORD_COLUMNS.map((c) => (c === "county_id" ? `county_id AS "countyId"` : c)).join(", ");

export function countyInfoOf(r: Record<string, any>): CountyInfo {
  return {
    countyId: r.county_id,
    apiUse: r.api_use === 1 || r.api_use === true,
    asOf: r.as_of,
    valueLabel: r.value_label,
    coverage: r.coverage ?? null,
    deedLabel: r.deed_label ?? null,
    parcelUrlTemplate: r.parcel_url_template,
    source: {
      name: r.source_name,
      url: r.source_url,
      publisher: r.publisher,
      official: r.official === 1 || r.official === true,
      license: r.license,
      license_class: r.license_class,
    },
    fields: JSON.parse(r.fields),
    notes: JSON.parse(r.notes),
    leftOut: { road: r.left_road, water: r.left_water, condo: r.left_condo },
    parcels: r.rows_kept,
  };
}
