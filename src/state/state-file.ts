// The small writable state file (API keys, later link-check results). Never the data file.
import { Database } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";

export function openStateFile(path: string): Database {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path, { create: true });
  db.run("PRAGMA journal_mode = WAL");
  db.run(`CREATE TABLE IF NOT EXISTS api_keys (
    key_id TEXT PRIMARY KEY, hash TEXT NOT NULL UNIQUE, tier TEXT NOT NULL CHECK (tier IN ('standard','partner')),
    label TEXT NOT NULL, created_at TEXT NOT NULL, revoked_at TEXT)`);
  return db;
}
