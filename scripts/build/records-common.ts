// Row types (exact column names of src/directory/schema.sql) and small helpers shared by the directory-record
// builders (directory-records.ts, dotgov.ts, records-*.ts).
import { TOPICS } from "../../src/domain/vocabulary";

import type {
  JurisdictionRow,
  OfficeRow,
  OverrideRow,
  ResourceRow as StoredResourceRow,
  SourceRow as StoredSourceRow,
} from "../../src/directory/rows";
export type { OfficeRow, OverrideRow };
/** A source row as written: the stored columns, and the quote of a page read (data/pages). */
export interface SourceRow extends StoredSourceRow {
  quote?: string | null;
}
/** A resource row as written: topics as the JSON text the column holds. */
export interface ResourceRow extends Omit<StoredResourceRow, "topics"> {
  topics: string;
}

/** The jurisdiction fields the record builders match names and hosts with. */
export type JurisdictionIn = Pick<
  JurisdictionRow,
  "jurisdiction_id" | "type" | "name" | "legal_type" | "state" | "state_fips" | "county_id"
>;

/** The authored-data publisher used for every record the project itself wrote. */
export const PROJECT_PUBLISHER = "Property, Land and GIS Directory (authored)";
/** Date on which the authored files of this module were written and their URLs confirmed. */
export const AUTHORED_VINTAGE = "2026-11-22";

const hex = (s: string) => new Bun.CryptoHasher("sha256").update(s).digest("hex");
export const sha256Hex = (b: Uint8Array | string) => new Bun.CryptoHasher("sha256").update(b).digest("hex");

/** Stable, opaque ids: the same inputs give the same id on every build. */
export const officeId = (jurisdictionId: string, fn: string) => "off_" + hex(`${jurisdictionId}|${fn}`).slice(0, 16);
export const resourceId = (jurisdictionId: string, url: string, name: string) =>
  "res_" + hex(`${jurisdictionId}|${url}|${name}`).slice(0, 16);

/** documented = 1 only when url, publisher and a vintage or retrieved date are all known. */
export function isDocumented(s: Pick<SourceRow, "url" | "publisher" | "vintage" | "retrieved_at">): number {
  return s.url && s.publisher && (s.vintage || s.retrieved_at) ? 1 : 0;
}

export function sourceRow(
  p: Omit<SourceRow, "documented" | "sha256" | "license"> & {
    sha256?: string | null;
    license?: string | null;
    quote?: string | null;
  },
): SourceRow {
  const r: SourceRow = { sha256: null, license: null, ...p, documented: 0 };
  r.documented = isDocumented(r);
  return r;
}

const TOPIC_SET = new Set<string>(TOPICS);
export function checkTopics(topics: unknown, where: string): string[] {
  if (!Array.isArray(topics) || topics.length === 0) throw new Error(`${where}: topics must be a non-empty list`);
  for (const t of topics) if (!TOPIC_SET.has(t)) throw new Error(`${where}: unknown topic ${JSON.stringify(t)}`);
  return topics as string[];
}

export function isHttpUrl(u: unknown): u is string {
  if (typeof u !== "string") return false;
  try {
    const x = new URL(u);
    return x.protocol === "https:" || x.protocol === "http:";
  } catch {
    return false;
  }
}

export function resourceRow(p: {
  jurisdiction_id: string;
  name: string;
  url: string;
  topics: string[];
  sort_key: number;
  source_kind: string;
  source_id: string | null;
  documented: number;
  publisher?: string | null;
  official?: boolean;
  description?: string | null;
  search_url_template?: string | null;
  provider?: string | null;
}): ResourceRow {
  return {
    resource_id: resourceId(p.jurisdiction_id, p.url, p.name),
    jurisdiction_id: p.jurisdiction_id,
    name: p.name,
    description: p.description ?? null,
    url: p.url,
    search_url_template: p.search_url_template ?? null,
    topics: JSON.stringify(p.topics),
    publisher: p.publisher ?? null,
    provider: p.provider ?? null,
    official: p.official ? 1 : 0,
    verified_status: "not_yet_verified",
    verified_at: null,
    verification_method: null,
    last_http_status: null,
    source_kind: p.source_kind,
    source_id: p.source_id,
    documented: p.documented,
    sort_key: p.sort_key,
  };
}

/** A sink that keeps the first row per id and the sources by id (same id twice must be the same record). */
export class Records {
  readonly sources = new Map<string, SourceRow>();
  readonly offices = new Map<string, OfficeRow>();
  readonly resources = new Map<string, ResourceRow>();
  readonly overrides = new Map<string, OverrideRow>();
  addSource(s: SourceRow): string {
    const had = this.sources.get(s.source_id);
    if (had && JSON.stringify(had) !== JSON.stringify(s))
      throw new Error(`source ${s.source_id} declared twice with different fields`);
    this.sources.set(s.source_id, s);
    return s.source_id;
  }
  addResource(r: ResourceRow): boolean {
    if (this.resources.has(r.resource_id)) return false;
    this.resources.set(r.resource_id, r);
    return true;
  }
  addOffice(o: OfficeRow): boolean {
    if (this.offices.has(o.office_id)) return false;
    this.offices.set(o.office_id, o);
    return true;
  }
  addOverride(o: OverrideRow): boolean {
    const k = `${o.jurisdiction_id}|${o.function}|${o.role}`;
    if (this.overrides.has(k)) return false;
    this.overrides.set(k, o);
    return true;
  }
}
