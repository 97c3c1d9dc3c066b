// The rules that turn an OpenAddresses layer into a Resource's publisher, provider and `official` flag, and the
// GIS office a county's attribution names. THE vendor host table lives here (one place).
import { nameTokens, keyOf, governmentName } from "./dotgov";
import { STATES } from "./states";
import { COPY_PROVIDERS } from "../../src/domain/vocabulary";
import type { JurisdictionIn } from "./records-common";

/** Vendor hosts (host or any subdomain of it) -> the provider shown in `provider`. Kept small on purpose: only
 *  hosting services whose operator is certain from the host name itself. `copy`: the host keeps a copy made by
 *  OpenAddresses or a contributor, not the publisher's own endpoint (never official, ranked last). */
export const VENDOR_HOSTS: readonly { host: string; provider: string; copy?: true }[] = [
  { host: "arcgis.com", provider: "Esri (ArcGIS Online)" },
  { host: "arcgisonline.com", provider: "Esri (ArcGIS Online)" },
  { host: "schneidercorp.com", provider: "Schneider Geospatial" },
  { host: "gisworkshop.com", provider: "GIS Workshop" },
  { host: "openaddresses.io", provider: "OpenAddresses", copy: true },
  { host: "openaddresses.s3.amazonaws.com", provider: "OpenAddresses", copy: true },
  { host: "github.com", provider: "GitHub", copy: true },
  { host: "githubusercontent.com", provider: "GitHub", copy: true },
  { host: "amazonaws.com", provider: "Amazon Web Services" },
];

export const hostOf = (url: string): string => {
  try {
    return new URL(url).hostname.toLowerCase().replace(/^www\./, "");
  } catch {
    return "";
  }
};
const under = (host: string, suffix: string) => host === suffix || host.endsWith("." + suffix);
const vendor = (host: string) => VENDOR_HOSTS.find((v) => under(host, v.host)) ?? null;

export const providerOf = (host: string): string | null => vendor(host)?.provider ?? null;
/** A copy kept by OpenAddresses or on a code host, not the publisher's endpoint (its provider is one of the
 *  domain's COPY_PROVIDERS, so the answers leave it out of a function's links). */
export const isCopyHost = (host: string) => vendor(host)?.copy === true;
for (const v of VENDOR_HOSTS)
  if (!!v.copy !== COPY_PROVIDERS.includes(v.provider))
    throw new Error(`oa-rules: ${v.host} copy flag disagrees with COPY_PROVIDERS`);

const LEGAL = new Set([
  "city",
  "county",
  "of",
  "and",
  "the",
  "parish",
  "borough",
  "municipality",
  "town",
  "village",
  "township",
  "census",
  "area",
  "consolidated",
  "government",
  "metropolitan",
]);
/** Name key without legal words: "City and County of Honolulu" / "Honolulu County" -> "honolulu". */
export const bareKey = (name: string) => keyOf(nameTokens(name).filter((w) => !LEGAL.has(w)));

/** Name tokens of the government without its legal words: ["hennepin"], ["oregon", "city"] ("Oregon City"). */
function baseTokens(j: JurisdictionIn): string[] {
  const gov = governmentName(j).replace(/^(City|Town|Village|Borough|Township|Charter Township|Plantation) of /, "");
  const t = nameTokens(gov);
  if (j.type !== "county") return t;
  const legal = ["county", "parish", "borough", "municipality", "census area", "city and borough", "city"];
  for (const l of legal) {
    const w = l.split(" ");
    if (t.length > w.length && w.every((x, i) => t[t.length - w.length + i] === x))
      return t.slice(0, t.length - w.length);
  }
  return t;
}

const COUNTY_WORDS = new Set(["county", "parish", "borough", "municipality"]);
const CITY_WORDS = new Set(["city", "town", "village", "borough", "township"]);

function indexesOf(hay: string[], needle: string[]): number[] {
  const out: number[] = [];
  for (let i = 0; i + needle.length <= hay.length; i++) if (needle.every((w, k) => hay[i + k] === w)) out.push(i);
  return out;
}

/** Does the attribution text name this government ("Boulder County, CO", "County of Nevada, California",
 *  "Municipality of Anchorage", "City of Scranton GIS", "Tigard GIS")? A county needs its legal word next to its
 *  name; a city's name must not be followed by a county word (Washington County is not the City of Washington). */
