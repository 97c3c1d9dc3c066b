// Screening facts for the MCP tool screen_point: the same domain call as GET /v1/screening and the screening page
// (src/directory/screen-at.ts), never HTTP to the app itself, so an assistant's call is charged to the assistant
// limit (and the lookup limit for a new outside lookup), not to the API's anonymous buckets. A server without the
// screening service or the data file answers "not available".
import { DomainError } from "../domain/errors";
import type { Directory } from "../directory/directory";
import { screenAt, type FactsAtPoint } from "../directory/screen-at";

export interface ScreeningClient {
  screen(
    lat: number,
    lon: number,
  ): Promise<{ ok: true; data: any; notices: string[] } | { ok: false; message: string }>;
}

export const SCREENING_UNAVAILABLE = "Screening is not available on this server.";

export function domainScreening(dir: Directory | null, screening: FactsAtPoint | null | undefined): ScreeningClient {
  return {
    async screen(lat, lon) {
      if (!dir || !screening) return { ok: false, message: SCREENING_UNAVAILABLE };
      try {
        const r = await screenAt(dir, screening, lon, lat);
        return { ok: true, data: r.data, notices: r.notices };
      } catch (e) {
        if (e instanceof DomainError) return { ok: false, message: `${e.suffix}: ${e.detail}` };
        throw e;
      }
    },
  };
}
