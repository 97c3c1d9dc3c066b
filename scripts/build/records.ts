// Directory records (offices, resources, function overrides + their sources): from scripts/build/directory-records.ts,
// and from extra YAML files given with --records (tests use one to check that a record without a source trail is
// stored and flagged documented = 0).
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { buildDirectoryRecords } from "./directory-records";
import { parse } from "yaml";
import type { JRow } from "./model";
import { newRow } from "./model";

export interface RecordSet {
  sources: Record<string, any>[];
  offices: Record<string, any>[];
  resources: Record<string, any>[];
  function_overrides: Record<string, any>[];
  jurisdictions: JRow[];
  summary: Record<string, number | string>;
}

export const emptyRecords = (): RecordSet => ({
  sources: [],
  offices: [],
  resources: [],
  function_overrides: [],
  jurisdictions: [],
  summary: {},
});

export async function loadDirectoryRecords(ctx: {
  sourcesDir: string | null;
  projectRoot: string;
  rows: Map<string, JRow>;
  stateRules: Record<string, any>;
  sameAs?: [string, string][];
  log: (s: string) => void;
}): Promise<RecordSet> {
  const jurisdictions = new Map<string, any>();
  for (const r of ctx.rows.values())
    jurisdictions.set(r.jurisdiction_id, {
      jurisdiction_id: r.jurisdiction_id,
      type: r.type,
      name: r.name,
      legal_type: r.legal_type,
      state: r.state,
      state_fips: r.state_fips,
      county_id: r.county_id,
    });
  const out = await buildDirectoryRecords({
    sourcesDir: ctx.sourcesDir,
    projectRoot: ctx.projectRoot,
    jurisdictions,
    stateRules: ctx.stateRules,
    sameAs: ctx.sameAs,
    log: ctx.log,
  });
  return { ...emptyRecords(), ...out, jurisdictions: [] };
}

/** Extra YAML of records: keys sources, jurisdictions, offices, resources, function_overrides (all optional). */
export function loadExtraRecords(file: string): RecordSet {
  const doc = parse(readFileSync(resolve(file), "utf8")) ?? {};
  const rs = emptyRecords();
  rs.sources = doc.sources ?? [];
  rs.offices = doc.offices ?? [];
  rs.resources = doc.resources ?? [];
  rs.function_overrides = doc.function_overrides ?? [];
  rs.jurisdictions = (doc.jurisdictions ?? []).map((j: any) => {
    const { geom: _g, ...rest } = j;
    return newRow({ ...rest, source_id: rest.source_id ?? "unknown" });
  });
  return rs;
}
