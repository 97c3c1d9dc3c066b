// Radon: EPA Map of Radon Zones (1993), by county, from the data file (scripts/build/radon.ts builds the table):
// no outside call, ever.
// STATUS TABLE: zone 1 → zone_1 (predicted average indoor level above 4 pCi/L), zone 2 → zone_2 (2 to 4 pCi/L),
// zone 3 → zone_3 (below 2 pCi/L), county not on the map (DC, territories, ambiguous new counties) → not_listed;
// a data file built without the map (build-data --sources none) → unknown, "not available on this server": the
// absence of the table is never read as "not on the map".
import type { FactDef, Reading } from "./types";

export interface RadonRow {
  zone: string;
  edition: string;
  note: string | null;
}

const SUMMARY: Record<string, string> = {
  zone_1: "EPA radon zone 1: the county's predicted average indoor radon level is above 4 pCi/L (highest potential).",
  zone_2: "EPA radon zone 2: the county's predicted average indoor radon level is 2 to 4 pCi/L (moderate potential).",
  zone_3: "EPA radon zone 3: the county's predicted average indoor radon level is below 2 pCi/L (low potential).",
  not_listed: "This county is not on the EPA Map of Radon Zones.",
};

/** The radon fact: answered everywhere, from the data file (no outside service, no config block). */
export const radon: FactDef = {
  name: "radon",
  label: "Radon zone",
  // "unknown" beyond the spec's list: only from a data file built without the radon map (issue 22: never "no" for
  // data that is not loaded; README reference table, "Facts from data that is not loaded")
  statuses: ["zone_1", "zone_2", "zone_3", "not_listed", "unknown"],
  topic: null,
  caveat:
    "Screening only: the zone is a county-wide prediction from 1993. Any home can have high radon; only a radon test of the building tells.",
  decider: () => ({
    description:
      "No office decides: a radon test of the building does. The state radon program gives advice and lists certified testers.",
    function: null,
  }),
};

const RADON_NOT_LOADED =
  "Not available on this server: the EPA Map of Radon Zones is not loaded in its data file (built without the staged sources).";

export function radonReading(row: RadonRow | null, countyName: string | null, loaded = true): Reading {
  if (!loaded)
    return {
      status: "unknown",
      summary: RADON_NOT_LOADED,
      detail: `The data file holds no radon table, so ${countyName ?? "the county"}'s zone is not known here; it is not a finding that the county is off the map.`,
      values: { zone: null, county_level: true },
      dataset: "EPA Map of Radon Zones, 1993",
      publisher: "U.S. Environmental Protection Agency",
      as_of: null,
    };
  const zone = row && /^zone_[123]$/.test(row.zone) ? row.zone : "not_listed";
  return {
    status: zone,
    summary: SUMMARY[zone]!,
    detail: [countyName ? `County: ${countyName}.` : null, row?.note ?? null].filter(Boolean).join(" ") || null,
    values: { zone: zone === "not_listed" ? null : Number(zone.slice(5)), county_level: true },
    dataset: row?.edition ?? "EPA Map of Radon Zones, 1993",
    publisher: "U.S. Environmental Protection Agency",
    as_of: "1993",
  };
}
