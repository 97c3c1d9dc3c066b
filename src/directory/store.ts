// Read-only access to the data file. Rows are read on demand by primary key and kept once read (the file is
// read-only): a jurisdiction by id, a source by id; the resources of a jurisdiction are kept under their memory
// budget (src/domain/cache-budget.ts: all of them take ~40 MB, and traffic over the whole country reads them all)
// and read again when dropped. Start reads only the small tables (same_as, offices, overrides, state rules); every
// jurisdiction row is read on the first use of a feature that needs them all (the place-name index). The provenance
// filter lives here: records whose origin is undocumented (documented = 0) are never handed out; callers get a count.
import type { Database, Statement } from "bun:sqlite";
import { LRUCache } from "lru-cache";
import type { PageLinks } from "../domain/page-links";
import { budgeted } from "../domain/cache-budget";

export type { JurisdictionRow, ResourceRow, OfficeRow, OverrideRow, SourceRow } from "./rows";
import type { JurisdictionRow, ResourceRow, OfficeRow, OverrideRow, SourceRow } from "./rows";

/** A list handed out with the count of undocumented records that were left out of it. */
interface Filtered<T> {
  items: T[];
  leftOut: number;
}

const groupBy = <T>(rows: T[], key: (r: T) => string) => {
  const m = new Map<string, T[]>();
  for (const r of rows) {
    const k = key(r);
    const l = m.get(k);
    if (l) l.push(r);
    else m.set(k, [r]);
  }
  return m;
};

/** ORDER BY sort_key, resource_id within one jurisdiction (the ids are ASCII: JavaScript order = SQLite BINARY order). */
const byResourceOrder = (a: { sort_key: number; resource_id: string }, b: typeof a) =>
  a.sort_key !== b.sort_key
    ? a.sort_key - b.sort_key
    : a.resource_id < b.resource_id
      ? -1
      : a.resource_id > b.resource_id
        ? 1
        : 0;

const JURISDICTION_COLUMNS = `jurisdiction_id, type, name, legal_type, state, state_fips, county_id, ocd_id, tiger_vintage, incorporated,
  funcstat, source_id, documented, boundary_source`;

/** States with documented county subdivision records (covered by the index jurisdictions_by_type: no table scan). */
export const COUSUB_STATES_SQL =
  "SELECT DISTINCT state_fips AS s FROM jurisdictions WHERE type = 'cousub' AND documented <> 0 AND state_fips IS NOT NULL AND state_fips <> ''";

type Radon = { zone: string; edition: string; note: string | null; source_id: string };

export interface PermitOffice {
  bps_id: string;
  jurisdiction_id: string;
  kind: "place" | "town" | "county_unincorporated";
  name: string;
  population: number;
  months_reported: number;
  source_id: string;
}

interface BoundaryRow {
  geom: Uint8Array | null;
  boundary_precision: string | null;
  boundary_source: string | null;
}

export class Store {
  readonly sameAs = new Map<string, string[]>();
  readonly stateRuleSource = new Map<string, string>();
  readonly manifest: Record<string, string>;
  /** jurisdiction rows read so far (hits only: unknown ids from requests are not remembered) */
  private readonly jurisdictionRows = new Map<string, JurisdictionRow>();
  private allJurisdictions: Map<string, JurisdictionRow> | null = null;
  private readonly jurisdictionStmt: Statement<JurisdictionRow, [string]>;
  private readonly sourceRows = new Map<string, SourceRow>();
  private readonly sourceStmt: Statement<SourceRow, [string]>;
  /** jurisdiction → rowids of its resources, from resources_by_jurisdiction, or for a file without that index from
   * one narrow scan on first use */
  private resourceRowids: Map<string, number[]> | null = null;
  private readonly resourceGroups = new LRUCache<string, ResourceRow[]>(
    budgeted<ResourceRow[]>("store_resources", 50_000),
  );
  private readonly resourceStmt: Statement<ResourceRow & { topics: string }, [number]>;
  private readonly resourceRowidStmt: Statement<{ rowid: number }, [string]>;
  private readonly resourceRowidsOf: Statement<{ rowid: number }, [string]> | null = null;
  private readonly offices: Map<string, OfficeRow[]>;
  private readonly overrides: Map<string, OverrideRow[]>;
  private radonZones: Map<string, Radon> | null = null;
  private readonly permitStmt: Statement<PermitOffice, [string]> | null;

