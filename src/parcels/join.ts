// The join of load-parcels: a county's parcel shapes (one file) and its assessor table (a second file) by a key
// column named in the mapping (`join:`). Shapes of one key become one (Multi)Polygon; several table records of one
// key become one parcel: a condominium's building record with its units folded in (value: the units' assessed
// values added up; units: their count; never a made-up unit), or, without a building record, the records of one
// lot combined (value added up, the other facts from the first). What did not join is counted, never guessed.
import { dirname, isAbsolute, join } from "node:path";
import type { Mapping } from "./mapping";
import { dropOwnerColumns } from "./mapping";
import { readInput, type InputRecord } from "./readers";
import { inSet, positive } from "./values";

export interface JoinCounts {
  /** shapes whose key marks a road (the mapping's `join.road_keys`): left out, counted as road records */
  roads: number;
  /** parcel shapes whose key has no record in the table (left out) */
  shapesWithoutRecord: number;
  /** table records whose key has no shape (kept: they answer county-data, not a point) */
  recordsWithoutShape: number;
  condoBuildings: number;
  unitsFolded: number;
  /** lots with several records and no condominium building record, combined into one parcel */
  combined: number;
}

const keyOf = (v: unknown) => (v === null || v === undefined ? "" : String(v).trim());

/** The joined records, in the table's order of keys, with the counts for the summary and the notes. */
export async function joinTable(
  shapes: InputRecord[],
  m: Mapping,
  input: string,
  joinFile?: string,
): Promise<{ records: InputRecord[]; counts: JoinCounts; file: string; tableRows: number; ownerColumns: string[] }> {
  const j = m.join!;
  const file = joinFile ?? (isAbsolute(j.file) ? j.file : join(dirname(input), j.file));
  const { records: table, columns } = await readInput(file);
  // owner, taxpayer and mailing-name columns of the table are dropped here: never merged into a parcel's record
  const ownerColumns = dropOwnerColumns(table, columns);
  const shapeKey = j.input_key ?? j.key;
  const counts: JoinCounts = {
    roads: 0,
    shapesWithoutRecord: 0,
    recordsWithoutShape: 0,
    condoBuildings: 0,
    unitsFolded: 0,
    combined: 0,
  };
  const byKey = new Map<string, InputRecord[]>();
  for (const r of table) {
    const k = keyOf(r.props[j.key]);
    if (!k) continue; // no key: the loader rejects it as "no parcel number"
    const list = byKey.get(k);
    if (list) list.push(r);
    else byKey.set(k, [r]);
  }
  const geomByKey = new Map<string, InputRecord["geometry"][]>();
  for (const s of shapes) {
    const k = keyOf(s.props[shapeKey]);
    if (j.road_keys?.includes(k)) {
      counts.roads++;
      continue;
    }
    if (!byKey.has(k)) {
      counts.shapesWithoutRecord++;
      continue;
    }
    const g = geomByKey.get(k);
    if (g) g.push(s.geometry);
    else geomByKey.set(k, [s.geometry]);
  }
  const records: InputRecord[] = [];
  for (const [k, rows] of byKey) {
    const geoms = geomByKey.get(k);
    if (!geoms) counts.recordsWithoutShape += rows.length;
    const one = merge(rows, m, counts);
    records.push({ props: one.props, geometry: geoms ? combine(geoms) : null, units: one.units });
  }
  // records with an empty key are passed on, so the loader counts them as rejected
  for (const r of table) if (!keyOf(r.props[j.key])) records.push(r);
  return { records, counts, file, tableRows: table.length, ownerColumns };
}

function merge(
  rows: InputRecord[],
  m: Mapping,
  counts: JoinCounts,
): { props: InputRecord["props"]; units: number | null } {
  if (rows.length === 1) return { props: rows[0]!.props, units: null };
  const cb = m.condo_building;
  const building = cb ? rows.find((r) => inSet(r.props[cb.column], cb.values)) : undefined;
  const props = { ...(building ?? rows[0]!).props };
  if (m.value) {
    const sum = rows.reduce((n, r) => n + (positive(r.props[m.value!.column]) ?? 0), 0);
    props[m.value.column] = sum || null;
  }
  if (building) {
    counts.condoBuildings++;
    counts.unitsFolded += rows.length - 1;
    return { props, units: rows.length - 1 };
  }
  counts.combined++;
  return { props, units: null };
}

/** Several shapes of one key → one MultiPolygon (one shape stays as it is). */
function combine(geoms: InputRecord["geometry"][]): InputRecord["geometry"] {
  const present = geoms.filter((g): g is NonNullable<InputRecord["geometry"]> => !!g);
  if (present.length <= 1) return present[0] ?? null;
  const polys: any[] = [];
  for (const g of present) {
    if (g.type === "Polygon") polys.push(g.coordinates);
    else if (g.type === "MultiPolygon") polys.push(...g.coordinates);
  }
  return { type: "MultiPolygon", coordinates: polys };
}

/** The sentences the county's notes get from the join (only those with something to say). */
export function joinNotes(c: JoinCounts): string[] {
  const n = (x: number) => x.toLocaleString("en-US");
  const out: string[] = [];
  if (c.condoBuildings)
    out.push(
      `${n(c.condoBuildings)} condominium buildings: their ${n(c.unitsFolded)} unit records are folded into the building's parcel (its value is the units' assessed values added up, and get_property_facts gives the unit count); no unit is a parcel of its own here.`,
    );
  if (c.combined)
    out.push(
      `${n(c.combined)} lots have several assessor records (e.g. a taxable and an exempt part): each is one parcel here, its value the records' values added up, its other facts from the first record.`,
    );
  if (c.shapesWithoutRecord)
    out.push(
      `${n(c.shapesWithoutRecord)} other parcel shapes have no assessor record (railways and lots without a tax record, most likely): they are left out.`,
    );
  if (c.recordsWithoutShape)
    out.push(
      `${n(c.recordsWithoutShape)} assessor records have no parcel shape: they answer county-data questions but no point finds them.`,
    );
  return out;
}
