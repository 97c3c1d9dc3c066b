// The resolve answer's shape (GET /jurisdictions/resolve): how the place was matched, the point, the chain and per
// function the body that performs it. The directory (directory.ts) builds the chain answer; this file wraps it.
import type { SourceOut } from "../domain/source";
import { keep, keptOf } from "../domain/kept";
import type { functionsFor } from "./functions";
import type { JurisdictionOut } from "./jurisdictions";
export interface Match {
  by: "point" | "address" | "place" | "jurisdiction_id";
  label: string | null;
  approximate: boolean;
}

export const POINT_MATCH: Match = keep({ by: "point", label: null, approximate: false });

/** The part of a resolve answer that depends on the chain only (the same for every point with that chain). */
export interface ChainAnswer {
  jurisdictions: JurisdictionOut[];
  functions: ReturnType<typeof functionsFor>;
  sources: SourceOut[];
  notices: string[];
}

/** The resolve answer: the chain answer with its match and point; `frozen` lists its kept members (a chain answer
 * the directory keeps, the point match), the chain's jurisdictions first. */
export function answer(c: ChainAnswer, match: Match, point: { lon: number; lat: number } | null) {
  return {
    data: {
      match,
      point: point ? { type: "Point" as const, coordinates: [point.lon, point.lat] } : null,
      jurisdictions: c.jurisdictions,
      functions: c.functions,
    },
    sources: c.sources,
    notices: c.notices,
    frozen: keptOf(c.jurisdictions, match, c.functions, c.sources, c.notices),
  };
}