  constructor(readonly db: Database) {
    this.jurisdictionStmt = db.query(`SELECT ${JURISDICTION_COLUMNS} FROM jurisdictions WHERE jurisdiction_id = ?`);
    this.sourceStmt = db.query("SELECT * FROM sources WHERE source_id = ?");
    this.resourceStmt = db.query("SELECT * FROM resources WHERE rowid = ?");
    this.resourceRowidStmt = db.query("SELECT rowid FROM resources WHERE resource_id = ?");
    // files built before the permit survey have no permit_survey table: no office is listed there
    this.permitStmt = db.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'permit_survey'").get()
      ? db.query<PermitOffice, [string]>(
          "SELECT bps_id, jurisdiction_id, kind, name, population, months_reported, source_id FROM permit_survey " +
            "WHERE jurisdiction_id = ? AND kind IN ('place', 'town', 'county_unincorporated') ORDER BY population DESC",
        )
      : null;
    // files built before the index was added are read with one narrow scan instead (resourcesAll)
    if (db.query("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = 'resources_by_jurisdiction'").get()) {
      this.resourceRowidsOf = db.query<{ rowid: number }, [string]>(
        "SELECT rowid FROM resources WHERE jurisdiction_id = ?",
      );
    }
    for (const r of db
      .query<{ jurisdiction_id: string; other_id: string }, []>(
        "SELECT jurisdiction_id, other_id FROM same_as ORDER BY jurisdiction_id, other_id",
      )
      .all()) {
      const l = this.sameAs.get(r.jurisdiction_id);
      if (l) l.push(r.other_id);
      else this.sameAs.set(r.jurisdiction_id, [r.other_id]);
    }
    this.offices = groupBy(
      db.query<OfficeRow, []>("SELECT * FROM offices ORDER BY jurisdiction_id, office_id").all(),
      (r) => r.jurisdiction_id,
    );
    this.overrides = groupBy(
      db.query<OverrideRow, []>("SELECT * FROM function_overrides ORDER BY jurisdiction_id, function, role").all(),
      (r) => r.jurisdiction_id,
    );
    for (const r of db
      .query<{ state: string; source_id: string }, []>("SELECT state, source_id FROM state_rules")
      .all())
      this.stateRuleSource.set(r.state.toUpperCase(), r.source_id);
    this.manifest = Object.fromEntries(
      db
        .query<{ key: string; value: string }, []>("SELECT key, value FROM manifest")
        .all()
        .map((r) => [r.key, r.value]),
    );
  }

  /** Every jurisdiction row (documented or not) by id, in id order: read on first use (a full scan, ~40k rows). */
  get jurisdictions(): ReadonlyMap<string, JurisdictionRow> {
    if (this.allJurisdictions) return this.allJurisdictions;
    const all = new Map<string, JurisdictionRow>();
    for (const r of this.db
      .query<JurisdictionRow, []>(`SELECT ${JURISDICTION_COLUMNS} FROM jurisdictions ORDER BY jurisdiction_id`)
      .all()) {
      all.set(r.jurisdiction_id, this.jurisdictionRows.get(r.jurisdiction_id) ?? r); // rows already handed out stay the same objects
    }
    this.jurisdictionRows.clear();
    return (this.allJurisdictions = all);
  }

  private row(id: string): JurisdictionRow | undefined {
    if (this.allJurisdictions) return this.allJurisdictions.get(id);
    let j = this.jurisdictionRows.get(id);
    if (!j) {
      j = this.jurisdictionStmt.get(id) ?? undefined;
      if (j) this.jurisdictionRows.set(id, j);
    }
    return j;
  }

  /** A documented jurisdiction, or null (unknown or undocumented). */
  jurisdiction(id: string): JurisdictionRow | null {
    const j = this.row(id);
    return j && j.documented ? j : null;
  }

