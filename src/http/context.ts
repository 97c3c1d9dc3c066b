// The per-request context handed to routes. `url` is built lazily under base_url's origin (never from Host), so
// the hot path does without a URL object; `query` holds the raw query values already parsed.
import { parseQuery, seedQuery } from "./params";
import type { RequestContext } from "./respond";

export class Context implements RequestContext {
  keyed = false;
  private _url: URL | null = null;
  private _query: Record<string, string> | null = null;
  constructor(
    readonly requestId: string,
    readonly path: string,
    readonly search: string,
    readonly head: boolean,
    readonly baseUrl: string,
    readonly origin: string,
    readonly problemsUrl: string,
    readonly ifNoneMatch: string | null,
    readonly common: Record<string, string>,
  ) {}

  get query(): Record<string, string> {
    return (this._query ??= parseQuery(this.search));
  }

  get url(): URL {
    if (!this._url) {
      this._url = new URL(this.path + this.search, this.origin);
      seedQuery(this._url, this.query);
    }
    return this._url;
  }
}
