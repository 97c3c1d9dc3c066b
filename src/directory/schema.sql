-- The data file: directory.sqlite (SpatiaLite 4+ metadata, EPSG:4326). Built by scripts/build-data.ts,
-- opened read-only by the server. The server never needs mod_spatialite: it decodes the geometry blobs itself
-- (src/directory/spatialite-blob.ts). This file is THE contract between the builder and the server.

-- manifest: dataset_version, as_of (ISO date-time), builder_version, content_sha256 (sha256 over the content of
-- every table below except manifest, in a fixed order, see src/directory/manifest.ts: per table its CREATE statement,
-- then its rows in primary-key order, blobs as hex), sources_used (JSON array of source_id), schema_version.
-- as_of is the latest retrieved_at / dated vintage of the sources used, never the wall clock.
CREATE TABLE manifest (key TEXT PRIMARY KEY, value TEXT NOT NULL);

-- Every input and every authored YAML file. documented = 1 when origin (url + publisher + vintage) is known.
CREATE TABLE sources (
  source_id     TEXT PRIMARY KEY,          -- e.g. 'census-us-atlas-2023', 'ocd-division-ids', 'cisa-dotgov', 'authored-state-rules'
  name          TEXT NOT NULL,
  url           TEXT NOT NULL,
  publisher     TEXT,
  official      INTEGER NOT NULL,          -- 0/1
  retrieved_at  TEXT,                      -- ISO date-time or null
  license_class TEXT NOT NULL,             -- open | public_record | restricted_no_redistribution | licensed_third_party | unknown
  license       TEXT,                      -- free text, e.g. 'CC0 1.0', 'public domain', 'ODbL 1.0'
  vintage       TEXT,
  sha256        TEXT,                      -- of the input file used (null for packages where not applicable)
  documented    INTEGER NOT NULL,
  quote         TEXT                       -- a page read by hand: at most 300 characters of it showing what it is
);

-- Jurisdictions: country:us, states/DC/territories, counties, cousubs, places (+ district: bodies).
-- geom is a SpatiaLite MULTIPOLYGON (4326) registered with AddGeometryColumn, NULL where we hold no boundary.
CREATE TABLE jurisdictions (
  jurisdiction_id    TEXT PRIMARY KEY,     -- 'state:27', 'county:27053', 'cousub:2705343000', 'place:2743000', 'country:us'
  type               TEXT NOT NULL,        -- country | state | county | cousub | place | district
  name               TEXT NOT NULL,        -- 'Minneapolis', 'Hennepin County', 'Lake Township'? -> display name as Census NAMELSAD-ish
  legal_type         TEXT,                 -- county, parish, borough, city, town, township, village, charter township, plantation ...
                                           -- (states: 'state' | 'district' | 'territory'); the Census legal word of name
  state              TEXT,                 -- postal code 'MN' (null for country)
  state_fips         TEXT,                 -- '27'
  county_id          TEXT,                 -- for cousub: 'county:' + GEOID[0:5] (null when that code is not a 2023 county, e.g. old CT
                                           -- counties); for place: the county holding its internal point, else null
  ocd_id             TEXT,
  tiger_vintage      TEXT,                 -- '2023', '2019', '2010', '2016' ...
  incorporated       INTEGER,              -- places: 1 incorporated, 0 CDP; others null
  funcstat           TEXT,
  boundary_source    TEXT,                 -- source_id of the geometry, null when none
  boundary_precision TEXT,                 -- 'full' (TIGER full resolution / 1:24k), 'simplified_20m', '1:10m', 'none'
  boundary_rank      INTEGER NOT NULL,     -- higher = more precise (full 3, simplified 2, 1:10m 1, none 0)
  min_x REAL, min_y REAL, max_x REAL, max_y REAL,  -- bbox of geom, null when none
  source_id          TEXT NOT NULL,        -- source of the record itself
  documented         INTEGER NOT NULL      -- 0 = origin undocumented: stored, flagged, left out of answers
);
-- SELECT AddGeometryColumn('jurisdictions','geom',4326,'MULTIPOLYGON','XY'); SELECT CreateSpatialIndex('jurisdictions','geom');

CREATE TABLE same_as (jurisdiction_id TEXT NOT NULL, other_id TEXT NOT NULL, PRIMARY KEY (jurisdiction_id, other_id));

