// The state store config `state_store` names (the interface: store.ts): the state file or PostgreSQL.
import type { Config } from "../config/config";
import { LinkResultsView } from "../links/overlay";
import type { LinkView } from "../domain/page-links";
import { FileStateStore } from "./file-store";
import { PostgresStateStore } from "./postgres";
import type { StateStore } from "./store";

/** The store config `state_store` names. `serving`: a serve process (keys and results kept in memory, refreshed
 *  from the store); the CLI's keys and check-links commands only read and write. */
export function openStateStore(
  cfg: Config,
  opts: { serving?: boolean; log?: (line: string) => void } = {},
): StateStore {
  if (cfg.state_store === "file" || !cfg.state_store) return FileStateStore.open(cfg.state_file);
  const store = new PostgresStateStore(cfg.state_store, opts.log);
  if (opts.serving) store.serve();
  return store;
}

/** The store behind a view answers read (a bare state-file view made by a test gets its file store). */
export function storeOfView(view: LinkView | undefined): StateStore | null {
  if (!view) return null;
  const s = (view as { store?: StateStore }).store;
  if (s) return s;
  return view instanceof LinkResultsView ? new FileStateStore(view.db, view.db.filename, view) : null;
}
