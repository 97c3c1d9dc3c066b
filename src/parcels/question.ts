// The question reader: rule-based and offline (no model, no network). A plain question becomes a plan (op, field,
// bounds, limit) and a county reference, or a refusal (owners), or "unreadable". The reading is shown back to
// the caller in the answer sentence (see describe.ts), so a wrong reading is visible.
import { PAGE_CAPS } from "../domain/page-caps";
import { asksAboutPeople } from "./people-words";
import { STATES } from "../domain/states";
import type { Bounds, Field, Op } from "./fields";

export type CountyRef = { id: string } | { name: string; state: string | null };
export type Reading =
  | { kind: "owners" }
  | { kind: "plan"; op: Op; field: Field; bounds: Bounds; limit: number | null; county: CountyRef | null }
  | { kind: "unreadable"; why: string; county: CountyRef | null };

// questions about people are refused by THE rule of people-words.ts (shared with the plan parameters and MCP)
const OP_WORDS: [Op, RegExp][] = [
  ["count", /\b(how many|number of|count|counts|total number)\b/],
  ["avg", /\b(average|avg|mean)\b/],
  ["median", /\b(median|typical|middle)\b/],
  ["bottom", /\b(smallest|least|lowest|fewest|cheapest|oldest|earliest|minimum|tiniest|first built)\b/],
  [
    "top",
    /\b(biggest|largest|most|highest|greatest|top|newest|latest|recent|recently|maximum|priciest|expensive|costliest|youngest)\b/,
  ],
];
const FIELD_WORDS: [Field, RegExp][] = [
  ["sqft", /\b(square feet|square foot|sq ?ft|sqft|floor area|living area|building area|house size|home size)\b/],
  [
    "sale_price",
    /\b(sale prices?|sales prices?|selling prices?|sold for|prices?|priced|expensive|cheapest|cheap|priciest|costliest|paid)\b/,
  ],
  ["value", /\b(values?|valued|valuable|assessed|assessments?|appraised|appraisals?|worth)\b/],
  ["year_built", /\b(built|buildings?|year built|construction|constructed|oldest|newest|youngest|houses?|homes?)\b/],
  ["sale_date", /\b(sales?|sold|recent|recently|latest|earliest|transactions?)\b/],
  ["acres", /\b(acres?|acreage|biggest|largest|smallest|tiniest|size|lots?|land|big|large|small|area)\b/],
];

const STATE_NAMES = STATES.map((s) => ({ words: s.name.toLowerCase().split(" "), postal: s.postal })).sort(
  (a, b) => b.words.length - a.words.length,
);
const STOP = new Set([
  "in",
  "of",
  "for",
  "at",
  "within",
  "from",
  "across",
  "the",
  "parcels",
  "parcel",
  "lots",
  "lot",
  "properties",
  "property",
  "homes",
  "houses",
  "sales",
  "on",
]);

