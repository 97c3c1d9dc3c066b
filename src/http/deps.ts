// What the HTTP layer is given: config, the directory (data file), content, keys, limits, lookups.
import type { Config } from "../config/config";
import type { Content } from "../directory/content";
import type { PageLinks } from "../domain/page-links";
import type { Keys, StateStore } from "../state/store";
import type { Limits } from "./limits";
import type { Cursors } from "./paging";
import type { Deprecation } from "./deprecations";
import type { Incoming } from "./incoming";
import type { Directory } from "../directory/directory";
import { DomainError } from "../domain/errors";
import type { ParcelSource } from "../parcels/source";

export interface Deps {
  config: Config;
  content: Content;
  asOf: string; // the data's as_of (manifest), ISO date-time
  links: PageLinks;
  keys: Keys; // the state store's (src/state/store.ts): lookup per request, create/revoke/list for tests and tools
  state?: StateStore; // where keys and link results live (the state file or PostgreSQL)
  limiter: Limits;
  cursors: Cursors;
  deprecations: Deprecation[];
  directory?: Directory | null; // the data-file directory (resolve, places, resources, search), when loaded
  addresses?: { geocode(address: string): Promise<{ label: string; lon: number; lat: number; approximate: boolean }> };
  parcels?: ParcelSource | null; // the parcel store behind /county-data and the MCP tools (guarded: busy, timeout)
  log?: (line: string) => void;
  screening?: import("../lookups/screening").Screening; // GET /screening (outside lookups + loaded layers)
  /** The human pages (src/web/index.ts createWeb): every path outside /v1, every method (the pages answer 405,
   * OPTIONS, HEAD, limits and their HTML errors themselves); X-Request-Id is theirs too. */
  web?: WebHandler;
  /** The MCP Streamable HTTP endpoint mounted on this app (serve with mcp.in_serve): its path and handler. */
  mcp?: { path: string; handle: (req: Incoming, socketAddress: string) => Promise<Response> };
}

export type WebHandler = (req: Incoming, socketAddress: string) => Response | Promise<Response>;

/** The loaded directory, for routes, pages and MCP alike; a server without a data file has no directory answers
 * (404 not-found: a problem on /v1, an HTML page elsewhere). */
export function directoryOf(deps: Deps): Directory {
  if (!deps.directory)
    throw new DomainError("not-found", "This server has no data file loaded, so it has no directory answers or pages.");
  return deps.directory;
}