  /** Documented states, DC and territories (a range of the primary key: no scan). */
  states(): JurisdictionRow[] {
    if (this.allJurisdictions)
      return [...this.allJurisdictions.values()].filter((j) => j.type === "state" && j.documented);
    const ids = this.db
      .query<{ jurisdiction_id: string }, []>(
        "SELECT jurisdiction_id FROM jurisdictions WHERE jurisdiction_id >= 'state:' AND jurisdiction_id < 'state;' ORDER BY jurisdiction_id",
      )
      .all();
    return ids
      .map((r) => this.jurisdiction(r.jurisdiction_id))
      .filter((j): j is JurisdictionRow => !!j && j.type === "state");
  }

  /** State FIPS codes with at least one documented county subdivision record. */
  cousubRecordStates(): Set<string> {
    const out = new Set<string>();
    if (this.allJurisdictions) {
      for (const j of this.allJurisdictions.values())
        if (j.type === "cousub" && j.documented && j.state_fips) out.add(j.state_fips);
      return out;
    }
    for (const r of this.db.query<{ s: string }, []>(COUSUB_STATES_SQL).all()) out.add(r.s);
    return out;
  }

  /** A source record by id (documented or not), or undefined. */
  source(id: string): SourceRow | undefined {
    let s = this.sourceRows.get(id);
    if (!s) {
      s = this.sourceStmt.get(id) ?? undefined;
      if (s) this.sourceRows.set(id, s);
    }
    return s;
  }

  isDocumentedSource(id: string | null): boolean {
    return !!id && this.source(id)?.documented === 1;
  }

  /** The Census permit survey's office for a jurisdiction (a place, a town, or a county for its unincorporated
   *  area), documented source only; null where the survey lists none or the file has no survey table. */
  permitOffice(jurisdictionId: string): PermitOffice | null {
    const r = this.permitStmt?.get(jurisdictionId) ?? null;
    return r && this.isDocumentedSource(r.source_id) ? r : null;
  }

  private townStates: Set<string> | null = null;
  /** Whether the permit survey lists town or township offices in the state (by FIPS code). */
  hasTownPermitOffices(stateFips: string): boolean {
    if (!this.townStates) {
      this.townStates = new Set(
        this.permitStmt
          ? this.db
              .query<{ s: string }, []>(
                "SELECT DISTINCT substr(jurisdiction_id, 8, 2) AS s FROM permit_survey WHERE kind = 'town'",
              )
              .all()
              .map((r) => r.s)
          : [],
      );
    }
    return this.townStates.has(stateFips);
  }

  private placesHeld: boolean | null = null;
  /** Whether the data file holds any place (city, village ...) at all: a file built without them (the npm atlas
   *  alone) cannot tell whether a point lies in a city, so a city-level job is not handed to the county there. */
  holdsPlaces(): boolean {
    this.placesHeld ??= !!this.db.query("SELECT 1 FROM jurisdictions WHERE type = 'place' LIMIT 1").get();
    return this.placesHeld;
  }

  private countiesWithTowns: Set<string> | null = null;
  /** Whether the data file holds any county subdivision record (with or without a boundary) in the county: the
   *  Illinois counties without township organization hold none. Read once. */
  countyHasTowns(countyId: string): boolean {
    this.countiesWithTowns ??= new Set(
      this.db
        .query<{ c: string }, []>(
          "SELECT DISTINCT county_id AS c FROM jurisdictions WHERE type = 'cousub' AND county_id IS NOT NULL",
        )
        .all()
        .map((r) => r.c),
    );
    return this.countiesWithTowns.has(countyId);
  }

  /** Radon zones by county id (read on first use). */
  get radon(): ReadonlyMap<string, Radon> {
    if (!this.radonZones) {
      this.radonZones = new Map();
      for (const r of this.db.query<Radon & { county_id: string }, []>("SELECT * FROM radon_zones").all())
        this.radonZones.set(r.county_id, r);
    }
    return this.radonZones;
  }

  private documented<T extends { documented: number; source_id: string | null }>(rows: T[]): Filtered<T> {
    let leftOut = 0;
    const items: T[] = [];
    for (const r of rows) {
      if (r.documented && this.isDocumentedSource(r.source_id)) items.push(r);
      else leftOut++;
    }
    return { items, leftOut };
  }

