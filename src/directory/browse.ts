// Browse like a person: the counties of a state, and the cities, villages, towns and townships of a county, sorted
// by name and paged (the place pages' lists). Only governments are listed: county subdivisions and places the
// Census marks fictitious, inactive or statistical are left out, and a town that is the same government as a
// listed place is listed once (as the place). A place lies in the county that holds its Census internal point.
import type { Database, Statement } from "bun:sqlite";
import type { JurisdictionRow, Store } from "./store";

interface Listed {
  jurisdiction_id: string;
  name: string;
  type: string;
  legal_type: string | null;
}
export interface BrowseList {
  /** what the list holds: a state's counties, or a county's cities and towns; null: nothing is listed under it */
  kind: "counties" | "places" | null;
  items: Listed[];
  total: number;
  nextOffset: number | null;
}

const NOT_A_GOVERNMENT = new Set(["F", "I", "S"]); // Census FUNCSTAT: fictitious, inactive, statistical

export class Browse {
  private readonly countiesOf: Statement<Listed, [string]>;
  /** county id → its places and towns, by name: one narrow scan on first use (about 38,000 short rows) */
  private byCounty: Map<string, Listed[]> | null = null;

  constructor(
    private readonly db: Database,
    private readonly store: Store,
  ) {
    this.countiesOf = db.query(
      "SELECT jurisdiction_id, name, type, legal_type FROM jurisdictions " +
        "WHERE type = 'county' AND documented <> 0 AND state_fips = ? ORDER BY name, jurisdiction_id",
    );
  }

  under(j: JurisdictionRow, offset: number, size: number): BrowseList {
    const all =
      j.type === "state" && j.state_fips
        ? this.countiesOf.all(j.state_fips)
        : j.type === "county"
          ? (this.counties().get(j.jurisdiction_id) ?? [])
          : null;
    if (!all) return { kind: null, items: [], total: 0, nextOffset: null };
    const items = all.slice(offset, offset + size);
    return {
      kind: j.type === "state" ? "counties" : "places",
      items,
      total: all.length,
      nextOffset: offset + size < all.length ? offset + size : null,
    };
  }

  private counties(): Map<string, Listed[]> {
    if (this.byCounty) return this.byCounty;
    const m = new Map<string, Listed[]>();
    const rows = this.db
      .query<Listed & { county_id: string; funcstat: string | null }, []>(
        "SELECT jurisdiction_id, name, type, legal_type, county_id, funcstat FROM jurisdictions " +
          "WHERE type IN ('place', 'cousub') AND documented <> 0 AND county_id IS NOT NULL",
      )
      .all();
    for (const r of rows) {
      if (r.funcstat && NOT_A_GOVERNMENT.has(r.funcstat)) continue;
      // a town that is the same government as a place is listed as the place
      if (r.type === "cousub" && (this.store.sameAs.get(r.jurisdiction_id) ?? []).some((x) => x.startsWith("place:")))
        continue;
      const l = m.get(r.county_id);
      const item = { jurisdiction_id: r.jurisdiction_id, name: r.name, type: r.type, legal_type: r.legal_type };
      if (l) l.push(item);
      else m.set(r.county_id, [item]);
    }
    for (const l of m.values())
      l.sort((a, b) => a.name.localeCompare(b.name, "en") || a.jurisdiction_id.localeCompare(b.jurisdiction_id));
    return (this.byCounty = m);
  }
}
