// Names in the CISA .gov registry and the Census: name tokens and keys, county keys, and the name variants an
// organisation name may stand for (dotgov.ts matches them to governments; gsa.ts, oa-rules.ts and
// registry-hosts.ts use the same tokens).
import { BY_POSTAL } from "./states";
import type { JurisdictionIn } from "./records-common";
import { placeBase } from "../../src/directory/names";

// ---------------------------------------------------------------- names

const ALIAS: Record<string, string> = {
  saint: "st",
  sainte: "ste",
  mount: "mt",
  fort: "ft",
  twp: "township",
  twsp: "township",
  vlg: "village",
};

/** Lower-case word tokens: diacritics removed, camel case split, punctuation dropped, Saint/St., Mount/Mt. unified. */
export function nameTokens(s: string): string[] {
  const t = s
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/([a-z])([A-Z][a-z])/g, "$1 $2")
    .toLowerCase()
    .replace(/&/g, " and ")
    .replace(/['’`]/g, "")
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
  return t ? t.split(" ").map((w) => ALIAS[w] ?? w) : [];
}
export const keyOf = (tokens: string[]) => tokens.join("");

const endsWith = (t: string[], s: string[]) =>
  t.length > s.length && s.every((w, i) => t[t.length - s.length + i] === w);
const startsWith = (t: string[], s: string[]) => t.length > s.length && s.every((w, i) => t[i] === w);
const words = (list: string[]) => list.map((s) => s.split(" ")).sort((a, b) => b.length - a.length);

const COUNTY_LEGAL = words([
  "county",
  "parish",
  "borough",
  "city and borough",
  "census area",
  "municipality",
  "planning region",
]);

export function countyKey(name: string): string {
  let t = nameTokens(name);
  for (const w of COUNTY_LEGAL)
    if (endsWith(t, w)) {
      t = t.slice(0, t.length - w.length);
      break;
    }
  return keyOf(t);
}
export const effLegal = (j: JurisdictionIn): string | null =>
  j.legal_type ? j.legal_type.toLowerCase() : placeBase(j.name).legal;

// ---------------------------------------------------------------- organization names -> name variants

export interface Variant {
  key: string;
  hint: string | null;
}

const CITY_PREFIX: [string[], string | null][] = [
  ["city and county of", "city"],
  ["city and borough of", "city"],
  ["city hall", "city"],
  ["incorporated village of", "village"],
  ["inc village of", "village"],
  ["charter township of", "township"],
  ["consolidated government of", null],
  ["unified government of", null],
  ["metropolitan government of", null],
  ["city of", "city"],
  ["town of", "town"],
  ["village of", "village"],
  ["township of", "township"],
  ["borough of", "borough"],
  ["municipality of", null],
].map(([p, h]) => [(p as string).split(" "), h as string | null]);
const COUNTY_PREFIX: string[][] = words([
  "commissioners of",
  "board of commissioners of",
  "board of county commissioners of",
  "city and county of",
  "city and borough of",
  "consolidated government of",
  "unified government of",
  "county of",
  "parish of",
  "borough of",
  "municipality of",
]);
const CITY_ADMIN = words([
  "government",
  "govt",
  "city hall",
  "town hall",
  "village hall",
  "township hall",
  "borough hall",
  "municipal building",
  "city council",
  "town council",
  "village council",
  "council",
  "board of trustees",
  "township board",
  "town board",
  "board of selectmen",
  "selectboard",
  "select board",
  "administration",
  "offices",
  "office",
  "it department",
  "information technology",
  "information technology department",
  "incorporated",
  "inc",
  "corp",
  "corporation",
  "municipal corporation",
  "official website",
  "consolidated government",
  "unified government",
  "metro government",
  "metropolitan government",
  "urban county government",
  "information services",
  "information technology center",
]);
const CITY_LEGAL: [string[], string][] = [
  ["city of", "city"],
  ["town of", "town"],
  ["village of", "village"],
  ["township of", "township"],
  ["borough of", "borough"],
  ["charter township", "township"],
  ["city", "city"],
  ["town", "town"],
  ["village", "village"],
  ["township", "township"],
  ["borough", "borough"],
].map(([p, h]) => [p!.split(" "), h!]);
const COUNTY_ADMIN = words([
  "government",
  "govt",
  "board of county commissioners",
  "board of commissioners",
  "county commissioners",
  "commissioners",
  "commissioneers",
  "commisioners", // misspelt in the GSA county row for sciotocountyohio.com ("Scioto County Commisioners")
  "county commission",
  "commission",
  "board of commission",
  "boc",
  "bocc",
  "board of supervisors",
  "fiscal court",
  "judge executive",
  "mayors office",
  "it",
  "i t",
  "local government",
  "commissioners office",
  "information services",
  "information technology center",
  "consolidated government",
  "unified government",
  "commissioners court",
  "police jury",
  "courthouse",
  "administration",
  "it department",
  "information technology",
  "information technology department",
  "county council",
  "council",
  "county board",
  "offices",
  "official website",
]);

function stateWords(postal: string): string[][] {
  const s = BY_POSTAL.get(postal);
  const out = [[postal.toLowerCase()]];
  if (s) out.push(nameTokens(s.name), ["state", "of", ...nameTokens(s.name)]);
  return out.sort((a, b) => b.length - a.length);
}

/** Name variants of an organization, from least to most stripped; each carries the legal word it stated. */
export function orgVariants(org: string, type: "County" | "City", state: string): Variant[] {
  let t = nameTokens(org);
  if (t[0] === "the" && t.length > 1) t = t.slice(1);
  let hint: string | null = null;
  if (type === "City") {
    for (const [p, h] of CITY_PREFIX)
      if (startsWith(t, p)) {
        t = t.slice(p.length);
        hint = h;
        break;
      }
  } else {
    for (const p of COUNTY_PREFIX)
      if (startsWith(t, p)) {
        t = t.slice(p.length);
        break;
      }
  }
  const out: Variant[] = [{ key: keyOf(t), hint }];
  const strips: string[][][] = [stateWords(state), type === "City" ? CITY_ADMIN : COUNTY_ADMIN];
  for (let changed = true, guard = 0; changed && guard < 8; guard++) {
    changed = false;
    for (const list of strips) {
      for (const w of list) {
        if (endsWith(t, w)) {
          t = t.slice(0, t.length - w.length);
          out.push({ key: keyOf(t), hint });
          changed = true;
          break;
        }
      }
    }
    if (type === "City") {
      for (const [w, h] of CITY_LEGAL) {
        if (endsWith(t, w)) {
          t = t.slice(0, t.length - w.length);
          hint = hint ?? h;
          out.push({ key: keyOf(t), hint });
          changed = true;
          break;
        }
      }
    } else {
      for (const w of COUNTY_LEGAL)
        if (endsWith(t, w)) {
          t = t.slice(0, t.length - w.length);
          out.push({ key: keyOf(t), hint });
          changed = true;
          break;
        }
    }
  }
  const seen = new Set<string>();
  return out.filter((v) => v.key && !seen.has(v.key + "|" + v.hint) && seen.add(v.key + "|" + v.hint));
}

// "Town of Riverhead - IT Dept.", "Township of Union, Hunterdon County", "Jackson Township in Dauphin County",
// "Township of Hamilton (Atlantic)": a name followed by a qualifier.
const QUALIFIER = /\s+[-\u2013]\s+|\s*,|\s*\(|\s+in\s+(?=[A-Za-z.' ]+\s+(?:County|Co\.?)\b)/i;
const SITE_OFFICE =
  /^(?:it|i t|itsd|isd|it dept|it department|information services|information technology|admin|administration)$/;
const FILLER = new Set([
  "of",
  "in",
  "the",
  "and",
  "county",
  "co",
  "parish",
  "usa",
  "us",
  "town",
  "township",
  "city",
  "village",
  "borough",
]);

/** The name before its qualifier, when the qualifier only says where the government is (its state, its county, a
 *  town or the mailing city: `isPlace` knows those keys) or names the office running its site ("- IT Dept."). A
 *  qualifier naming anything else ("- Police", "Combined Federal Campaign", "Events") is another body's row: null. */
export function qualifiedHead(org: string, state: string, isPlace: (key: string) => boolean): string | null {
  const cut = org.search(QUALIFIER);
  if (cut <= 0) return null;
  const head = org.slice(0, cut).trim();
  const tail = nameTokens(org.slice(cut));
  if (!nameTokens(head).length || !tail.length) return null;
  if (SITE_OFFICE.test(tail.join(" "))) return head;
  const states = stateWords(state).map(keyOf);
  const rest = tail.filter((w) => !FILLER.has(w) && !/^\d+$/.test(w));
  const key = keyOf(rest);
  if (!key || states.includes(key)) return head;
  const withoutState = states.reduce((k, s) => (k.endsWith(s) && k.length > s.length ? k.slice(0, -s.length) : k), key);
  return isPlace(key) || isPlace(withoutState) ? head : null;
}

// Organization names that are a department or agency, not the government itself (used to explain non-matches).
export const DEPARTMENT =
  /\b(?:(?:sheriff|police|fire|court|attorney|prosecut|librar|health|emergency|jail|correction|probation|election|voter|voting|waterworks|sewer|utilit|airport|transit|housing|school|district|department|authorit|agenc|museum|touris|visitor|committee|coroner|highway|judicial|justice|magistrate|workforce|economic|chamber|ambulance|dispatch|marshal|education)\w*|911|e911|ems|des|soe|dept|parks and recreation|recreation|road department)\b/;
