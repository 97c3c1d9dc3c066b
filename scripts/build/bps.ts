// Census Building Permits Survey 2024, permit-issuing places (census-bps/{ne,mw,so,we}2024a.txt): who issues
// building permits, one row per permit office. Survey data, not law (a place missing from it may have no permit
// system or be served by its county or the state; 3,598 rows reported 0 months and are imputed): every answer built
// on it says so. Kinds of row and the jurisdiction each stands for:
//   place                  FIPS place code (not 00000/99990)     -> place:SS PPPPP
//   town                   FIPS MCD code only (towns, townships) -> cousub:SS CCC MMMMM
//   county_unincorporated  place code 99990                      -> county:SS CCC (the county, outside places)
//   other                  neither (e.g. "Adams County Part")    -> county:SS CCC, kept for population only
// The Pop column is the survey's population figure per permit office (vintage not stated): summed by county it
// weighs the coverage table (scripts/build/coverage.ts).
import type { Inputs } from "./inputs";
import type { JRow, Stats } from "./model";
import { ruleNames } from "../../src/directory/permit-survey";

export const BPS_FILES = ["ne", "mw", "so", "we"].map((r) => `census-bps-2024-${r}`);

export interface PermitSurveyRow {
  bps_id: string; // state FIPS + "-" + the 6-digit survey id
  jurisdiction_id: string;
  county_id: string;
  kind: "place" | "town" | "county_unincorporated" | "other";
  name: string;
  population: number;
  months_reported: number;
  held: number; // 1 when jurisdiction_id is a jurisdiction of the data file
  source_id: string;
}

export function parseBps(text: string, sourceId: string): Omit<PermitSurveyRow, "held">[] {
  const out: Omit<PermitSurveyRow, "held">[] = [];
  // two header lines, then a line holding one space, then data; values padded with spaces
  for (const line of text.split(/\r?\n/).slice(3)) {
    if (!line.trim()) continue;
    const c = line.split(",").map((s) => s.trim());
    const [st, id6, county, place, mcd] = [c[1]!, c[2]!, c[3]!, c[5]!, c[6]!];
    if (!/^\d{2}$/.test(st) || !/^\d{3}$/.test(county)) continue;
    const countyId = `county:${st}${county}`;
    const kind: PermitSurveyRow["kind"] =
      place === "99990"
        ? "county_unincorporated"
        : /^\d{5}$/.test(place) && place !== "00000"
          ? "place"
          : /^\d{5}$/.test(mcd) && mcd !== "00000"
            ? "town"
            : "other";
    const jid = kind === "place" ? `place:${st}${place}` : kind === "town" ? `cousub:${st}${county}${mcd}` : countyId;
    out.push({
      bps_id: `${st}-${id6}`,
      jurisdiction_id: jid,
      county_id: countyId,
      kind,
      name: c[16] ?? "",
      population: Number(c[7]) || 0,
      months_reported: Number(c[15]) || 0,
      source_id: sourceId,
    });
  }
  return out;
}

export async function buildPermitSurvey(inputs: Inputs, rows: Map<string, JRow>, stats: Stats) {
  const out: PermitSurveyRow[] = [];
  for (const id of BPS_FILES) {
    if (!inputs.has(id)) continue;
    for (const r of parseBps(await inputs.text(id), id)) out.push({ ...r, held: rows.has(r.jurisdiction_id) ? 1 : 0 });
  }
  if (!out.length) {
    stats.note("permit survey (census-bps): not present; permits follow the state rules alone");
    return out;
  }
  const n = (k: string, held?: boolean) =>
    out.filter((r) => r.kind === k && (held === undefined || !!r.held === held)).length;
  stats.note(
    `permit survey (census-bps 2024): ${out.length} permit offices: places ${n("place")} (${n("place", true)} held), ` +
      `towns ${n("town")} (${n("town", true)} held), county unincorporated areas ${n("county_unincorporated")} ` +
      `(${n("county_unincorporated", true)} held), other ${n("other")}; imputed (0 months reported) ` +
      `${out.filter((r) => r.months_reported === 0).length}`,
  );
  return out;
}

export interface StateComparison {
  state: string;
  level: string | null;
  else_level: string | null;
  place: [number, number]; // [agree, disagree]
  town: [number, number];
  county: [number, number];
}

/** The survey against each state's zoning rule (which permits follow without the survey), per kind of office:
 *  a place office agrees when the rule's level is city (or its else_level place/city); a town office when the
 *  level is town or city (a city-level rule falls to the town where no place is held); a county office for its
 *  unincorporated area when the level or else_level is county. Held rows only. */
export function compareWithRules(
  rows: PermitSurveyRow[],
  stateOf: (fips: string) => string | null,
  zoningRule: (state: string) => { level?: string | null; else_level?: string | null } | null,
): StateComparison[] {
  const by = new Map<string, StateComparison>();
  for (const r of rows) {
    if (!r.held || r.kind === "other") continue;
    const st = stateOf(r.county_id.slice(7, 9));
    if (!st) continue;
    const rule = zoningRule(st);
    const c =
      by.get(st) ??
      by
        .set(st, {
          state: st,
          level: rule?.level ?? null,
          else_level: rule?.else_level ?? null,
          place: [0, 0],
          town: [0, 0],
          county: [0, 0],
        })
        .get(st)!;
    const ok = ruleNames(r.kind, rule);
    const slot = r.kind === "county_unincorporated" ? c.county : r.kind === "town" ? c.town : c.place;
    slot[ok ? 0 : 1]++;
  }
  return [...by.values()].sort((a, b) => (a.state < b.state ? -1 : 1));
}

/** A markdown table of the states where the survey and the rule disagree, and a line for the rest. */
export function comparisonLines(cs: StateComparison[]): string[] {
  const f = ([a, d]: [number, number]) => (a + d ? (d ? `${d} of ${a + d} disagree` : `${a} agree`) : "–");
  const bad = cs.filter((c) => c.place[1] + c.town[1] + c.county[1] > 0);
  const lines = [
    "| state | zoning rule (level / else) | place offices | town offices | county offices (unincorporated) |",
    "|---|---|---|---|---|",
    ...bad.map(
      (c) =>
        `| ${c.state} | ${c.level ?? "–"} / ${c.else_level ?? "–"} | ${f(c.place)} | ${f(c.town)} | ${f(c.county)} |`,
    ),
  ];
  lines.push(
    "",
    `States where every survey office agrees with the rule: ${cs
      .filter((c) => !bad.includes(c))
      .map((c) => c.state)
      .join(", ")}.`,
  );
  return lines;
}
