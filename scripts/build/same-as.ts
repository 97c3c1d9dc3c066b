// same_as pairs: one government listed under two (or three) Census identifiers. Stored in both directions.
import type { JRow, Stats } from "./model";
import { baseName } from "./legal";

/** Consolidated city-counties: county -> its place (GEOID), or null to find the place by the county's base name. */
export const CONSOLIDATED: Record<string, string | null> = {
  "06075": "0667000", // San Francisco
  "08031": "0820000", // Denver
  "08014": "0809280", // Broomfield
  "42101": "4260000", // Philadelphia
  "24510": "2404000", // Baltimore city
  "29510": "2965000", // St. Louis city
  "32510": "3209700", // Carson City
  "22071": "2255000", // Orleans Parish = New Orleans
  "21067": "2146027", // Lexington-Fayette urban county
  "13215": "1319000", // Columbus-Muscogee
  "13053": "1321017", // Cusseta-Chattahoochee County unified government
  "13239": "1332528", // Georgetown-Quitman County unified government
  "02020": "0203000", // Anchorage municipality
  "02110": "0236400", // Juneau city and borough
  "02220": "0270540", // Sitka city and borough
  "02275": "0286380", // Wrangell city and borough
  "02282": null, // Yakutat city and borough
  "02230": null, // Skagway municipality
  // Honolulu (15003): the county is the only government; "Urban Honolulu" is a CDP, so there is no place.
};

/** `extra`: further pairs [a, b, reason] (New England / New Jersey town twins, scripts/build/towns.ts); each group of
 * twins is closed (every member paired with every other), so a group of three stays one answer. */
export function buildSameAs(
  rows: Map<string, JRow>,
  mnPairs: [string, string][],
  stats: Stats,
  extra: [string, string, string][] = [],
): [string, string][] {
  const pairs = new Set<string>();
  const add = (a: string, b: string, why: Record<string, number>, k: string) => {
    if (!rows.has(a) || !rows.has(b) || a === b) {
      why[`${k} (missing record)`] = (why[`${k} (missing record)`] ?? 0) + 1;
      return;
    }
    pairs.add(`${a}\t${b}`);
    pairs.add(`${b}\t${a}`);
    why[k] = (why[k] ?? 0) + 1;
  };
  const why: Record<string, number> = {};
  for (const [c, p] of mnPairs) add(c, p, why, "minnesota city cousub = place");
  for (const [a, b, k] of extra) add(a, b, why, k);
  closeGroups(pairs, extra);

  // Virginia independent cities: county 51xxx (xxx >= 510) named "X city" = place "X city" in Virginia.
  const vaPlaces = new Map<string, string[]>();
  for (const r of rows.values())
    if (r.type === "place" && r.state_fips === "51") {
      const k = r.name.toLowerCase();
      vaPlaces.set(k, [...(vaPlaces.get(k) ?? []), r.jurisdiction_id]);
    }
  const vaMiss: string[] = [];
  for (const r of rows.values()) {
    if (r.type !== "county" || r.state_fips !== "51" || Number(r.jurisdiction_id.slice(9)) < 510) continue;
    const m = vaPlaces.get(r.name.toLowerCase()) ?? [];
    if (m.length === 1) add(r.jurisdiction_id, m[0]!, why, "virginia independent city");
    else {
      why["virginia independent city (no unique place of that name)"] =
        (why["virginia independent city (no unique place of that name)"] ?? 0) + 1;
      vaMiss.push(r.name);
    }
  }

  for (const [county, place] of Object.entries(CONSOLIDATED)) {
    const c = rows.get(`county:${county}`);
    if (!c) {
      why["consolidated city-county (county missing)"] = (why["consolidated city-county (county missing)"] ?? 0) + 1;
      continue;
    }
    let pid = place ? `place:${place}` : null;
    if (!pid) {
      const base = baseName(c.name).toLowerCase();
      const m = [...rows.values()].filter(
        (r) => r.type === "place" && r.state_fips === c.state_fips && baseName(r.name).toLowerCase() === base,
      );
      pid = m.length === 1 ? m[0]!.jurisdiction_id : null;
    }
    if (pid) add(c.jurisdiction_id, pid, why, "consolidated city-county");
    else why["consolidated city-county (no place found)"] = (why["consolidated city-county (no place found)"] ?? 0) + 1;
  }

  // District of Columbia: state, county-equivalent and place are one government.
  add("state:11", "county:11001", why, "district of columbia");
  add("state:11", "place:1150000", why, "district of columbia");
  add("county:11001", "place:1150000", why, "district of columbia");

  // A county-equivalent that OCD lists only as its city (Virginia cities, Baltimore, St. Louis, Carson City, DC)
  // takes the OCD id of that same division.
  let ocdFilled = 0;
  const partners = new Map<string, string[]>();
  for (const p of pairs) {
    const [a, b] = p.split("\t") as [string, string];
    partners.set(a, [...(partners.get(a) ?? []), b]);
  }
  for (const [id, others] of [...partners].sort()) {
    const r = rows.get(id)!;
    if (r.type !== "county" || r.ocd_id) continue;
    const ids = [...new Set(others.map((o) => rows.get(o)?.ocd_id).filter(Boolean))];
    if (ids.length === 1) {
      r.ocd_id = ids[0]!;
      ocdFilled++;
    }
  }
  if (ocdFilled) stats.note(`ocd_id of ${ocdFilled} county-equivalents taken from their same_as city or district`);
  for (const [k, v] of Object.entries(why)) stats.note(`same_as ${k}: ${v}`);
  if (vaMiss.length)
    stats.note(
      `same_as virginia cities without a unique place: ${vaMiss.slice(0, 8).join(", ")}${vaMiss.length > 8 ? " ..." : ""}`,
    );
  return [...pairs].sort().map((s) => s.split("\t") as [string, string]);
}

/** Pair every two members of a group linked by `extra` pairs (a recoded town, its new code and its place). */
function closeGroups(pairs: Set<string>, extra: [string, string, string][]) {
  const link = new Map<string, Set<string>>();
  for (const [a, b] of extra) {
    if (!pairs.has(`${a}\t${b}`)) continue;
    for (const [x, y] of [
      [a, b],
      [b, a],
    ] as const)
      link.set(x, (link.get(x) ?? new Set()).add(y));
  }
  const done = new Set<string>();
  for (const start of link.keys()) {
    if (done.has(start)) continue;
    const group: string[] = [],
      todo = [start];
    while (todo.length) {
      const x = todo.pop()!;
      if (done.has(x)) continue;
      done.add(x);
      group.push(x);
      for (const y of link.get(x) ?? []) todo.push(y);
    }
    for (const a of group) for (const b of group) if (a !== b) pairs.add(`${a}\t${b}`);
  }
}
