// Place names: county, city, town or township names, case and punctuation insensitive, "Saint"/"St." alike.
// A name is split into its base and its Census legal word ("Lake township" → base "lake", legal "township").
const LEGAL_WORDS = [
  "city and borough",
  "city and county",
  "consolidated government",
  "unified government",
  "metropolitan government",
  "metro government",
  "charter township",
  "census area",
  "municipality",
  "plantation",
  "township",
  "borough",
  "county",
  "parish",
  "village",
  "city",
  "town",
  "(balance)",
  "balance",
].map((w) => w.split(" "));

const ALIASES: Record<string, string> = { saint: "st", sainte: "ste", mount: "mt", fort: "ft" };

export function tokens(text: string): string[] {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/&/g, " and ")
    .replace(/[^a-z0-9 ]+/g, " ")
    .split(/\s+/)
    .filter(Boolean)
    .map((t) => ALIASES[t] ?? t);
}

/** Base name and legal word of a name; "City of X"/"Town of X" forms are understood too. */
export function splitName(text: string): { base: string; legal: string | null } {
  let t = tokens(text);
  let legal: string | null = null;
  const ofForm = /^(city|town|village|township|borough|county|parish) of$/.exec(t.slice(0, 2).join(" "));
  if (ofForm && t.length > 2) {
    legal = ofForm[1]!;
    t = t.slice(2);
  }
  for (;;) {
    const w = LEGAL_WORDS.find(
      (lw) => t.length > lw.length && lw.every((x, i) => t[t.length - lw.length + i] === x.replace(/[()]/g, "")),
    );
    if (!w) break;
    legal ??= w.join(" ").replace(/[()]/g, "");
    t = t.slice(0, t.length - w.length);
  }
  return { base: t.join(" "), legal };
}

/** "Lake Township, Roseau County, MN" → name, county qualifier, trailing state. */
export function parsePlaceQuery(
  text: string,
  isState: (code: string) => boolean,
): { name: string; county: string | null; state: string | null } {
  let rest = text.trim();
  let state: string | null = null;
  const m = /^(.*\S)[\s,]+([A-Za-z]{2})\.?$/.exec(rest);
  if (m && isState(m[2]!.toUpperCase()) && tokens(m[1]!).length > 0) {
    state = m[2]!.toUpperCase();
    rest = m[1]!.replace(/[\s,]+$/, "");
  }
  const parts = rest
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  return { name: parts[0] ?? "", county: parts.length > 1 ? parts.slice(1).join(" ") : null, state };
}

// Census legal words at the end of a NAMELSAD-style name, lower case as Census writes them ("Falls City city").
const PLACE_LEGAL =
  /\s+(city and borough|charter township|metropolitan government|metro government|consolidated government|unified government|urban county|city|town|village|borough|township|plantation|municipality|corporation)$/;

/** "Falls City city" → base "Falls City", legal "city"; a "(balance)" suffix is dropped. Case is kept. */
export function placeBase(name: string): { base: string; legal: string | null } {
  const n = name.replace(/\s*\((balance|remainder)\)\s*$/i, "").trim();
  const m = PLACE_LEGAL.exec(n);
  return m && m.index > 0 ? { base: n.slice(0, m.index), legal: m[1]! } : { base: n, legal: null };
}

const GOVERNMENT_WORDS = ["city", "town", "village", "borough", "township", "charter township", "plantation"];

/** Display name of the government, as office names use it: "Hennepin County", "City of Minneapolis",
 *  "Town of Stowe". Counties keep their Census name (which carries County, Parish, Borough ...). */
export function governmentName(j: { type: string; name: string; legal_type: string | null }): string {
  if (j.type === "county") {
    const lt = j.legal_type?.toLowerCase();
    if (lt && !j.name.toLowerCase().endsWith(lt) && ["county", "parish", "borough"].includes(lt))
      return `${j.name} ${lt[0]!.toUpperCase()}${lt.slice(1)}`;
    return j.name;
  }
  const { base, legal: named } = placeBase(j.name);
  const legal = j.legal_type ? j.legal_type.toLowerCase() : named;
  if (legal && GOVERNMENT_WORDS.includes(legal)) return `${legal.replace(/\b\w/g, (c) => c.toUpperCase())} of ${base}`;
  return j.name;
}
