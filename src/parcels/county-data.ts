// GET /county-data as a domain answer: a question or a plan → CountyData. Counties are named by the directory
// (CountyNames); parcels come from the ONE ParcelSource. Owner questions are refused before anything is read.
import { PAGE_CAPS } from "../domain/page-caps";
import { DomainError } from "../domain/errors";
import { FIELD_INFO, checkBounds, isRowOp, type Bounds, type Field, type Op, type ParcelQuery } from "./fields";
import { readQuestion, type CountyRef } from "./question";
import { CAN_ANSWER, describePlan, resultText } from "./describe";
import type { CountyInfo, ParcelRecord, ParcelSource } from "./source";

export interface CountyNames {
  /** "King County, WA" for a county id in the directory, else null. */
  label(countyId: string): string | null;
  /** Counties whose name matches (e.g. "King County", "WA"), as id and label. */
  find(name: string, state: string | null): { id: string; label: string }[];
}

interface CountyDataRow {
  rank: number;
  apn: string;
  situs_address: string | null;
  acres: number | null;
  value: number | null;
  value_label: string | null;
  last_sale_date: string | null;
  last_sale_price: number | null;
  year_built: number | null;
  parcel_gis_url: string | null;
  lat: number | null;
  lon: number | null;
}
interface CountyDataOut {
  question: string;
  state: "ok" | "no_data" | "unavailable" | "owners_unavailable";
  answer: string;
  notes: string[];
  rows: CountyDataRow[];
  value?: number | null;
  source: { name: string; as_of: string | null } | null;
}
interface CountySource {
  name: string;
  url: string;
  publisher: string | null;
  official: boolean;
  retrieved_at: null;
  license_class: string;
}

interface Ask {
  q?: string;
  jurisdictionId?: string;
  op?: Op;
  field?: Field;
  bounds: Bounds;
  limit?: number;
  offset: number;
}

export const OWNERS_REFUSAL =
  "Owner names, owner rankings and owner searches are never available from this service. Ownership is a matter of public record at the county: ask the county's recorder or assessor.";
export const OFFICIAL = "Parcel maps are not surveys; the county record is official.";

export const parcelUrl = (tpl: string | null, apn: string) =>
  tpl ? tpl.replace("{pin}", encodeURIComponent(apn)) : null;

/** The published facts of a parcel shared by a county-data row and MCP's property facts (in this order). */
export function parcelFacts(r: ParcelRecord, info: CountyInfo) {
  return {
    apn: r.apn,
    situs_address: r.situs_address,
    acres: r.acres,
    value: r.value,
    value_label: r.value === null ? null : info.valueLabel,
    last_sale_date: r.sale_date,
    last_sale_price: r.sale_price,
    year_built: r.year_built,
  };
}

export function rowOf(r: ParcelRecord, rank: number, info: CountyInfo): CountyDataRow {
  return {
    rank,
    ...parcelFacts(r, info),
    parcel_gis_url: parcelUrl(info.parcelUrlTemplate, r.apn),
    lat: r.lat,
    lon: r.lon,
  };
}

export function sourceOf(info: CountyInfo): CountySource {
  return {
    name: info.source.name,
    url: info.source.url,
    publisher: info.source.publisher,
    official: info.source.official,
    retrieved_at: null,
    license_class: info.source.license_class,
  };
}

function leftOutNote(info: CountyInfo): string {
  const l = info.leftOut;
  return `Left out of every answer: ${l.road} road, ${l.water} water and ${l.condo} condominium common-element record${l.condo === 1 ? "" : "s"} of this county's data.`;
}

const NO_PARCEL_DATA =
  "This server holds no parcel data (no parcel store is configured or loaded; an operator loads one with `directory load-parcels`).";

/** Does the county answer at all? null when it does; otherwise the no_data sentence. */
export function noDataReason(info: CountyInfo | null, label: string, holdsNone = false): string | null {
  if (holdsNone) return `${NO_PARCEL_DATA} No parcel facts are given for ${label}.`;
  if (!info) return `No parcel data is loaded for ${label}.`;
  if (!info.apiUse)
    return `${label}'s parcel data is not licensed for API use (licence: ${info.source.license}), so no parcel facts are given for it.`;
  return null;
}

const out = (
  question: string,
  state: CountyDataOut["state"],
  answer: string,
  extra: Partial<CountyDataOut> = {},
): { data: CountyDataOut; sources: CountySource[] } => ({
  data: { question, state, answer, notes: [], rows: [], source: null, ...extra },
  sources: [],
});

function resolveCounty(ref: CountyRef, names: CountyNames): { id: string } | { problem: string } {
  if ("id" in ref) return { id: ref.id };
  const found = names.find(ref.name, ref.state);
  if (found.length === 1) return { id: found[0]!.id };
  if (!found.length) return { problem: `I found no county named '${ref.name}'${ref.state ? ` in ${ref.state}` : ""}.` };
  return {
    problem: `'${ref.name}' names ${found.length} counties: ${found
      .slice(0, 10)
      .map((c) => `${c.label} (${c.id})`)
      .join("; ")}${found.length > 10 ? "; …" : ""}. Add the state, or give the jurisdiction_id.`,
  };
}

