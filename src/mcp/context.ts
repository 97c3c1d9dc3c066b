// The MCP server's context from the same parts as the HTTP app: directory, parcel source, the anonymous list
// limit (spec part 8: the assistant-protocol server counts there) and screening through the app in process.
import type { Deps } from "../http/deps";
import type { App } from "../http/app";
import { inProcessScreening } from "./screening";
import type { McpContext } from "./server";

export function mcpContext(deps: Deps, app: App, version = "1.4.0"): McpContext {
  return {
    directory: deps.directory ?? null,
    parcels: deps.parcels ?? null,
    screening: inProcessScreening((r, a) => app.handle(r, a), deps.config.base_url),
    take: () => {
      const t = deps.limiter.buckets.anon_list_all.take("*");
      return { ok: t.ok, retryAfter: t.ok ? 0 : Math.max(1, t.retryAfter) };
    },
    version,
  };
}
