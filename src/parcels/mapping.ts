// A load mapping (data/parcels/*.yaml): which input column gives each parcel fact, how to read it, where the
// point is and in which CRS, the source, as_of and licence. Owner, taxpayer and mailing-name columns are never
// read: a mapping that names one has it dropped (and the loader says so).
import { parse } from "yaml";
import { readFileSync } from "node:fs";
import { OWNER_COLUMN, OWNER_KEYS } from "./people-words";

export interface ColumnSpec {
  column: string;
  unit?: "acres" | "sqft";
  format?: string;
  label?: string;
  /** values that mean "none" in this column (e.g. a sale date of 1/1/1900): read as null, not as unreadable */
  none?: string[];
}
export interface Mapping {
  county?: string;
  source: {
    name: string;
    url: string;
    publisher: string | null;
    as_of: string | null;
    license: string;
    license_class: string;
    official: boolean;
    api_use: boolean;
    note?: string;
  };
  apn: ColumnSpec | { derive: "row"; prefix: string };
  situs_address?: ColumnSpec | null;
  acres?: ColumnSpec | null;
  value?: ColumnSpec | null;
  last_sale_date?: ColumnSpec | null;
  last_sale_price?: ColumnSpec | null;
  year_built?: ColumnSpec | null;
  sqft?: ColumnSpec | null;
  land_use?: {
    column: string;
    /** a column describing the code, stored after it ("101 SNGL-FAM-RES") */
    description?: string;
    road?: string[];
    water?: string[];
    condo_common?: string[];
  } | null;
  condo_common?: { column: string; values: string[] } | null;
  coordinates?: { lon: string; lat: string; crs: string } | { geometry: true; crs: string } | null;
  parcel_url_template?: string | null;
  one_row_per?: "sale" | "parcel"; // sale: several rows of one parcel, the latest sale is kept
  /** A second file (an assessor table) joined to the input's shapes by a key column: `file` beside the input
   * (or `load-parcels --join FILE`), `key` the column in both (`input_key` when the input names it otherwise);
   * shapes whose key is one of `road_keys` are roads (left out, counted as road records). */
  join?: { file: string; key: string; input_key?: string; road_keys?: string[] } | null;
  /** The building record of a condominium in the joined table: the other records of its key are its units,
   * folded into the building's parcel (value: the units' assessed values added up; units: their count). */
  condo_building?: { column: string; values: string[] } | null;
  /** The deed reference column (e.g. registry book/page), with its label. */
  deed?: ColumnSpec | null;
  /** What the loaded file covers when it is less than the county (said in every answer built on it). */
  coverage?: string | null;
  notes?: string[];
}

/** Deletes every owner column (OWNER_COLUMN) from the records as they are read, so that no mapping key (a field,
 * the land use or its description, the condominium columns, the coordinates) can read one; returns their names. */
export function dropOwnerColumns(records: { props: Record<string, unknown> }[], columns: string[]): string[] {
  const owners = columns.filter((c) => OWNER_COLUMN.test(c));
  for (const r of records) for (const c of owners) delete r.props[c];
  return owners;
}

const FIELD_KEYS = [
  "situs_address",
  "acres",
  "value",
  "last_sale_date",
  "last_sale_price",
  "year_built",
  "sqft",
] as const;
const KNOWN = new Set([
  "county",
  "source",
  "apn",
  ...FIELD_KEYS,
  "land_use",
  "condo_common",
  "coordinates",
  "parcel_url_template",
  "one_row_per",
  "join",
  "condo_building",
  "deed",
  "coverage",
  "notes",
]);

const spec = (v: unknown): ColumnSpec | null =>
  v == null ? null : typeof v === "string" ? { column: v } : (v as ColumnSpec);

/** Read and check a mapping; `dropped` lists what was refused (owner columns, unknown keys) in plain words. */
export function readMapping(file: string): { mapping: Mapping; dropped: string[] } {
  const raw = parse(readFileSync(file, "utf8")) as Record<string, any>;
  if (!raw || typeof raw !== "object") throw new Error(`mapping ${file}: not a YAML object`);
  return checkMapping(raw, file);
}

function checkMapping(raw: Record<string, any>, file = "mapping"): { mapping: Mapping; dropped: string[] } {
  const dropped: string[] = [];
  const m: Record<string, any> = {};
  for (const [k, v] of Object.entries(raw)) {
    if (OWNER_KEYS.test(k)) {
      dropped.push(`mapping key '${k}' names owner data: dropped (owner, taxpayer and mailing names are never stored)`);
      continue;
    }
    if (!KNOWN.has(k)) {
      dropped.push(`unknown mapping key '${k}': ignored`);
      continue;
    }
    m[k] = v;
  }
  for (const k of [...FIELD_KEYS, "deed", "apn"]) {
    const s = spec(m[k]);
    if (s && "column" in s && OWNER_COLUMN.test(s.column)) {
      dropped.push(
        `'${k}' maps to column '${s.column}', which holds owner data: dropped (owner, taxpayer and mailing names are never stored)`,
      );
      m[k] = null;
    } else if (k !== "apn" || typeof m[k] === "string") m[k] = s;
  }
  if (!m.source?.name || !m.source?.url || !m.source?.license)
    throw new Error(`${file}: source.name, source.url and source.license are required`);
  if (!m.apn) throw new Error(`${file}: apn is required (a column, or { derive: row, prefix: … })`);
  m.source = { publisher: null, as_of: null, official: false, api_use: false, license_class: "unknown", ...m.source };
  if (m.source.as_of != null) m.source.as_of = String(m.source.as_of);
  return { mapping: m as Mapping, dropped };
}
