// Place names: county, city, town or township names, case and punctuation insensitive, "Saint"/"St." alike.
// A name is split into its base and its Census legal word ("Lake township" → base "lake", legal "township").
const LEGAL_WORDS = [
  "city and borough", "city and county", "consolidated government", "unified government", "metropolitan government",
  "metro government", "charter township", "census area", "municipality", "plantation", "township", "borough",
  "county", "parish", "village", "city", "town", "(balance)", "balance",
].map((w) => w.split(" "));

const ALIASES: Record<string, string> = { saint: "st", sainte: "ste", mount: "mt", fort: "ft" };

export function tokens(text: string): string[] {
  return text.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase().replace(/&/g, " and ")
    .replace(/[^a-z0-9 ]+/g, " ").split(/\s+/).filter(Boolean).map((t) => ALIASES[t] ?? t);
}

/** Base name and legal word of a name; "City of X"/"Town of X" forms are understood too. */
export function splitName(text: string): { base: string; legal: string | null } {
  let t = tokens(text);
  let legal: string | null = null;
  const ofForm = /^(city|town|village|township|borough|county|parish) of$/.exec(t.slice(0, 2).join(" "));
  if (ofForm && t.length > 2) { legal = ofForm[1]!; t = t.slice(2); }
  for (;;) {
    const w = LEGAL_WORDS.find((lw) => t.length > lw.length && lw.every((x, i) => t[t.length - lw.length + i] === x.replace(/[()]/g, "")));
    if (!w) break;
    legal ??= w.join(" ").replace(/[()]/g, "");
    t = t.slice(0, t.length - w.length);
  }
  return { base: t.join(" "), legal };
}

/** "Lake Township, Roseau County, MN" → name, county qualifier, trailing state. */
export function parsePlaceQuery(text: string, isState: (code: string) => boolean): { name: string; county: string | null; state: string | null } {
  let rest = text.trim();
  let state: string | null = null;
  const m = /^(.*\S)[\s,]+([A-Za-z]{2})\.?$/.exec(rest);
  if (m && isState(m[2]!.toUpperCase()) && tokens(m[1]!).length > 0) { state = m[2]!.toUpperCase(); rest = m[1]!.replace(/[\s,]+$/, ""); }
  const parts = rest.split(",").map((s) => s.trim()).filter(Boolean);
  return { name: parts[0] ?? "", county: parts.length > 1 ? parts.slice(1).join(" ") : null, state };
}
