// The small writable state file (API keys, link-check results by URL: src/links/results.ts, the link checker's
// lease: src/state/file-store.ts). Never the data file.
import { Database } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";

export function openStateFile(path: string): Database {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path, { create: true });
  db.run("PRAGMA busy_timeout = 5000"); // the workers of `serve --workers` open it at the same moment
  db.run("PRAGMA journal_mode = WAL");
  db.run(`CREATE TABLE IF NOT EXISTS api_keys (
    key_id TEXT PRIMARY KEY, hash TEXT NOT NULL UNIQUE, tier TEXT NOT NULL CHECK (tier IN ('standard','partner')),
    label TEXT NOT NULL, created_at TEXT NOT NULL, revoked_at TEXT)`);
  db.run(`CREATE TABLE IF NOT EXISTS link_results (
    url TEXT PRIMARY KEY, final_url TEXT, http_status INTEGER, verification_method TEXT, request_method TEXT,
    outcome TEXT NOT NULL, reason TEXT, detail TEXT, checked_at TEXT NOT NULL,
    verified_status TEXT NOT NULL CHECK (verified_status IN ('verified','not_yet_verified','possibly_broken')), verified_at TEXT,
    consecutive_failures INTEGER NOT NULL DEFAULT 0, first_failure_at TEXT)`);
  db.run(
    `CREATE TABLE IF NOT EXISTS leases (name TEXT PRIMARY KEY, holder TEXT NOT NULL, expires_at INTEGER NOT NULL)`,
  );
  return db;
}