export function namesGovernment(attribution: string, j: JurisdictionIn): boolean {
  const t = nameTokens(attribution),
    base = baseTokens(j);
  if (!base.length) return false;
  for (const i of indexesOf(t, base)) {
    const after = t[i + base.length] ?? "",
      before = t.slice(Math.max(0, i - 2), i);
    if (j.type === "county") {
      if (COUNTY_WORDS.has(after)) return true;
      if (before.length === 2 && before[1] === "of" && COUNTY_WORDS.has(before[0] ?? "")) return true;
    } else {
      if (after && COUNTY_WORDS.has(after)) continue;
      return true;
    }
  }
  return false;
}

const STATE_KEYS = new Map(STATES.map((s) => [s.postal, [s.postal.toLowerCase(), keyOf(nameTokens(s.name))]]));

/** Is the host the government's own domain? Yes when it is (under) the host of the government's home page from
 *  the .gov registry or the GSA list, or when it is a .gov/.us name whose label is the government's name (with
 *  the usual co./ci./county/city/state affixes: gis.hennepin.us, co.aitkin.mn.us, maps.bouldercolorado.gov). */
export function isOwnHost(host: string, j: JurisdictionIn, homeHosts: readonly string[]): boolean {
  if (!host) return false;
  if (homeHosts.some((h) => h && under(host, h))) return true;
  const labels = host.split(".");
  const tld = labels.at(-1);
  if (tld !== "gov" && tld !== "us") return false;
  const key = keyOf(baseTokens(j));
  const st = STATE_KEYS.get(j.state ?? "") ?? [];
  if (key.length < 3 || st.includes(key)) return false;
  const esc = (s: string) => s.replace(/[^a-z0-9]/g, "");
  const pre =
    j.type === "county"
      ? "(?:co|county|countyof)?"
      : "(?:ci|city|cityof|town|townof|village|villageof|vil|twp|township|borough)?";
  const suf =
    j.type === "county" ? "(?:county|co|cnty|parish|borough)?" : "(?:city|town|village|twp|township|borough)?";
  const re = new RegExp(`^${pre}${esc(key)}${suf}(?:${st.map(esc).join("|") || "x^"})?(?:gov|gis)?$`);
  const inner = labels.slice(0, -1).filter((l, i, a) => !(i === a.length - 1 && st.includes(l)));
  return inner.some((l) => re.test(l) && (l !== key || key.length >= 4));
}

/** THE official rule: the publisher is the attribution when there is one (official when it names this government);
 *  without one, the government itself when the URL is on its own domain (official), else unknown (null, not official). */
export function publisherOf(
  attribution: string | null,
  host: string,
  j: JurisdictionIn,
  homeHosts: readonly string[],
): { publisher: string | null; official: boolean } {
  if (attribution) return { publisher: attribution, official: namesGovernment(attribution, j) };
  const own = isOwnHost(host, j, homeHosts);
  return { publisher: own ? governmentName(j) : null, official: own };
}

/** Office words: the attribution names an office (not only the government) when one of these is in it. */
const OFFICE_WORDS =
  /\b(GIS|Geographic Information|Land Information|Mapping|Planning|Assessment|Assessor|Appraiser|Department|Dept|Division|Office|Unit|Consortium|Commission)\b/i;

/** The GIS body a county's attribution names ("Wasco County GIS", "Milwaukee County Land Information Office"),
 *  as written; null when the attribution does not name both the county and an office. Never invented. */
export function gisOfficeName(attribution: string | null, j: JurisdictionIn): string | null {
  if (!attribution || j.type !== "county") return null;
  if (!OFFICE_WORDS.test(attribution) || !namesGovernment(attribution, j)) return null;
  return attribution.replace(/[\s.]+$/, "").trim();
}

const noEmail = (s: string) =>
  s
    .replace(/[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g, "")
    .replace(/\s+/g, " ")
    .trim();

/** The attribution of a layer: `attribution`, else the licence's `attribution name` / string `attribution`.
 *  E-mail addresses are removed (never stored). */
export function attributionOf(layer: any): string | null {
  const lic = layer?.license;
  const cands = [
    layer?.attribution,
    lic && typeof lic === "object" ? lic["attribution name"] : null,
    lic && typeof lic === "object" ? lic.attribution : null,
  ];
  for (const c of cands) {
    if (typeof c !== "string") continue;
    const s = noEmail(c);
    if (s && s.length <= 200 && !/^(unknown|none|n\/a)$/i.test(s)) return s;
  }
  return null;
}

/** The publisher's data licence as text for the source row ("Public Domain", a URL, ...), or null. */
export function licenceOf(layer: any): string | null {
  const lic = layer?.license;
  if (typeof lic === "string") return noEmail(lic) || null;
  if (lic && typeof lic === "object") {
    const parts = [lic.text, lic.url].filter((x) => typeof x === "string" && x.trim()).map((x: string) => x.trim());
    return parts.length ? noEmail(parts.join(" ")) : null;
  }
  return null;
}
