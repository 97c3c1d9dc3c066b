// The current link-check results as answers show them: an in-memory view of the state store's link_results by
// URL (the state file here; PostgreSQL in src/state/postgres.ts), laid over the data file's values where Resource, Office and Source objects are serialised
// (resourceOut, officeOut and sourceOut spread resourceLinkStatus, officeLinkStatus, sourceLinkStatus). `version` grows whenever what answers show changes, so
// memoised parts of answers (the chain answers of Directory) are keyed by it and ETags follow the content.
import type { Database } from "bun:sqlite";
import type { LinkFields, LinkView, PageLinks } from "../domain/page-links";
import type { LinkRow, VerifiedStatus } from "./results";

/** The columns of a stored row that answers show. */
export type ShownRow = Pick<LinkRow, "url" | "verified_status" | "verified_at" | "http_status" | "verification_method">;

/** Fields an answer shows for a stored row; undefined while the checker has never had an answer for the URL. */
export function fieldsOf(row: ShownRow): LinkFields | undefined {
  if (row.verification_method === null && row.verified_status === "not_yet_verified") return undefined;
  return {
    verified_status: row.verified_status,
    verified_at: row.verified_at,
    last_http_status: row.http_status,
    verification_method: row.verification_method,
  };
}

const same = (a: LinkFields | undefined, b: LinkFields | undefined) =>
  a === b ||
  (!!a &&
    !!b &&
    a.verified_status === b.verified_status &&
    a.verified_at === b.verified_at &&
    a.last_http_status === b.last_http_status &&
    a.verification_method === b.verification_method);

/** The URL → fields map answers read, and its version: one place for "did what answers show change". Each
 *  store's view (the state file's below, PostgreSQL's in src/state/postgres.ts) fills it its own way. */
export class LinkFieldsMap implements LinkView {
  protected map = new Map<string, LinkFields>();
  version = 0;

  get(url: string): LinkFields | undefined {
    return this.map.get(url);
  }
  get size() {
    return this.map.size;
  }

  /** A row just written by a checker in this process (or announced by another). */
  set(row: ShownRow): void {
    this.put(row.url, fieldsOf(row));
  }

  protected put(url: string, f: LinkFields | undefined): void {
    if (same(f, this.map.get(url))) return;
    if (f) this.map.set(url, f);
    else this.map.delete(url);
    this.version++;
  }

  /** Every stored row at once: replaces the map, and bumps the version only when what answers show changed. */
  protected replace(rows: Iterable<ShownRow>): boolean {
    const next = new Map<string, LinkFields>();
    for (const row of rows) {
      const f = fieldsOf(row);
      if (f) next.set(row.url, f);
    }
    let changed = next.size !== this.map.size;
    if (!changed)
      for (const [url, f] of next)
        if (!same(f, this.map.get(url))) {
          changed = true;
          break;
        }
    if (changed) {
      this.map = next;
      this.version++;
    }
    return changed;
  }
}

export class LinkResultsView extends LinkFieldsMap {
  private dataVersion = -1;
  /** The state store this view belongs to (set by src/state/file-store.ts). */
  store?: import("../state/store").StateStore; // type only

  constructor(readonly db: Database) {
    super();
    this.refresh();
  }

  /** Re-read the table when another connection (a `check-links` process) has committed since the last look.
   * Returns true when what answers show has changed. */
  refresh(): boolean {
    const v = this.db.query<{ data_version: number }, []>("PRAGMA data_version").get()!.data_version;
    if (v === this.dataVersion) return false;
    this.dataVersion = v;
    return this.replace(this.db.query<LinkRow, []>("SELECT * FROM link_results").all());
  }

  /** Look for results written by other processes every `seconds` (0 = never). Returns a stop function. */
  watch(seconds: number): () => void {
    if (!(seconds > 0)) return () => {};
    const t = setInterval(() => {
      try {
        this.refresh();
      } catch {
        /* state file busy: next time */
      }
    }, seconds * 1000);
    t.unref?.();
    return () => clearInterval(t);
  }
}

type Status = VerifiedStatus;
type Method = "automated" | "browser" | "manual" | null;

/** verified_status, verified_at, verification_method, last_http_status of a Resource: the checker's current
 * result for its URL, else the data file's values. */
export function resourceLinkStatus(
  links: PageLinks,
  r: {
    url: string;
    verified_status: string;
    verified_at: string | null;
    verification_method: string | null;
    last_http_status: number | null;
  },
) {
  const f = links.results?.get(r.url);
  return f
    ? {
        verified_status: f.verified_status,
        verified_at: f.verified_at,
        verification_method: f.verification_method as Method,
        last_http_status: f.last_http_status,
      }
    : {
        verified_status: r.verified_status as Status,
        verified_at: r.verified_at,
        verification_method: r.verification_method as Method,
        last_http_status: r.last_http_status,
      };
}

/** verified_status, verified_at of an Office (its url checked), else the data file's values. */
export function officeLinkStatus(
  links: PageLinks,
  o: { url: string | null; verified_status: string; verified_at: string | null },
) {
  const f = o.url ? links.results?.get(o.url) : undefined;
  return f
    ? { verified_status: f.verified_status, verified_at: f.verified_at }
    : { verified_status: o.verified_status as Status, verified_at: o.verified_at };
}

/** verified_status, verified_at of a Source whose URL has been checked; nothing (the fields are optional) otherwise. */
export function sourceLinkStatus(
  links: PageLinks,
  url: string,
): { verified_status?: Status; verified_at?: string | null } {
  const f = links.results?.get(url);
  return f ? { verified_status: f.verified_status, verified_at: f.verified_at } : {};
}
