// Jurisdiction records as answers give them, the chain of a jurisdiction, and the Source trail of an answer.
import type { PageLinks } from "../domain/page-links";
import type { JurisdictionRow, Store } from "./store";
import type { SourceOut } from "../domain/source";
import { sourceLinkStatus } from "../links/overlay";

// A county subdivision without a town government (Maine's unorganized territories, gores and reservations, New
// Hampshire's unincorporated Coos County places) does no town-level job: the rule does not hold there. A
// "fictitious" one (Census FUNCSTAT F: the county subdivision Census draws where an incorporated city stands, as
// for Boston) stands for that city: the city in the chain is the town-level body.
const NOT_A_TOWN_GOVERNMENT = new Set(["unorganized territory", "gore", "reservation"]);
export const isTownGovernment = (j: JurisdictionRow) =>
  !NOT_A_TOWN_GOVERNMENT.has((j.legal_type ?? "").toLowerCase()) && !/^[FINS]$/.test(j.funcstat ?? "");

export const TYPE_ORDER: Record<string, number> = { country: 0, state: 1, county: 2, cousub: 3, place: 4, district: 5 };

export function jurisdictionOut(j: JurisdictionRow, store: Store, links: PageLinks) {
  return store.shared(links, j, () => makeJurisdictionOut(j, store, links));
}

function makeJurisdictionOut(j: JurisdictionRow, store: Store, links: PageLinks) {
  const same = (store.sameAs.get(j.jurisdiction_id) ?? []).filter((id) => store.jurisdiction(id));
  return {
    jurisdiction_id: j.jurisdiction_id,
    type: j.type as "country" | "state" | "county" | "cousub" | "place" | "district",
    name: j.name,
    legal_type: j.legal_type,
    state: j.state,
    same_as: same,
    ocd_id: j.ocd_id,
    tiger_vintage: j.tiger_vintage,
    page_url: links.place(j.jurisdiction_id),
  };
}
export type JurisdictionOut = ReturnType<typeof jurisdictionOut>;

/** The chain of a jurisdiction, largest first: state → county → county subdivision → place. */
export function chainOf(store: Store, id: string): JurisdictionRow[] {
  const j = store.jurisdiction(id);
  if (!j) return [];
  if (j.type === "country") return [j];
  const out: (JurisdictionRow | null)[] = [];
  const state = j.state_fips ? store.jurisdiction(`state:${j.state_fips}`) : null;
  const same = (store.sameAs.get(id) ?? []).map((x) => store.jurisdiction(x)).filter((x): x is JurisdictionRow => !!x);
  if (j.type === "state") return [j];
  out.push(state);
  if (j.type === "county") {
    out.push(j);
  } else if (j.type === "cousub") {
    out.push(j.county_id ? store.jurisdiction(j.county_id) : null, j, same.find((s) => s.type === "place") ?? null);
  } else if (j.type === "place") {
    const cousubs = same.filter((s) => s.type === "cousub");
    const cousub = cousubs.find((c) => c.county_id === j.county_id) ?? cousubs[0] ?? null;
    const county = j.county_id ?? cousub?.county_id ?? null;
    out.push(county ? store.jurisdiction(county) : null, cousub, j);
  } else out.push(j);
  // A county that is the same government as the state (DC) or as a place is still listed: the chain is by type.
  return out.filter((x): x is JurisdictionRow => !!x);
}

/** Chain from the ids a point lookup found (each may be null). */
export function chainFromIds(store: Store, ids: (string | null)[]): JurisdictionRow[] {
  return ids.map((id) => (id ? store.jurisdiction(id) : null)).filter((x): x is JurisdictionRow => !!x);
}

/** A Source of spec part 1. Authored sources kept in this repository (url a repository path) point at the
 * service's own page for the source, /sources/{source_id}. */
export function sourceOut(store: Store, sourceId: string | null, links: PageLinks): SourceOut | null {
  const s = sourceId ? store.source(sourceId) : undefined;
  if (!s || !s.documented) return null;
  return store.shared(links, s, (): SourceOut => ({
    name: s.name,
    url: /^https?:\/\//.test(s.url) ? s.url : `${links.site}/sources/${encodeURIComponent(s.source_id)}`,
    publisher: s.publisher,
    official: !!s.official,
    retrieved_at:
      s.retrieved_at && !Number.isNaN(Date.parse(s.retrieved_at)) ? new Date(s.retrieved_at).toISOString() : null,
    license_class: ([
      "open",
      "public_record",
      "restricted_no_redistribution",
      "licensed_third_party",
      "unknown",
    ].includes(s.license_class)
      ? s.license_class
      : "unknown") as SourceOut["license_class"],
    ...sourceLinkStatus(links, s.url), // verified_status, verified_at once the link checker has seen the URL
  }));
}

/** Collects the sources of what an answer holds and the count of left-out undocumented records. */
export class SourceTrail {
  private readonly ids = new Set<string>();
  leftOut = 0;
  constructor(
    private readonly store: Store,
    private readonly links: PageLinks,
  ) {}
  add(sourceId: string | null | undefined) {
    if (sourceId) this.ids.add(sourceId);
    return this;
  }
  addAll(rows: { source_id: string | null }[]) {
    for (const r of rows) this.add(r.source_id);
    return this;
  }
  sources(): SourceOut[] {
    return [...this.ids]
      .sort()
      .map((id) => sourceOut(this.store, id, this.links))
      .filter((s): s is SourceOut => !!s);
  }
  notices(): string[] {
    return this.leftOut > 0
      ? [
          `${this.leftOut} directory record${this.leftOut === 1 ? " was" : "s were"} left out because ${this.leftOut === 1 ? "its" : "their"} origin is not yet documented.`,
        ]
      : [];
  }
}
