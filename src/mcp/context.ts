// The MCP server's context from the same parts as the HTTP app: directory, parcel source, screening (the domain
// call, src/directory/screen-at.ts) and the anonymous list limit (spec part 8: the assistant-protocol server counts
// there). No HTTP app is needed: the tools call the domain, never the app's own /v1.
import type { Deps } from "../http/deps";
import { API_VERSION } from "../domain/version";
import { domainScreening } from "./screening";
import { countiesWithData } from "./property-facts";
import type { McpContext } from "./server";

export function mcpContext(deps: Deps, version = API_VERSION): McpContext {
  const ctx: McpContext = {
    directory: deps.directory ?? null,
    parcels: deps.parcels ?? null,
    screening: domainScreening(deps.directory ?? null, deps.screening),
    take: () => {
      const charge = (t: { ok: boolean; retryAfter: number }) => ({
        ok: t.ok,
        retryAfter: t.ok ? 0 : Math.max(1, t.retryAfter),
      });
      const t = deps.limiter.take("anon_list_all", "*");
      return t instanceof Promise ? t.then(charge) : charge(t);
    },
    version,
  };
  // the counties with parcel data here, for get_property_facts' description (read once at start)
  if (deps.parcels)
    void countiesWithData(deps.parcels, deps.directory ?? null).then((cs) => {
      ctx.parcelCounties = cs.map((c) => `${c.name} (${c.county})`);
    });
  return ctx;
}
