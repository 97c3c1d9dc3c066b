// API keys: format "pld_" + 32 base64url characters (24 random bytes). Only the SHA-256 of a key is stored;
// the key itself is printed once by `keys create`. key_id = first 12 hex of the hash (for list and revoke).
// This is the state file's key store; PostgreSQL's (src/state/postgres.ts) keeps the same rows.
import type { Database } from "bun:sqlite";
import type { KeyRow, Keys, Tier } from "./store";

export const KEY_PATTERN = /^pld_[A-Za-z0-9_-]{32}$/;

/** The stored form of a key: its SHA-256, hex. */
export const keyHash = (s: string) => new Bun.CryptoHasher("sha256").update(s).digest("hex");

/** A new key, its hash and key_id; the tier and label checked. */
export function newKey(tier: Tier, label: string): { key: string; hash: string; key_id: string; label: string } {
  if (tier !== "standard" && tier !== "partner") throw new Error(`unknown tier: ${tier}`);
  if (!label.trim()) throw new Error("a label is required");
  const key = `pld_${Buffer.from(crypto.getRandomValues(new Uint8Array(24))).toString("base64url")}`;
  const hash = keyHash(key);
  return { key, hash, key_id: hash.slice(0, 12), label: label.trim() };
}

export class KeyStore implements Keys {
  private readonly byHash;
  constructor(private readonly db: Database) {
    this.byHash = db.query<{ key_id: string; tier: Tier; revoked_at: string | null }, [string]>(
      "SELECT key_id, tier, revoked_at FROM api_keys WHERE hash = ?",
    );
  }

  create(tier: Tier, label: string, now = new Date()): { key: string; key_id: string } {
    const { key, hash, key_id } = newKey(tier, label);
    this.db
      .query("INSERT INTO api_keys (key_id, hash, tier, label, created_at) VALUES (?, ?, ?, ?, ?)")
      .run(key_id, hash, tier, label.trim(), now.toISOString());
    return { key, key_id };
  }

  revoke(keyId: string, now = new Date()): boolean {
    return (
      this.db
        .query("UPDATE api_keys SET revoked_at = ? WHERE key_id = ? AND revoked_at IS NULL")
        .run(now.toISOString(), keyId).changes > 0
    );
  }

  list(): KeyRow[] {
    return this.db
      .query<KeyRow, []>("SELECT key_id, tier, label, created_at, revoked_at FROM api_keys ORDER BY created_at, key_id")
      .all();
  }

  /** The tier of a live key, or null when the key is unknown or revoked. */
  lookup(key: string): { tier: Tier; keyId: string } | null {
    const row = this.byHash.get(keyHash(key));
    return row && !row.revoked_at ? { tier: row.tier, keyId: row.key_id } : null;
  }
}
