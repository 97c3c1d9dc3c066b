// THE state store interface: where API keys, link-check results and the link checker's lease live. Config
// `state_store` picks one: "file" (the state file, `state_file`: one machine, the default) or a postgres:// URL
// (src/state/postgres.ts: shared by every replica), opened by src/state/open.ts. compose.ts, the CLI and the link
// checker see only this.
//   - keys: `lookup` answers a known key from memory (no round trip); the file store answers every key that way;
//     PostgreSQL may answer a key it has not seen yet later (a Promise) or refuse with a DomainError (503).
//   - results: THE transition rule (src/links/results.ts nextState) applied where the row is stored;
//   - view: what answers show (src/links/overlay.ts LinkFieldsMap), refreshed from the store;
//   - leases: one holder at a time for a named job (the link checker), taken atomically, with an expiry.
import type { LinkView } from "../domain/page-links";
import type { ProbeResult } from "../links/probe";
import type { LinkRow, TransitionRule } from "../links/results";

type MaybePromise<T> = T | Promise<T>;

export type Tier = "standard" | "partner";
export interface KeyRow {
  key_id: string;
  tier: Tier;
  label: string;
  created_at: string;
  revoked_at: string | null;
}

export interface FoundKey {
  tier: Tier;
  keyId: string;
}
/** What a request needs: the tier of a live key, null when unknown or revoked. */
export interface KeyLookup {
  lookup(key: string): MaybePromise<FoundKey | null>;
}
export interface Keys extends KeyLookup {
  create(tier: Tier, label: string, now?: Date): MaybePromise<{ key: string; key_id: string }>;
  revoke(keyId: string, now?: Date): MaybePromise<boolean>;
  list(): MaybePromise<KeyRow[]>;
}

export interface ResultStore {
  get(url: string): MaybePromise<LinkRow | null>;
  /** Apply one check's result with THE transition rule and store it; returns the new row. */
  record(url: string, r: ProbeResult, now: Date, rule: TransitionRule): MaybePromise<LinkRow>;
  /** The newest checked_at of any stored row (when the last run checked something). */
  lastCheckedAt(): MaybePromise<string | null>;
}

/** The view answers read, kept current from the store. */
export interface StoreView extends LinkView {
  set(row: LinkRow): void;
  /** Re-read the store every `seconds` (0 = never); returns a stop function. */
  watch(seconds: number): () => void;
}

export type LeaseAnswer = { taken: true } | { taken: false; holder: string; until: string };

export interface StateStore {
  /** Where the state lives, for messages (the state file's path, or "PostgreSQL host:port/database"). */
  readonly where: string;
  readonly keys: Keys;
  readonly results: ResultStore;
  readonly view: StoreView;
  /** Take the lease `name` for `ttlMs` unless another holder's lease has not expired yet. */
  takeLease(name: string, holder: string, ttlMs: number): Promise<LeaseAnswer>;
  /** Extend a lease this holder has; false when it is no longer this holder's. */
  renewLease(name: string, holder: string, ttlMs: number): Promise<boolean>;
  releaseLease(name: string, holder: string): Promise<void>;
  close(): Promise<void>;
}
