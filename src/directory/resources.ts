// Resources: the record as answers give it, and the ranked list for a place (and a topic).
//
// Ranking (one fixed order for every caller): with a topic, the place's own resources first, then each body up
// the chain (county subdivision, county, state) and finally country:us; within one body by the record's
// sort_key (set by the build: state property-tax page 10, state GIS portal 20, official home page 30, national
// list in its order), then by resource_id. Without a topic only the place's own resources, in the same order.
import type { PageLinks } from "../domain/page-links";
import { DomainError } from "../domain/errors";
import { resourceLinkStatus } from "../links/overlay";
import type { ResourceRow, Store } from "./store";
import { SourceTrail, TYPE_ORDER } from "./jurisdictions";
import type { JurisdictionRow } from "./store";

export function resourceOut(r: ResourceRow, links: PageLinks) {
  return {
    resource_id: r.resource_id,
    name: r.name,
    description: r.description,
    url: r.url,
    search_url_template: r.search_url_template,
    topics: r.topics as any[],
    jurisdiction_id: r.jurisdiction_id,
    publisher: r.publisher,
    provider: r.provider,
    official: !!r.official,
    ...resourceLinkStatus(links, r), // verified_status, verified_at, verification_method, last_http_status
    license_class: "open" as const,
    source_kind: r.source_kind,
    page_url: links.resource(r.resource_id),
  };
}
export type ResourceOut = ReturnType<typeof resourceOut>;

const byRank = (a: ResourceRow, b: ResourceRow) => a.sort_key - b.sort_key || (a.resource_id < b.resource_id ? -1 : 1);

/** All ranked resources for the place (smallest of `chain` is the place), before paging. */
export function rankedResources(
  store: Store,
  trail: SourceTrail,
  chain: JurisdictionRow[],
  topic: string | null,
): ResourceRow[] {
  const place = [...chain].sort((a, b) => TYPE_ORDER[b.type]! - TYPE_ORDER[a.type]!)[0];
  if (!place) return [];
  const bodies =
    topic === null
      ? [place]
      : [
          ...[...chain].sort((a, b) => TYPE_ORDER[b.type]! - TYPE_ORDER[a.type]!),
          ...(place.type === "country"
            ? []
            : [store.jurisdiction("country:us")].filter((x): x is JurisdictionRow => !!x)),
        ];
  const out: ResourceRow[] = [];
  const seen = new Set<string>();
  for (const b of bodies) {
    const got = store.resourcesOf(b.jurisdiction_id);
    trail.leftOut += got.leftOut;
    for (const r of [...got.items].sort(byRank)) {
      if (topic !== null && !r.topics.includes(topic)) continue;
      if (seen.has(r.resource_id)) continue;
      seen.add(r.resource_id);
      out.push(r);
    }
  }
  return out;
}

export function page<T>(items: T[], offset: number, size: number): { items: T[]; nextOffset: number | null } {
  const slice = items.slice(offset, offset + size);
  return { items: slice, nextOffset: offset + size < items.length ? offset + size : null };
}

export function requireJurisdiction(store: Store, id: string): JurisdictionRow {
  const j = store.jurisdiction(id);
  if (!j) throw new DomainError("unknown-jurisdiction", `No place has the jurisdiction_id '${id.slice(0, 40)}'.`);
  return j;
}