export async function countyData(
  src: ParcelSource,
  names: CountyNames,
  ask: Ask,
): Promise<{ data: CountyDataOut; sources: CountySource[] }> {
  let plan: Omit<ParcelQuery, "countyId">;
  let countyRef: CountyRef | null = ask.jurisdictionId ? { id: ask.jurisdictionId } : null;
  // a plan is echoed as its parameters, so `question` always says what was asked
  const question = ask.q ?? planText(ask);
  if (ask.q !== undefined) {
    const r = readQuestion(ask.q);
    if (r.kind === "owners") return out(question, "owners_unavailable", OWNERS_REFUSAL);
    if (r.county) {
      if (ask.jurisdictionId && "id" in r.county && r.county.id !== ask.jurisdictionId) {
        throw new DomainError(
          "bad-parameter",
          `The question names ${r.county.id} but jurisdiction_id is ${ask.jurisdictionId}; give one county.`,
        );
      }
      countyRef = ask.jurisdictionId && !("id" in r.county) ? countyRef : r.county;
    }
    if (r.kind === "unreadable")
      return out(question, "unavailable", `I could not read this question (${r.why}). ${CAN_ANSWER}`);
    plan = {
      op: r.op,
      field: r.field,
      bounds: r.bounds,
      limit: ask.limit ?? r.limit ?? PAGE_CAPS.county_data.default,
      offset: ask.offset,
    };
  } else {
    plan = {
      op: ask.op ?? "top",
      field: ask.field ?? "acres",
      bounds: ask.bounds,
      limit: ask.limit ?? PAGE_CAPS.county_data.default,
      offset: ask.offset,
    };
    const bad = checkBounds(plan.field, plan.bounds);
    if (bad) throw new DomainError("bad-parameter", bad);
  }
  if (!countyRef) return out(question, "unavailable", `The question names no county. ${CAN_ANSWER}`);
  const c = resolveCounty(countyRef, names);
  if ("problem" in c) return out(question, "unavailable", `${c.problem} ${CAN_ANSWER}`);
  const full: ParcelQuery = { ...plan, countyId: c.id };
  const info = await src.county(c.id);
  const label = names.label(c.id);
  // a file that covers less than the county says so in the answer itself (e.g. one city of it)
  const covers = info?.apiUse && info.coverage ? `; its loaded data covers ${info.coverage}` : "";
  const where = label ? `${label} (${c.id}${covers})` : `${c.id}${covers ? ` (${covers.slice(2)})` : ""}`;
  if (!label && !info)
    return out(question, "no_data", `No county has the id ${c.id}, and no parcel data is loaded for it.`);
  const none = noDataReason(info, where, src.holdsNone?.() ?? false);
  if (none || !info) return out(question, "no_data", `Read as: ${describePlan(full, where)}. ${none}`);
  const base = {
    source: { name: info.source.name, as_of: info.asOf },
    notes: [leftOutNote(info), ...info.notes, OFFICIAL],
  };
  const sources = [sourceOf(info)];
  const needs: Field[] = [full.field, ...(full.bounds.since || full.bounds.until ? ["sale_date" as Field] : [])];
  const lacking = needs.filter((f) => !info.fields.includes(f));
  if (lacking.length) {
    const can = info.fields.map((f) => FIELD_INFO[f].noun).join(", ");
    return {
      ...out(
        question,
        "unavailable",
        `Read as: ${describePlan(full, where)}. This county's parcel data holds no ${lacking.map((f) => FIELD_INFO[f].noun).join(" or ")}; it can answer about: ${can || "nothing yet"}.`,
        base,
      ),
      sources,
    };
  }
  const read = `Read as: ${describePlan(full, where)}.`;
  if (isRowOp(full.op)) {
    const recs = await src.rows(full);
    const rows = recs.map((r, i) => rowOf(r, full.offset + i + 1, info));
    return {
      data: {
        question,
        state: "ok",
        answer: `${read} ${resultText(full, rows.length, null, rows.length)}`,
        rows,
        ...base,
      },
      sources,
    };
  }
  const agg = await src.aggregate(full);
  const value = typeof agg.value === "number" ? Math.round(agg.value * 10000) / 10000 : null;
  return {
    data: {
      question,
      state: "ok",
      answer: `${read} ${resultText(full, agg.n, agg.value, 0)}`,
      rows: [],
      value,
      ...base,
    },
    sources,
  };
}

function planText(a: Ask): string {
  const parts: [string, unknown][] = [
    ["jurisdiction_id", a.jurisdictionId],
    ["op", a.op ?? "top"],
    ["field", a.field ?? "acres"],
    ["min", a.bounds.min],
    ["max", a.bounds.max],
    ["since", a.bounds.since],
    ["until", a.bounds.until],
  ];
  return parts
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${v}`)
    .join(" ");
}
