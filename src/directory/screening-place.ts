// What the directory says about a screening point: the chain and who does each job (the memoised chain answer of
// resolve), the county's radon zone with its source, and the directory resources under a fact's topic (ranked as
// /resources ranks them, first five). Resources depend on the chain only, so they are memoised per chain (in the
// directory's screeningResources, under its budget).
import type { Directory } from "./directory";
import { sourceOut } from "./jurisdictions";

const RESOURCES_PER_FACT = 5;

export function screeningPlace(dir: Directory, lon: number, lat: number) {
  const c = dir.chainAnswerAt(lon, lat); // outside-coverage when no state covers the point
  const state = c.jurisdictions.find((j) => j.type === "state") ?? null;
  const county = c.jurisdictions.find((j) => j.type === "county") ?? null;
  const radon = county ? (dir.store.radon.get(county.jurisdiction_id) ?? null) : null;
  const chainKey = c.jurisdictions.map((j) => j.jurisdiction_id).join("|");
  const cache = dir.screeningResources;
  return {
    key: chainKey,
    state: state?.state ?? null,
    stateName: state?.name ?? null,
    countyName: county?.name ?? null,
    jurisdictions: c.jurisdictions,
    functions: c.functions as Record<string, unknown>,
    radon: radon ? { ...radon, source: sourceOut(dir.store, radon.source_id, dir.links) } : null,
    /** false for a data file built without the radon map: the fact is then unknown, never "not on the map" */
    radonLoaded: dir.store.radon.size > 0,
    sources: c.sources,
    notices: c.notices,
    resources(topic: string) {
      const key = `${chainKey}#${topic}`;
      let r = cache.get(key);
      if (!r) {
        const got = dir.resources({ point: { lon, lat } }, topic, 0, RESOURCES_PER_FACT);
        r = { items: got.data.resources, sources: got.sources, notices: got.notices };
        cache.set(key, r);
      }
      return r;
    },
  };
}
