// The ONE interface to parcel data (Koop's "provider"): county-data, the MCP tool and the pages ask a
// ParcelSource. The loaded SQLite file is the first source; a PostGIS database or a county's own ArcGIS parcel
// layer can implement the same interface without touching the routes. No member carries a person's name.
import type { Field, ParcelQuery } from "./fields";

export interface CountyInfo {
  countyId: string;
  source: {
    name: string;
    url: string;
    publisher: string | null;
    official: boolean;
    license: string;
    license_class: string;
  };
  apiUse: boolean; // licensed for API use; false → the county answers no_data
  asOf: string | null;
  valueLabel: string | null;
  /** what the loaded file covers when it is less than the county (e.g. one city), said in every answer */
  coverage: string | null;
  /** what the deed reference is (e.g. the registry's book/page) */
  deedLabel: string | null;
  parcelUrlTemplate: string | null;
  fields: Field[]; // the fields this county's data holds
  notes: string[]; // caveats of the mapping (e.g. a row-derived parcel number)
  leftOut: { road: number; water: number; condo: number };
  parcels: number;
}

export interface ParcelRecord {
  countyId: string;
  apn: string;
  situs_address: string | null;
  acres: number | null;
  value: number | null;
  sale_date: string | null;
  sale_price: number | null;
  year_built: number | null;
  sqft: number | null;
  /** the state land-use code (or the county's own), as the input gives it */
  land_use: string | null;
  /** a condominium building: its number of units (folded into the building's parcel) */
  units: number | null;
  /** the last deed's reference (e.g. book/page), as the input gives it */
  deed_ref: string | null;
  lat: number | null;
  lon: number | null;
}

export interface Aggregate {
  n: number;
  value: number | string | null;
}
/** The parcel whose shape holds the point (inside), or the nearest parcel point (no shape held there); record
 * null: parcel shapes are held around the point and none holds it (a street, a railway or water between lots). */
export type NearHit =
  { record: ParcelRecord; distanceM: number; inside: boolean } | { record: null; distanceM: null; inside: false };

export interface ParcelSource {
  /** true when this server holds no parcel store at all (none configured, or no file where the config points):
   *  every county answers no_data saying so; a store that is there and fails is a 503 instead */
  holdsNone?(): boolean;
  counties(): Promise<CountyInfo[]>;
  county(countyId: string): Promise<CountyInfo | null>;
  /** top/bottom: rows ordered by the plan's field (ties by parcel number), after offset, at most limit. */
  rows(plan: ParcelQuery): Promise<ParcelRecord[]>;
  /** count/avg/median over the plan's field within its bounds (value: a number, or a date for sale_date). */
  aggregate(plan: ParcelQuery): Promise<Aggregate>;
  parcel(countyId: string, apn: string): Promise<ParcelRecord | null>;
  /** The parcel whose shape holds the point; where shapes are held around it and none holds it, record null;
   *  only where no shape is held, the nearest parcel point within maxMeters. */
  near(lon: number, lat: number, maxMeters: number): Promise<NearHit | null>;
}
