// The state file as a StateStore (src/state/store.ts): one machine's keys, link results and lease, in the small
// SQLite file of `state_file` (every call synchronous: a key is looked up without waiting). The lease matters to
// `serve --workers N` and to a `check-links` run from cron next to a scheduled run in serve: one checks at a time.
import type { Database } from "bun:sqlite";
import { LinkResultsView } from "../links/overlay";
import { LinkResults } from "../links/results";
import { KeyStore } from "./keys";
import { openStateFile } from "./state-file";
import type { LeaseAnswer, StateStore } from "./store";

export class FileStateStore implements StateStore {
  readonly keys: KeyStore;
  readonly results: LinkResults;
  readonly view: LinkResultsView;

  static open(path: string): FileStateStore {
    return new FileStateStore(openStateFile(path), path);
  }

  constructor(
    readonly db: Database,
    readonly where: string,
    view?: LinkResultsView,
  ) {
    this.keys = new KeyStore(db);
    this.results = new LinkResults(db);
    this.view = view ?? new LinkResultsView(db);
    this.view.store = this;
  }

  async takeLease(name: string, holder: string, ttlMs: number, now = Date.now()): Promise<LeaseAnswer> {
    const took = this.db
      .query<{ holder: string }, [string, string, number, number]>(
        `INSERT INTO leases (name, holder, expires_at) VALUES (?1, ?2, ?3) ON CONFLICT (name) DO UPDATE
         SET holder = excluded.holder, expires_at = excluded.expires_at
         WHERE leases.expires_at <= ?4 OR leases.holder = excluded.holder RETURNING holder`,
      )
      .get(name, holder, now + ttlMs, now);
    if (took) return { taken: true };
    const cur = this.db
      .query<{ holder: string; expires_at: number }, [string]>("SELECT holder, expires_at FROM leases WHERE name = ?")
      .get(name);
    return { taken: false, holder: cur?.holder ?? "?", until: new Date(cur?.expires_at ?? now).toISOString() };
  }

  async renewLease(name: string, holder: string, ttlMs: number): Promise<boolean> {
    return (
      this.db
        .query("UPDATE leases SET expires_at = ? WHERE name = ? AND holder = ?")
        .run(Date.now() + ttlMs, name, holder).changes > 0
    );
  }

  async releaseLease(name: string, holder: string): Promise<void> {
    this.db.query("DELETE FROM leases WHERE name = ? AND holder = ?").run(name, holder);
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