/** "… in King County, WA …" / "… Lucas County Ohio …" / "county:53033": the county named, and the text without it. */
export function countyIn(q: string): { ref: CountyRef | null; rest: string } {
  const id = /\bcounty:(\d{5})\b/i.exec(q);
  if (id) return { ref: { id: `county:${id[1]}` }, rest: q.replace(id[0], " ") };
  const words = q.split(/\s+/).filter(Boolean);
  const bare = words.map((w) => w.toLowerCase().replace(/[^a-z.'-]/g, ""));
  const at = bare.findIndex((w, i) => i > 0 && (w === "county" || w === "parish" || w === "borough"));
  if (at < 0) return { ref: null, rest: q };
  let start = at;
  while (start > 0 && at - start < 4 && !STOP.has(bare[start - 1]!) && /^[a-z][a-z.'-]*$/.test(bare[start - 1]!))
    start--;
  if (start === at) return { ref: null, rest: q };
  const name = words
    .slice(start, at + 1)
    .join(" ")
    .replace(/[^A-Za-z .'-]/g, "");
  // a state after the county: a full name, or a postal code written in capitals or after a comma
  let end = at + 1;
  let state: string | null = null;
  const after = bare.slice(at + 1);
  const full = STATE_NAMES.find((s) => s.words.every((w, i) => after[i] === w));
  if (full) {
    state = full.postal;
    end += full.words.length;
  } else {
    const raw = words[at + 1] ?? "";
    const code = raw.replace(/[^A-Za-z]/g, "");
    const comma = /,\s*$/.test(words[at]!) || raw.startsWith(",");
    if (
      code.length === 2 &&
      (code === code.toUpperCase() || comma) &&
      STATES.some((s) => s.postal === code.toUpperCase())
    ) {
      state = code.toUpperCase();
      end++;
    }
  }
  return { ref: { name, state }, rest: [...words.slice(0, start), ...words.slice(end)].join(" ") };
}

const UNIT = String.raw`\s*(acres?|ac\b|square feet|sq ?ft|sqft|dollars|usd)?`;

function num(raw: string, mult?: string): number {
  const n = Number(raw.replace(/,/g, ""));
  const m = mult?.toLowerCase();
  return m === "k" || m === "thousand" ? n * 1e3 : m === "m" || m === "million" || m === "mil" ? n * 1e6 : n;
}
const unitField = (unit: string | undefined, dollar: boolean): Field | "money" | null =>
  unit && /^ac/.test(unit)
    ? "acres"
    : unit && /sq|square/.test(unit)
      ? "sqft"
      : dollar || (unit && /dollar|usd/.test(unit))
        ? "money"
        : null;

interface NumBound {
  side: "min" | "max";
  value: number;
  unit: Field | "money" | null;
}

function numericBounds(t: string): NumBound[] {
  const out: NumBound[] = [];
  const between = new RegExp(
    String.raw`\bbetween\s+(\$?)\s?(\d[\d,]*(?:\.\d+)?)\s*(k|thousand|million)?\s*(?:and|to|-)\s+(\$?)\s?(\d[\d,]*(?:\.\d+)?)\s*(k|thousand|million)?` +
      UNIT,
  ).exec(t);
  if (between) {
    const u = unitField(between[7], !!(between[1] || between[4]));
    out.push(
      { side: "min", value: num(between[2]!, between[3]), unit: u },
      { side: "max", value: num(between[5]!, between[6]), unit: u },
    );
    return out;
  }
  const sides: ["min" | "max", string][] = [
    ["min", String.raw`(?:over|more than|above|larger than|bigger than|greater than|at least|exceeding|>=?)`],
    ["max", String.raw`(?:under|less than|below|smaller than|at most|up to|no more than|<=?)`],
  ];
  for (const [side, words] of sides) {
    const re = new RegExp(
      String.raw`${words}\s+(\$)?\s?(\d[\d,]*(?:\.\d+)?|\.\d+)\s*(k|thousand|million|mil)?\b` + UNIT,
      "g",
    );
    for (const m of t.matchAll(re)) {
      const v = num(m[2]!, m[3]);
      if (!m[1] && !m[4] && !m[3] && /^(1[6-9]|20)\d\d$/.test(m[2]!) && /\b(built|sold|sale|sales)\b/.test(t)) continue; // a year: handled as a date
      out.push({ side, value: v, unit: unitField(m[4], !!m[1]) });
    }
  }
  return out;
}

/** Year and date bounds: "since 2015", "before 2015-06-01", "in 2014", "built before 1950". */
function dateBounds(t: string): { built: Bounds; sold: Bounds } {
  const built: Bounds = {},
    sold: Bounds = {};
  const D = String.raw`((?:1[6-9]|20)\d\d)(?:-(\d\d)-(\d\d))?`;
  const iso = (m: RegExpExecArray, end: boolean) =>
    m[2] ? `${m[1]}-${m[2]}-${m[3]}` : `${m[1]}-${end ? "12-31" : "01-01"}`;
  const year = Number;
  for (const m of t.matchAll(
    new RegExp(String.raw`\b(built|constructed)?\s*(since|after|from|before|until|through|in|by)\s+${D}\b`, "g"),
  )) {
    const [, isBuilt, word] = m;
    const rest = [m[0], m[3], m[4], m[5]] as unknown as RegExpExecArray;
    const builtCtx = isBuilt || (/\b(built|buildings?|constructed)\b/.test(t) && !/\b(sold|sales?|sale)\b/.test(t));
    if (builtCtx) {
      const y = year(m[3]!);
      if (word === "since" || word === "from") built.min = y;
      else if (word === "after") built.min = y + 1;
      else if (word === "before") built.max = y - 1;
      else if (word === "until" || word === "through" || word === "by") built.max = y;
      else {
        built.min = y;
        built.max = y;
      }
    } else {
      if (word === "since" || word === "from") sold.since = iso(rest, false);
      else if (word === "after") sold.since = m[4] ? iso(rest, false) : `${Number(m[3]) + 1}-01-01`;
      else if (word === "before") sold.until = m[4] ? iso(rest, false) : `${Number(m[3]) - 1}-12-31`;
      else if (word === "until" || word === "through" || word === "by") sold.until = iso(rest, true);
      else {
        sold.since = iso(rest, false);
        sold.until = iso(rest, true);
      }
    }
  }
  return { built, sold };
}

export function readQuestion(q: string): Reading {
  const { ref, rest } = countyIn(q);
  const t = ` ${rest.toLowerCase().replace(/[?!;]/g, " ").replace(/\s+/g, " ")} `;
  if (asksAboutPeople(q)) return { kind: "owners" };
  const nb = numericBounds(t);
  const db = dateBounds(t);
  let op = OP_WORDS.find(([, re]) => re.test(t))?.[0] ?? null;
  let field = FIELD_WORDS.find(([, re]) => re.test(t))?.[0] ?? null;
  // "oldest"/"newest" with sales means sale dates, not buildings
  if (field === "year_built" && /\b(sales?|sold)\b/.test(t) && !/\b(built|buildings?|constructed)\b/.test(t))
    field = "sale_date";
  // a bound with a unit names the field when the question names none, or counts ("how many over 5 acres")
  const unitF = nb.find((b) => b.unit && b.unit !== "money")?.unit as Field | undefined;
  const money = nb.some((b) => b.unit === "money");
  if (unitF && (!field || op === "count" || field === "acres" || field === "year_built")) field = unitF;
  if (money && (!field || field === "acres" || field === "sale_date"))
    field = /\b(value|assessed|worth|appraised)\b/.test(t) ? "value" : "sale_price";
  if (Object.keys(db.built).length && (!field || op === "count")) field = "year_built";
  if (!op && !field && !nb.length)
    return {
      kind: "unreadable",
      why: "no question about parcel sizes, values, sales or buildings was found",
      county: ref,
    };
  op ??= nb.length || Object.keys(db.sold).length || Object.keys(db.built).length ? "count" : "top";
  field ??= "acres";
  const bounds: Bounds = { ...db.sold };
  for (const b of nb) {
    const f: Field | null =
      b.unit === "money" ? (field === "value" || field === "sale_price" ? field : null) : (b.unit ?? field);
    if (f !== field)
      return {
        kind: "unreadable",
        why: `a bound on ${b.unit === "money" ? "a price" : f} cannot be combined with a question about ${field}; min and max bound the field asked about`,
        county: ref,
      };
    bounds[b.side] = b.value;
  }
  if (field === "year_built") {
    if (db.built.min !== undefined) bounds.min = db.built.min;
    if (db.built.max !== undefined) bounds.max = db.built.max;
  }
  if (field === "sale_date" && (bounds.min !== undefined || bounds.max !== undefined))
    return { kind: "unreadable", why: "sale dates are bounded by since/until, not by numbers", county: ref };
  const lim =
    /\b(?:top|first|last|the)\s+(\d{1,3})\b/.exec(t) ??
    /\b(\d{1,3})\s+(?:biggest|largest|smallest|most|least|highest|lowest|oldest|newest|latest|earliest|recent|cheapest|priciest)\b/.exec(
      t,
    );
  const limit = lim ? Math.min(PAGE_CAPS.county_data.max, Math.max(1, Number(lim[1]))) : null;
  return { kind: "plan", op, field, bounds, limit, county: ref };
}