  private resourceRow(rowid: number): ResourceRow | null {
    const raw = this.resourceStmt.get(rowid);
    if (!raw) return null;
    const r = raw as unknown as ResourceRow;
    r.topics = JSON.parse(raw.topics as unknown as string) as string[]; // in place: no copy of the row
    return r;
  }

  /** Every resource of a jurisdiction (documented or not), by sort_key then resource_id. */
  private resourcesAll(jurisdictionId: string): ResourceRow[] {
    let g = this.resourceGroups.get(jurisdictionId);
    if (g) return g;
    const rowids = this.resourceRowidsOf
      ? this.resourceRowidsOf.all(jurisdictionId).map((r) => r.rowid)
      : (this.scannedRowids().get(jurisdictionId) ?? []);
    g = rowids.map((id) => this.resourceRow(id)!).sort(byResourceOrder);
    this.resourceGroups.set(jurisdictionId, g);
    return g;
  }

  private scannedRowids(): Map<string, number[]> {
    if (!this.resourceRowids) {
      const m = new Map<string, number[]>();
      for (const [rowid, jid] of this.db
        .query<unknown, []>("SELECT rowid, jurisdiction_id FROM resources")
        .values() as [number, string][]) {
        const l = m.get(jid);
        if (l) l.push(rowid);
        else m.set(jid, [rowid]);
      }
      this.resourceRowids = m;
    }
    return this.resourceRowids;
  }

  resourcesOf(jurisdictionId: string): Filtered<ResourceRow> {
    return this.documented(this.resourcesAll(jurisdictionId));
  }
  officesOf(jurisdictionId: string): Filtered<OfficeRow> {
    return this.documented(this.offices.get(jurisdictionId) ?? []);
  }
  overridesOf(jurisdictionId: string): OverrideRow[] {
    return (this.overrides.get(jurisdictionId) ?? []).filter((o) => this.isDocumentedSource(o.source_id));
  }
  /** One documented resource by id, or null. */
  resourcesOfId(resourceId: string): ResourceRow | null {
    const hit = this.resourceRowidStmt.get(resourceId);
    const r = hit ? this.resourceRow(hit.rowid) : null;
    return r && r.documented && this.isDocumentedSource(r.source_id) && this.jurisdiction(r.jurisdiction_id) ? r : null;
  }

  private officeBodyStmt: Statement<{ jurisdiction_id: string; function: string | null }, [string]> | null = null;
  /** The body and job of an office by its id (documented or not: the caller looks it up among officesOf). */
  officeBody(officeId: string): { jurisdiction_id: string; function: string | null } | null {
    this.officeBodyStmt ??= this.db.query("SELECT jurisdiction_id, function FROM offices WHERE office_id = ?");
    return this.officeBodyStmt.get(officeId);
  }

  private boundaryStmt: Statement<BoundaryRow, [string]> | null = null;
  /** The stored boundary blob of a jurisdiction with its precision and source (null blob: none held). */
  boundaryRow(jurisdictionId: string): BoundaryRow | null {
    this.boundaryStmt ??= this.db.query(
      "SELECT geom, boundary_precision, boundary_source FROM jurisdictions WHERE jurisdiction_id = ?",
    );
    return this.boundaryStmt.get(jurisdictionId);
  }

  // Answer records (a jurisdiction or a source as answers give them) are pure functions of their row, the page
  // links and the link checker's current results. They are made once per row and results version and shared by
  // every answer that holds them: the chain answers kept by the directory then share their state, county and
  // source records instead of each holding copies (fewer live objects). Shared records are never mutated.
  private readonly sharedByLinks = new WeakMap<PageLinks, WeakMap<object, { version: number; out: unknown }>>();
  /** The answer record of `row` under `links`, made by `make` once per link-results version. */
  shared<T>(links: PageLinks, row: object, make: () => T): T {
    let rows = this.sharedByLinks.get(links);
    if (!rows) this.sharedByLinks.set(links, (rows = new WeakMap()));
    const version = links.results?.version ?? 0;
    const hit = rows.get(row);
    if (hit && hit.version === version) return hit.out as T;
    const out = make();
    rows.set(row, { version, out });
    return out;
  }
}
