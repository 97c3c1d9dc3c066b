// What the HTTP layer is given: config, the directory (data file), content, keys, limits, lookups.
import type { Config } from "../config/config";
import type { Content } from "../directory/content";
import type { Links } from "../domain/links";
import type { KeyStore } from "../state/keys";
import type { Limiter } from "./limits";
import type { Cursors } from "./paging";
import type { Deprecation } from "./deprecations";
import type { Directory } from "../directory/directory";
import type { RequestContext } from "./respond";

export interface Deps {
  config: Config;
  content: Content;
  asOf: string;                 // the data's as_of (manifest), ISO date-time
  links: Links;
  keys: KeyStore;
  limiter: Limiter;
  cursors: Cursors;
  deprecations: Deprecation[];
  directory?: Directory | null; // the data-file directory (resolve, places, resources, search), when loaded
  addresses?: { geocode(address: string): Promise<{ label: string; lon: number; lat: number; approximate: boolean }> };
  log?: (line: string) => void;
  /** The hook for every path outside /v1 (HTML pages at /, /places/..., assets): called for GET and HEAD after
   * the method check, without API auth or limits; null → 404 not-found problem. X-Request-Id and CORS headers
   * are added to its response when it has none; HEAD bodies are dropped by the app. */
  web?: WebHandler;
}

export type WebHandler = (req: Request, path: string, ctx: RequestContext) => Response | Promise<Response> | null;
