// A point in a state whose town and township boundaries the data file does not hold (New York, Michigan,
// Wisconsin, Pennsylvania …): the county subdivision comes from outside the data file, through this interface
// (implemented in src/lookups/towns: boundaries kept in the layers file, a loaded Census file, or the Census
// Bureau's TIGERweb service). The domain decides WHEN to ask (townless state, a town- or township-level rule) and
// how the answer enters the chain (the data file's own record of that GEOID, with the boundary's FUNCSTAT).
import type { JurisdictionRow } from "./rows";
import type { Content } from "./content";
import type { SourceOut } from "../domain/source";

export interface TownBoundaryOrigin {
  /** "service": TIGERweb (fetched, then kept); "file": a county-subdivision file an operator loaded */
  kind: "service" | "file";
  dataset: string;
  publisher: string;
  url: string;
  vintage: string | null;
  fetched_at: string;
}
interface TownBoundaryHit {
  geoid: string;
  name: string;
  funcstat: string | null;
  origin: TownBoundaryOrigin;
  /** answered from a polygon kept earlier (no outside call) */
  kept: boolean;
}
export type TownLookup = { hit: TownBoundaryHit } | { miss: "none" | "off" | "failed" | "limited"; detail: string };

export interface TownLocator {
  find(lon: number, lat: number, stateFips: string): Promise<TownLookup>;
}

/** Levels at which a county subdivision can do a job (functions.ts: town; city = the place, else the town). */
const TOWN_LEVELS = new Set(["town", "city"]);

/** Does any job of the state's rules fall to a town or township (where no incorporated place does it)? */
export function townLevelState(content: Content, stateCode: string): boolean {
  const r = content.stateRules.get(stateCode);
  if (!r) return false;
  const rules = [r.assessment, r.tax_collection, r.recording, r.zoning].filter((x) => !!x);
  return rules.some((x) => TOWN_LEVELS.has(x!.level ?? "") || TOWN_LEVELS.has(x!.else_level ?? ""));
}

/** The chain's cousub record, with the boundary's functional status where the record has none. */
export function townRow(row: JurisdictionRow, hit: TownBoundaryHit): JurisdictionRow {
  return row.funcstat || !hit.funcstat ? row : { ...row, funcstat: hit.funcstat };
}

/** The boundary's trail as an answer source. */
export function townSource(hit: TownBoundaryHit): SourceOut {
  const o = hit.origin;
  return {
    name:
      o.kind === "service"
        ? `${o.dataset}: county subdivision ${hit.geoid} (${hit.name}), fetched ${o.fetched_at.slice(0, 10)} and kept`
        : `${o.dataset}: county subdivision ${hit.geoid} (${hit.name}), loaded ${o.fetched_at.slice(0, 10)}`,
    url: o.url,
    publisher: o.publisher,
    official: true,
    retrieved_at: o.fetched_at,
    license_class: "open",
  };
}
