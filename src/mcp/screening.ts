// Screening facts for the MCP tool, taken from the app's own GET /v1/screening in process (so the route's
// rules, caches and lookup limit apply unchanged). A server without that route answers "not available".
export interface ScreeningClient {
  screen(
    lat: number,
    lon: number,
  ): Promise<{ ok: true; data: unknown; notices: string[] } | { ok: false; status: number; message: string }>;
}

export const SCREENING_UNAVAILABLE = "Screening is not available on this server.";

/** `handle` is the app's request handler (createApp(...).handle); `base` its base URL ending in /v1. */
export function inProcessScreening(
  handle: (req: Request, address: string) => Response | Promise<Response>,
  base: string,
): ScreeningClient {
  return {
    async screen(lat, lon) {
      const res = await handle(new Request(`${base}/screening?lat=${lat}&lon=${lon}`), "127.0.0.1");
      const body = (await res.json().catch(() => null)) as any;
      if (res.status === 200 && body) return { ok: true, data: body.data, notices: body.notices ?? [] };
      if (res.status === 404 && typeof body?.type === "string" && body.type.endsWith("/not-found"))
        return { ok: false, status: 404, message: SCREENING_UNAVAILABLE };
      return { ok: false, status: res.status, message: body?.detail ?? `screening answered ${res.status}` };
    },
  };
}
