// The topic and function vocabulary of spec part 2: the ONE table. Names and descriptions live in data/topics.yaml.
export const FUNCTIONS = ["assessment", "tax_collection", "recording", "zoning", "permits", "gis"] as const;
export type Fn = (typeof FUNCTIONS)[number];

/** Topic -> the functions it serves. Order is the order of /v1/topics. Topics are added, never renamed. */
export const TOPIC_FUNCTIONS = {
  parcel_map: ["gis", "assessment"],
  county_gis: ["gis"],
  assessor: ["assessment"],
  property_tax_payment: ["tax_collection"],
  tax_collector: ["tax_collection"],
  recorder_deeds: ["recording"],
  plats_surveys: ["recording"],
  zoning: ["zoning"],
  building_permits: ["permits"],
  septic_well: ["permits"],
  wetlands: [],
  floodplain: ["zoning"],
  soils: [],
  elevation: ["gis"],
  roads_right_of_way: [],
  public_land: [],
  property_records_general: ["assessment", "recording"],
} as const satisfies Record<string, readonly Fn[]>;

export type Topic = keyof typeof TOPIC_FUNCTIONS;
export const TOPICS = Object.keys(TOPIC_FUNCTIONS) as Topic[];

/** Deprecated topic name -> replacement (empty until a topic is deprecated). */
export const TOPIC_ALIASES: Record<string, Topic> = {};

/** function -> topics serving it, in vocabulary order; the first topic of tax_collection is property_tax_payment. */
export const FUNCTION_TOPICS: Record<Fn, Topic[]> = Object.fromEntries(
  FUNCTIONS.map((f) => [f, TOPICS.filter((t) => (TOPIC_FUNCTIONS[t] as readonly Fn[]).includes(f))]),
) as Record<Fn, Topic[]>;

export const JURISDICTION_TYPES = ["country", "state", "county", "cousub", "place", "district"] as const;
export const VERIFIED_STATUSES = ["verified", "not_yet_verified", "possibly_broken"] as const;
export const LICENSE_CLASSES = [
  "open",
  "public_record",
  "restricted_no_redistribution",
  "licensed_third_party",
  "unknown",
] as const;

/** Providers that keep copies of a publisher's files (OpenAddresses' mirror, code-hosting sites): a resource they
 *  provide is a copy, never official, never among a function's links (it stays in the body's /resources list). */
export const COPY_PROVIDERS: readonly string[] = ["OpenAddresses", "GitHub"];
