// API keys: format "pld_" + 32 base64url characters (24 random bytes). Only the SHA-256 of a key is stored;
// the key itself is printed once by `keys create`. key_id = first 12 hex of the hash (for list and revoke).
import type { Database } from "bun:sqlite";

export const KEY_PATTERN = /^pld_[A-Za-z0-9_-]{32}$/;
export type Tier = "standard" | "partner";
export interface KeyRow {
  key_id: string;
  tier: Tier;
  label: string;
  created_at: string;
  revoked_at: string | null;
}

const sha256 = (s: string) => new Bun.CryptoHasher("sha256").update(s).digest("hex");

export class KeyStore {
  private readonly byHash;
  constructor(private readonly db: Database) {
    this.byHash = db.query<{ key_id: string; tier: Tier; revoked_at: string | null }, [string]>(
      "SELECT key_id, tier, revoked_at FROM api_keys WHERE hash = ?",
    );
  }

  create(tier: Tier, label: string, now = new Date()): { key: string; key_id: string } {
    if (tier !== "standard" && tier !== "partner") throw new Error(`unknown tier: ${tier}`);
    if (!label.trim()) throw new Error("a label is required");
    const key = `pld_${Buffer.from(crypto.getRandomValues(new Uint8Array(24))).toString("base64url")}`;
    const hash = sha256(key);
    const key_id = hash.slice(0, 12);
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
    const row = this.byHash.get(sha256(key));
    return row && !row.revoked_at ? { tier: row.tier, keyId: row.key_id } : null;
  }
}