-- State rules: one row per state/DC/territory. rules_json = StateRules of spec part 2 without page_url, and each
-- Rule may carry evidence_url. source_id points at the authored YAML's source.
CREATE TABLE state_rules (state TEXT PRIMARY KEY, name TEXT NOT NULL, rules_json TEXT NOT NULL, source_id TEXT NOT NULL);

CREATE TABLE offices (
  office_id TEXT PRIMARY KEY, jurisdiction_id TEXT NOT NULL, name TEXT NOT NULL, kind TEXT,
  function TEXT,                          -- assessment | tax_collection | recording | zoning | permits | gis | null
  phone TEXT, email TEXT, address TEXT, url TEXT,
  verified_status TEXT NOT NULL, verified_at TEXT, source_kind TEXT NOT NULL, source_id TEXT, documented INTEGER NOT NULL
);

CREATE TABLE resources (
  resource_id TEXT PRIMARY KEY, jurisdiction_id TEXT NOT NULL, name TEXT NOT NULL, description TEXT,
  url TEXT NOT NULL, search_url_template TEXT,
  topics TEXT NOT NULL,                   -- JSON array of Topic
  publisher TEXT, provider TEXT, official INTEGER NOT NULL,
  verified_status TEXT NOT NULL, verified_at TEXT, verification_method TEXT, last_http_status INTEGER,
  source_kind TEXT NOT NULL,              -- 'cisa-dotgov-registry', 'hand-added', 'national-list', ...
  source_id TEXT, documented INTEGER NOT NULL,
  sort_key INTEGER NOT NULL               -- fixed rank within its jurisdiction (lower first)
);

-- Read by key at start-up and on first use (src/directory/store.ts): a jurisdiction's resources, and the states
-- with county subdivision records, without a scan of the table.
CREATE INDEX resources_by_jurisdiction ON resources (jurisdiction_id);
CREATE INDEX jurisdictions_by_type ON jurisdictions (type, documented, state_fips);

-- Local overrides of who performs a function (e.g. a Minnesota city with its own assessor).
CREATE TABLE function_overrides (
  jurisdiction_id TEXT NOT NULL, function TEXT NOT NULL, performer_id TEXT, office_id TEXT,
  role TEXT NOT NULL DEFAULT 'primary', levy_scope TEXT, basis TEXT, evidence_url TEXT, source_id TEXT NOT NULL,
  PRIMARY KEY (jurisdiction_id, function, role)
);

-- Census Building Permits Survey 2024: one row per permit-issuing office (scripts/build/bps.ts). Survey data, not law.
CREATE TABLE permit_survey (
  bps_id TEXT PRIMARY KEY, jurisdiction_id TEXT NOT NULL, county_id TEXT NOT NULL, kind TEXT NOT NULL, name TEXT NOT NULL,
  population INTEGER NOT NULL, months_reported INTEGER NOT NULL, held INTEGER NOT NULL, source_id TEXT NOT NULL
);
CREATE INDEX permit_survey_by_jurisdiction ON permit_survey (jurisdiction_id);

CREATE TABLE radon_zones (county_id TEXT PRIMARY KEY, zone TEXT NOT NULL, edition TEXT NOT NULL, note TEXT, source_id TEXT NOT NULL);

CREATE TABLE topics (topic TEXT PRIMARY KEY, json TEXT NOT NULL, source_id TEXT NOT NULL);
CREATE TABLE guides (topic TEXT PRIMARY KEY, json TEXT NOT NULL, source_id TEXT NOT NULL);

-- The point index's feature list, derived by the builder from jurisdictions (src/directory/boundary-pack.ts): keys
-- format, count, ids, counties (text, one per line, R3 order), types (one byte each), boxes (4 little-endian float64
-- each). Read at start instead of scanning jurisdictions; not part of content_sha256 (derived), covered by the seal.
CREATE TABLE boundary_pack (key TEXT PRIMARY KEY, value BLOB NOT NULL);

-- Name search (FTS5, prefix matching). kind = 'place' | 'resource'; ref = jurisdiction_id or resource_id.
-- Person names are never indexed.
CREATE VIRTUAL TABLE name_search USING fts5(name, kind UNINDEXED, ref UNINDEXED, state UNINDEXED, prefix='2 3 4', tokenize='unicode61 remove_diacritics 2');
