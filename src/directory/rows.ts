// The rows of the data file's tables (exact column names of src/directory/schema.sql), as the store hands them
// out: one definition for the server and the builder (scripts/build writes these rows; its resource row keeps
// topics as the JSON text it stores, its source row may carry the quote of a page read).
export interface JurisdictionRow {
  jurisdiction_id: string;
  type: string;
  name: string;
  legal_type: string | null;
  state: string | null;
  state_fips: string | null;
  county_id: string | null;
  ocd_id: string | null;
  tiger_vintage: string | null;
  incorporated: number | null;
  source_id: string;
  documented: number;
  /** Census FUNCSTAT: A, B, C, G = an active government; F, I, N, S = none (e.g. Maine's unorganized territories) */
  funcstat?: string | null;
  /** source of the polygon the point index holds (a point answer cites it) */
  boundary_source?: string | null;
}
export interface ResourceRow {
  resource_id: string;
  jurisdiction_id: string;
  name: string;
  description: string | null;
  url: string;
  search_url_template: string | null;
  topics: string[];
  publisher: string | null;
  provider: string | null;
  official: number;
  verified_status: string;
  verified_at: string | null;
  verification_method: string | null;
  last_http_status: number | null;
  source_kind: string;
  source_id: string | null;
  documented: number;
  sort_key: number;
}
export interface OfficeRow {
  office_id: string;
  jurisdiction_id: string;
  name: string;
  kind: string | null;
  function: string | null;
  phone: string | null;
  email: string | null;
  address: string | null;
  url: string | null;
  verified_status: string;
  verified_at: string | null;
  source_kind: string;
  source_id: string | null;
  documented: number;
}
export interface OverrideRow {
  jurisdiction_id: string;
  function: string;
  performer_id: string | null;
  office_id: string | null;
  role: string;
  levy_scope: string | null;
  basis: string | null;
  evidence_url: string | null;
  source_id: string;
}
export interface SourceRow {
  source_id: string;
  name: string;
  url: string;
  publisher: string | null;
  official: number;
  retrieved_at: string | null;
  license_class: string;
  license: string | null;
  vintage: string | null;
  sha256: string | null;
  documented: number;
}
