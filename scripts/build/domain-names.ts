// What a host's own name says about the government it belongs to. Used where a staged row files a host under a
// government (gsa.ts for the GSA govt-urls rows, uscityurl.ts for the UScityURL rows):
//   - countyNamedByHost: the one county of the row's state that the host literally names: co.<x>.<st>.us,
//     <x>county.<st>.gov / <x>county.<state>.gov, countyof<x>.<tld>, <x>county.<tld>, <x>parish.<tld> (optionally
//     followed by "gov"/"government" and the state's code or name: lamourecountynd.com, rushcountykansas.org).
//     With `orgSaysCounty` (the row's own organisation says it is a county) also <x>co, <x>gov, <x>government and
//     <x> alone (osageco.org, vanderburghgov.org, greenegovernment.com, harnett.org);
//   - hostSaysCounty: any name label of the host, less the place's own name, says "county", "counties" or "parish"
//     (vercounty.org, beaver.okcounties.org, co.<x>.<st>.us): a county's (or a county body's) host, never a city's
//     or a village's;
//   - municipalityNamedByHost: the host's name label is "cityof<x>", "townof<x>", "villageof<x>", ... (a town's
//     host, never a county's: townofkershaw.net);
//   - nearSpelling: two name keys that differ by a slip of the pen (Northfolk/Norfolk, Niagra/Niagara), for a row
//     whose organisation misspells the county its host names.
import { BY_POSTAL } from "./states";
import { keyOf, nameTokens } from "./dotgov-names";
import { bareDomain } from "./own-hosts";
import type { JurisdictionIn } from "./records-common";

/** Counties of each state by county key (GovIndex.counties has that shape). */
export type CountiesByKey = Map<string, Map<string, { j: JurisdictionIn }[]>>;

const stateNameKey = (state: string) => keyOf(nameTokens(BY_POSTAL.get(state)?.name ?? ""));

/** The label that names the site's owner: "kanecountyil" in kanecountyil.gov, "saludacounty" in
 *  saludacounty.sc.gov (a name delegated under the state's domain), null for a host under another's site
 *  (watford.mckenziecounty.net). co.<x>.<st>.us is read separately. Hyphens are dropped. */
function nameLabel(host: string, state: string): string | null {
  const l = bareDomain(host).split(".");
  const st = state.toLowerCase();
  if (l.length === 2) return l[0]!.replace(/-/g, "");
  if (l.length === 3 && (l[1] === st || l[1] === stateNameKey(state)) && (l[2] === "gov" || l[2] === "us"))
    return l[0]!.replace(/-/g, "");
  return null;
}

/** "co.<x>.<st>.us": the .us locality name of county x. */
const dotUsCounty = (host: string, state: string): string | null => {
  const m = /^co\.([a-z0-9-]+)\.([a-z]{2})\.us$/.exec(bareDomain(host));
  return m && m[2] === state.toLowerCase() ? m[1]!.replace(/-/g, "") : null;
};

/** The name keys a host label may carry for a county, by the patterns above. */
function countyKeysOfLabel(label: string, state: string, orgSaysCounty: boolean): string[] {
  const st = state.toLowerCase(),
    sn = stateNameKey(state);
  const tail = `(?:gov|government)?(?:${st}${sn ? `|${sn}` : ""})?`;
  const out: string[] = [];
  const grab = (re: RegExp) => {
    const m = re.exec(label);
    if (m?.[1]) out.push(m[1]);
  };
  grab(/^countyof([a-z0-9]+)$/);
  grab(new RegExp(`^([a-z0-9]+?)(?:county|parish)${tail}$`));
  if (orgSaysCounty) {
    grab(new RegExp(`^([a-z0-9]+?)co${tail}$`));
    grab(new RegExp(`^([a-z0-9]+?)(?:gov|government)(?:${st}${sn ? `|${sn}` : ""})?$`));
    grab(new RegExp(`^([a-z0-9]+?)(?:${st}${sn ? `|${sn}` : ""})?$`));
  }
  return [...new Set(out)];
}

/** The one county of `state` the host literally names, or null (none, or several: two patterns giving two
 *  counties). `orgSaysCounty`: the row's own organisation says it is a county, which admits the looser forms. */
export function countyNamedByHost(
  host: string,
  state: string,
  counties: CountiesByKey,
  orgSaysCounty = false,
): JurisdictionIn | null {
  const byKey = counties.get(state);
  if (!byKey || !host) return null;
  const keys: string[] = [];
  const us = dotUsCounty(host, state);
  if (us) keys.push(us);
  const label = nameLabel(host, state);
  if (label) keys.push(...countyKeysOfLabel(label, state, orgSaysCounty));
  const hits = new Map<string, JurisdictionIn>();
  for (const k of keys) {
    const c = byKey.get(k) ?? [];
    if (c.length === 1) hits.set(c[0]!.j.jurisdiction_id, c[0]!.j);
  }
  return hits.size === 1 ? [...hits.values()][0]! : null;
}

/** Does any name label of the host (not the top-level domain, not the state's own code), less the place's own name
 *  key, say county/counties/parish? `placeKey` keeps "County Line" (mycountyline.org) and "Parish" village
 *  (villageofparish-ny.us) their own hosts. */
export function hostSaysCounty(host: string, placeKey: string): boolean {
  const l = bareDomain(host).split(".");
  if (/^co\.[a-z0-9-]+\.[a-z]{2}\.us$/.test(l.join("."))) return true;
  return l
    .slice(0, -1)
    .map((x) => x.replace(/-/g, ""))
    .some((x) => /count(?:y|ies)|parish/.test(placeKey ? x.split(placeKey).join(" ") : x));
}

/** "cityof<x>", "townof<x>", "villageof<x>", "boroughof<x>", "townshipof<x>": the host names a municipality. */
export function municipalityNamedByHost(host: string): boolean {
  const l = bareDomain(host).split(".")[0]!.replace(/-/g, "");
  return /^(?:cityof|townof|villageof|boroughof|townshipof)[a-z]/.test(l);
}

/** Optimal string alignment distance (Damerau-Levenshtein with adjacent transpositions), capped at `max` + 1. */
function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  return d[a.length]![b.length]!;
}

/** Two name keys one slip apart: equal, or at most 1 edit for names of 4-5 letters and 2 for 6 or more
 *  (a letter added, dropped, changed or two swapped: Northfolk/Norfolk, Putman/Putnam, Niagra/Niagara). */
export function nearSpelling(written: string, name: string): boolean {
  if (!written || !name) return false;
  if (written === name) return true;
  const max = name.length >= 6 ? 2 : name.length >= 4 ? 1 : 0;
  return max > 0 && editDistance(written, name, max) <= max;
}
