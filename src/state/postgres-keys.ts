// The API keys of the PostgreSQL state store (src/state/postgres.ts). A serving replica keeps every live key in memory (loaded at start, again every KEY_REFRESH_S and after the
// LISTEN connection comes back), so a known key is answered without a round trip. A well-formed key it does not
// know is looked up in the store before any 401 (a key made on another replica a moment ago works at once), with
// a short negative cache (NEGATIVE_TTL_MS), one look-up per key at a time, and at most MAX_KEY_LOOKUPS look-ups
// in flight (beyond: 503 busy, Retry-After 1), so random keys cannot flood the database. `keys create` and
// `keys revoke` NOTIFY every replica (channel directory_keys): a revoked key is dropped at once; a replica that
// missed the notice drops it at its next refresh (KEY_REFRESH_S).
// PostgreSQL not answering (refused, or no answer within STORE_TIMEOUT_MS): a key already in memory keeps
// working (fail-open for known keys: the refresh keeps the last list it had); any other key → 503
// upstream-unavailable with Retry-After, never a 401 for a key that may exist, never a hang, never a 500.
import { DomainError } from "../domain/errors";
import { keyHash, newKey } from "./keys";
import type { FoundKey, KeyRow, Keys, Tier } from "./store";
import {
  KEYS_CHANNEL,
  MAX_KEY_LOOKUPS,
  NEGATIVE_TTL_MS,
  STORE_RETRY_AFTER_S,
  STORE_TIMEOUT_MS,
  WRITE_TIMEOUT_MS,
  type PgConnection,
} from "./postgres-connection";

const NEGATIVE_MAX = 10_000;

export class PgKeys implements Keys {
  /** hash → the live key's tier and id */
  private live = new Map<string, FoundKey>();
  /** hash → until when "unknown" is believed */
  private negative = new Map<string, number>();
  private inflight = new Map<string, Promise<FoundKey | null>>();
  /** hashes revoked while this process ran (a revocation is never undone): a late read cannot bring one back */
  private revoked = new Set<string>();

  constructor(private readonly store: PgConnection) {}

  get size() {
    return this.live.size;
  }

  lookup(key: string): FoundKey | null | Promise<FoundKey | null> {
    const hash = keyHash(key);
    const known = this.live.get(hash);
    if (known) return known;
    if (this.revoked.has(hash)) return null;
    const until = this.negative.get(hash);
    if (until !== undefined) {
      if (until > Date.now()) return null;
      this.negative.delete(hash);
    }
    const going = this.inflight.get(hash);
    if (going) return going;
    if (this.inflight.size >= MAX_KEY_LOOKUPS)
      throw new DomainError("busy", "Too many keys are being looked up at once; retry in a moment.", {
        retryAfter: 1,
      });
    const p = this.fetch(hash).finally(() => this.inflight.delete(hash));
    this.inflight.set(hash, p);
    return p;
  }

  private async fetch(hash: string): Promise<FoundKey | null> {
    let rows: { key_id: string; tier: Tier; revoked_at: string | null }[];
    try {
      rows = await this.store.run(
        STORE_TIMEOUT_MS,
        () => this.store.sql`SELECT key_id, tier, revoked_at FROM api_keys WHERE hash = ${hash}`,
      );
    } catch {
      throw new DomainError(
        "upstream-unavailable",
        "The key store is not answering, so this key cannot be checked now; retry in a few seconds.",
        { retryAfter: STORE_RETRY_AFTER_S },
      );
    }
    const row = rows[0];
    if (row && !row.revoked_at && !this.revoked.has(hash)) {
      const found = { tier: row.tier, keyId: row.key_id };
      this.live.set(hash, found);
      return found;
    }
    if (this.negative.size >= NEGATIVE_MAX) this.negative.clear();
    this.negative.set(hash, Date.now() + NEGATIVE_TTL_MS);
    return null;
  }

  /** Every live key again (the list replaces the one in memory only when the store answered). */
  async reload(): Promise<void> {
    const rows = await this.store.run(
      STORE_TIMEOUT_MS * 5,
      () => this.store.sql`SELECT hash, key_id, tier FROM api_keys WHERE revoked_at IS NULL`,
    );
    const next = new Map<string, FoundKey>();
    for (const r of rows as { hash: string; key_id: string; tier: Tier }[])
      if (!this.revoked.has(r.hash)) next.set(r.hash, { tier: r.tier, keyId: r.key_id });
    this.live = next;
  }

  /** A notice from `keys create` / `keys revoke` on any replica: "create <hash>" or "revoke <hash>". */
  heard(payload: string): void {
    const [what, hash] = payload.split(" ");
    if (!hash) return;
    if (what === "revoke") {
      this.revoked.add(hash);
      this.live.delete(hash);
    } else if (what === "create") this.negative.delete(hash);
  }

  async create(tier: Tier, label: string, now = new Date()): Promise<{ key: string; key_id: string }> {
    const k = newKey(tier, label);
    await this.store.run(WRITE_TIMEOUT_MS, () =>
      this.store.sql.begin(async (tx) => {
        await tx`INSERT INTO api_keys (key_id, hash, tier, label, created_at)
          VALUES (${k.key_id}, ${k.hash}, ${tier}, ${k.label}, ${now.toISOString()})`;
        await tx.notify(KEYS_CHANNEL, `create ${k.hash}`);
      }),
    );
    this.negative.delete(k.hash);
    return { key: k.key, key_id: k.key_id };
  }

  async revoke(keyId: string, now = new Date()): Promise<boolean> {
    const hashes = await this.store.run(WRITE_TIMEOUT_MS, () =>
      this.store.sql.begin(async (tx) => {
        const rows = await tx`UPDATE api_keys SET revoked_at = ${now.toISOString()}
          WHERE key_id = ${keyId} AND revoked_at IS NULL RETURNING hash`;
        for (const r of rows) await tx.notify(KEYS_CHANNEL, `revoke ${r.hash}`);
        return (rows as { hash: string }[]).map((r) => r.hash);
      }),
    );
    for (const h of hashes) this.heard(`revoke ${h}`);
    return hashes.length > 0;
  }

  async list(): Promise<KeyRow[]> {
    const rows = await this.store.run(
      WRITE_TIMEOUT_MS,
      () =>
        this.store.sql`SELECT key_id, tier, label, created_at, revoked_at FROM api_keys ORDER BY created_at, key_id`,
    );
    return [...rows] as KeyRow[];
  }
}
