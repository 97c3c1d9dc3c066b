// Census legal words ("legal/statistical area description") at the end of a NAMELSAD-style name.
// Longest match first, case-insensitive; returned lower case ("charter township", "city and borough" ...).
const WORDS = [
  "city and borough",
  "charter township",
  "unorganized territory",
  "planning region",
  "census area",
  "metropolitan government",
  "consolidated government",
  "unified government",
  "urban county",
  "metro government",
  "city",
  "town",
  "village",
  "borough",
  "township",
  "plantation",
  "county",
  "parish",
  "municipality",
  "municipio",
  "corporation",
  "government",
  "district",
  "island",
  "islands",
  "reservation",
  "gore",
  "grant",
  "location",
  "purchase",
  "precinct",
  "barrio",
  "estado",
  "comunidad",
  "zona urbana",
];

export function legalWord(name: string): string | null {
  const n = name
    .toLowerCase()
    .replace(/\s*\((balance|remainder)\)\s*$/, "")
    .trim();
  for (const w of WORDS) if (n === w || n.endsWith(" " + w)) return w;
  return null;
}

/** The name without its trailing legal word ("Minneapolis city" -> "Minneapolis"). */
export function baseName(name: string): string {
  const w = legalWord(name);
  if (!w) return name;
  const n = name.replace(/\s*\((balance|remainder)\)\s*$/i, "");
  return n.slice(0, n.length - w.length).trim() || name;
}
