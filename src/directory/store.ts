// Read-only access to the data file. Everything the answers need (not the geometry: see boundaries.ts) is loaded
// into memory at start: ~40k jurisdictions, ~10k resources, offices, overrides, sources. The provenance filter
// lives here: records whose origin is undocumented (documented = 0) are never handed out; callers get a count.
import type { Database } from "bun:sqlite";

export interface JurisdictionRow {
  jurisdiction_id: string; type: string; name: string; legal_type: string | null; state: string | null;
  state_fips: string | null; county_id: string | null; ocd_id: string | null; tiger_vintage: string | null;
  incorporated: number | null; source_id: string; documented: number;
  /** Census FUNCSTAT: A, B, C, G = an active government; F, I, N, S = none (e.g. Maine's unorganized territories) */
  funcstat?: string | null;
  /** source of the polygon the point index holds (a point answer cites it) */
  boundary_source?: string | null;
}
export interface ResourceRow {
  resource_id: string; jurisdiction_id: string; name: string; description: string | null; url: string;
  search_url_template: string | null; topics: string[]; publisher: string | null; provider: string | null; official: number;
  verified_status: string; verified_at: string | null; verification_method: string | null; last_http_status: number | null;
  source_kind: string; source_id: string | null; documented: number; sort_key: number;
}
export interface OfficeRow {
  office_id: string; jurisdiction_id: string; name: string; kind: string | null; function: string | null;
  phone: string | null; email: string | null; address: string | null; url: string | null;
  verified_status: string; verified_at: string | null; source_kind: string; source_id: string | null; documented: number;
}
export interface OverrideRow {
  jurisdiction_id: string; function: string; performer_id: string | null; office_id: string | null; role: string;
  levy_scope: string | null; basis: string | null; evidence_url: string | null; source_id: string;
}
export interface SourceRow {
  source_id: string; name: string; url: string; publisher: string | null; official: number; retrieved_at: string | null;
  license_class: string; license: string | null; vintage: string | null; sha256: string | null; documented: number;
}

/** A list handed out with the count of undocumented records that were left out of it. */
export interface Filtered<T> { items: T[]; leftOut: number }

const groupBy = <T>(rows: T[], key: (r: T) => string) => {
  const m = new Map<string, T[]>();
  for (const r of rows) { const k = key(r); const l = m.get(k); if (l) l.push(r); else m.set(k, [r]); }
  return m;
};

/** ORDER BY jurisdiction_id, sort_key, resource_id (the ids are ASCII: JavaScript order = SQLite BINARY order). */
const byResourceOrder = (a: { jurisdiction_id: string; sort_key: number; resource_id: string }, b: typeof a) =>
  a.jurisdiction_id < b.jurisdiction_id ? -1 : a.jurisdiction_id > b.jurisdiction_id ? 1
    : a.sort_key !== b.sort_key ? a.sort_key - b.sort_key : a.resource_id < b.resource_id ? -1 : a.resource_id > b.resource_id ? 1 : 0;

export class Store {
  readonly jurisdictions = new Map<string, JurisdictionRow>();
  readonly sameAs = new Map<string, string[]>();
  readonly sources = new Map<string, SourceRow>();
  private readonly resources: Map<string, ResourceRow[]>;
  private readonly resourceById = new Map<string, ResourceRow>();
  private readonly offices: Map<string, OfficeRow[]>;
  private readonly overrides: Map<string, OverrideRow[]>;
  readonly radon = new Map<string, { zone: string; edition: string; note: string | null; source_id: string }>();
  readonly manifest: Record<string, string>;
  readonly stateRuleSource = new Map<string, string>();

  constructor(readonly db: Database) {
    for (const r of db.query<JurisdictionRow, []>(
      `SELECT jurisdiction_id, type, name, legal_type, state, state_fips, county_id, ocd_id, tiger_vintage, incorporated,
              funcstat, source_id, documented, boundary_source FROM jurisdictions ORDER BY jurisdiction_id`).all()) this.jurisdictions.set(r.jurisdiction_id, r);
    for (const r of db.query<{ jurisdiction_id: string; other_id: string }, []>("SELECT jurisdiction_id, other_id FROM same_as ORDER BY jurisdiction_id, other_id").all()) {
      const l = this.sameAs.get(r.jurisdiction_id); if (l) l.push(r.other_id); else this.sameAs.set(r.jurisdiction_id, [r.other_id]);
    }
    for (const r of db.query<SourceRow, []>("SELECT * FROM sources ORDER BY source_id").all()) this.sources.set(r.source_id, r);
    // sorted here, not by ORDER BY: the table has no index in that order, and SQLite's sort took ~100 ms at start
    const res = db.query<ResourceRow & { topics: string }, []>("SELECT * FROM resources").all()
      .sort(byResourceOrder) as unknown as ResourceRow[];
    for (const r of res) r.topics = JSON.parse(r.topics as unknown as string) as string[]; // in place: no copy of each row
    this.resources = groupBy(res, (r) => r.jurisdiction_id);
    for (const r of res) this.resourceById.set(r.resource_id, r);
    this.offices = groupBy(db.query<OfficeRow, []>("SELECT * FROM offices ORDER BY jurisdiction_id, office_id").all(), (r) => r.jurisdiction_id);
    this.overrides = groupBy(db.query<OverrideRow, []>("SELECT * FROM function_overrides ORDER BY jurisdiction_id, function, role").all(), (r) => r.jurisdiction_id);
    for (const r of db.query<{ county_id: string; zone: string; edition: string; note: string | null; source_id: string }, []>("SELECT * FROM radon_zones").all()) this.radon.set(r.county_id, r);
    for (const r of db.query<{ state: string; source_id: string }, []>("SELECT state, source_id FROM state_rules").all()) this.stateRuleSource.set(r.state.toUpperCase(), r.source_id);
    this.manifest = Object.fromEntries(db.query<{ key: string; value: string }, []>("SELECT key, value FROM manifest").all().map((r) => [r.key, r.value]));
  }

  /** A documented jurisdiction, or null (unknown or undocumented). */
  jurisdiction(id: string): JurisdictionRow | null {
    const j = this.jurisdictions.get(id);
    return j && j.documented ? j : null;
  }

  isDocumentedSource(id: string | null): boolean { return !!id && this.sources.get(id)?.documented === 1; }

  private documented<T extends { documented: number; source_id: string | null }>(rows: T[]): Filtered<T> {
    let leftOut = 0;
    const items: T[] = [];
    for (const r of rows) { if (r.documented && this.isDocumentedSource(r.source_id)) items.push(r); else leftOut++; }
    return { items, leftOut };
  }

  resourcesOf(jurisdictionId: string): Filtered<ResourceRow> { return this.documented(this.resources.get(jurisdictionId) ?? []); }
  officesOf(jurisdictionId: string): Filtered<OfficeRow> { return this.documented(this.offices.get(jurisdictionId) ?? []); }
  overridesOf(jurisdictionId: string): OverrideRow[] {
    return (this.overrides.get(jurisdictionId) ?? []).filter((o) => this.isDocumentedSource(o.source_id));
  }
  /** One documented resource by id, or null. */
  resourcesOfId(resourceId: string): ResourceRow | null {
    const r = this.resourceById.get(resourceId);
    return r && r.documented && this.isDocumentedSource(r.source_id) && this.jurisdiction(r.jurisdiction_id) ? r : null;
  }
}
