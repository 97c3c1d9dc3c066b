// State-level resources from the authored state rules (data/state-rules.yaml, passed in as ctx.stateRules):
// the property tax page and the GIS portal of each state. Missing file or missing entries are tolerated.
import {
  AUTHORED_VINTAGE,
  PROJECT_PUBLISHER,
  type JurisdictionIn,
  Records,
  isHttpUrl,
  resourceRow,
  sourceRow,
} from "./records-common";

/** The entry of one state, whatever the shape of the parsed file (map by postal code, {states: ...} or a list). */
export function stateEntry(stateRules: any, postal: string): any | null {
  if (!stateRules || typeof stateRules !== "object") return null;
  const src = stateRules.states ?? stateRules;
  if (Array.isArray(src)) return src.find((e) => e && String(e.state ?? "").toUpperCase() === postal) ?? null;
  return src[postal] ?? src[postal.toLowerCase()] ?? null;
}

const PAGES = [
  {
    key: "property_tax_page",
    slug: "property-tax-page",
    topics: ["assessor", "property_tax_payment", "property_records_general"],
    sort: 10,
  },
  { key: "gis_portal", slug: "gis-portal", topics: ["county_gis", "parcel_map"], sort: 20 },
] as const;

/** The source row of one authored state-rules page: the page's own URL is the source URL. */
export function stateRulesPageSource(rec: Records, postal: string, slug: string, url: string): string {
  return rec.addSource(
    sourceRow({
      source_id: `state-rules:${postal.toLowerCase()}:${slug}`,
      name: "Authored state rules (data/state-rules.yaml)",
      url,
      publisher: PROJECT_PUBLISHER,
      official: 0,
      retrieved_at: null,
      license_class: "open",
      license: null,
      vintage: AUTHORED_VINTAGE,
    }),
  );
}

export function buildStateResources(
  rec: Records,
  jurisdictions: Map<string, JurisdictionIn>,
  stateRules: any,
  log: (s: string) => void,
): Record<string, number> {
  const counts = { state_resources: 0, state_pages_missing: 0, state_pages_bad_url: 0 };
  const states = [...jurisdictions.values()]
    .filter((j) => j.type === "state" && j.state)
    .sort((a, b) => a.jurisdiction_id.localeCompare(b.jurisdiction_id));
  for (const j of states) {
    const e = stateEntry(stateRules, j.state!);
    for (const p of PAGES) {
      const page = e?.[p.key];
      if (!page) {
        counts.state_pages_missing++;
        continue;
      }
      if (!isHttpUrl(page.url) || !page.name) {
        counts.state_pages_bad_url++;
        log(`  state rules ${j.state} ${p.key}: no name or no http(s) url, skipped`);
        continue;
      }
      const sid = stateRulesPageSource(rec, j.state!, p.slug, page.url);
      if (
        rec.addResource(
          resourceRow({
            jurisdiction_id: j.jurisdiction_id,
            name: page.name,
            url: page.url,
            topics: [...p.topics],
            sort_key: p.sort,
            source_kind: "state-rules-yaml",
            source_id: sid,
            documented: rec.sources.get(sid)!.documented,
            publisher: page.publisher ?? null,
            official: page.official ?? true,
            description: page.description ?? null,
          }),
        )
      )
        counts.state_resources++;
    }
  }
  return counts;
}
