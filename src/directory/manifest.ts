// The data file's manifest and its content hash. The ONE implementation of the canonical dump: the builder
// (scripts/build-data.ts) writes content_sha256 with it, the server checks it at start with verifyManifest.
// Needs plain bun:sqlite only (geometry blobs are hashed as bytes; no mod_spatialite).
import { Database } from "bun:sqlite";
import { closeSync, openSync, readSync } from "node:fs";

export const SCHEMA_VERSION = "1";

/** Hashed tables in this order, each dumped ordered by its primary key (name_search by kind, ref, name). */
const HASHED_TABLES: { table: string; orderBy: string; columns?: string }[] = [
  { table: "sources", orderBy: "source_id" },
  { table: "jurisdictions", orderBy: "jurisdiction_id" },
  { table: "same_as", orderBy: "jurisdiction_id, other_id" },
  { table: "state_rules", orderBy: "state" },
  { table: "offices", orderBy: "office_id" },
  { table: "resources", orderBy: "resource_id" },
  { table: "function_overrides", orderBy: "jurisdiction_id, function, role" },
  { table: "radon_zones", orderBy: "county_id" },
  { table: "topics", orderBy: "topic" },
  { table: "guides", orderBy: "topic" },
  { table: "name_search", orderBy: "kind, ref, name, state", columns: "name, kind, ref, state" },
];

const MANIFEST_KEYS = [
  "dataset_version",
  "as_of",
  "builder_version",
  "schema_version",
  "sources_used",
  "content_sha256",
] as const;
type Manifest = Record<(typeof MANIFEST_KEYS)[number], string> & { file_xxh3?: string };

/** The seal of the whole file (see sealDataFile); written last by the builder. */
export const FILE_DIGEST_KEY = "file_xxh3";
export const FILE_DIGEST_PLACEHOLDER = "0".repeat(16);
/** Tables the content hash does not cover: a file that has one is of the sealed format and must carry its seal. */
const SEALED_FORMAT_TABLES = ["boundary_pack", "permit_survey"];

function hex(b: Uint8Array): string {
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString("hex");
}

/** Canonical encoding of one value: N (null), n:<number>, s:<JSON string>, x:<hex of blob>. */
function enc(v: unknown): string {
  if (v === null || v === undefined) return "N";
  if (typeof v === "number" || typeof v === "bigint") return "n:" + String(v);
  if (typeof v === "string") return "s:" + JSON.stringify(v);
  if (v instanceof Uint8Array) return "x:" + hex(v);
  if (v instanceof ArrayBuffer) return "x:" + hex(new Uint8Array(v));
  return "s:" + JSON.stringify(String(v));
}

/** sha256 over the canonical dump of every hashed table: its CREATE statement, then its rows in primary-key order. */
export function contentSha256(db: Database): string {
  const h = new Bun.CryptoHasher("sha256");
  for (const t of HASHED_TABLES) {
    const cols = t.columns
      ? t.columns.split(",").map((c) => c.trim())
      : (db.query(`PRAGMA table_info(${t.table})`).all() as { name: string }[]).map((c) => c.name);
    const ddl =
      (db.query("SELECT sql FROM sqlite_master WHERE name = ?").get(t.table) as { sql: string } | null)?.sql ?? "";
    h.update(`# ${t.table} (${cols.join(",")})\n${ddl}\n`);
    const stmt = db.query(`SELECT ${cols.map((c) => `"${c}"`).join(", ")} FROM "${t.table}" ORDER BY ${t.orderBy}`);
    for (const row of stmt.iterate() as Iterable<Record<string, unknown>>) {
      let line = "";
      for (let i = 0; i < cols.length; i++) line += (i ? "\x1f" : "") + enc(row[cols[i]!]);
      h.update(line + "\n");
    }
  }
  return h.digest("hex");
}

function readManifest(db: Database): Partial<Manifest> {
  const rows = db.query("SELECT key, value FROM manifest").all() as { key: string; value: string }[];
  return Object.fromEntries(rows.map((r) => [r.key, r.value]));
}

// The file seal: a 64-bit xxHash3 of every byte of the file except the manifest table's pages and the header
// fields SQLite rewrites on any write (file change counter, version-valid-for, library version), seeded into a
// hash of the other manifest rows. Any changed byte of a table, index, FTS or spatial index page, or of a manifest
// value, changes it; checking it reads the file once (tens of ms for 73 MB) instead of dumping every row. It is an
// integrity check, not a signature: whoever can rewrite the file can rewrite its manifest.
const HEADER_VOLATILE: [number, number][] = [
  [24, 28],
  [92, 100],
];

/** The pages of the manifest table (its b-tree and overflow pages, from SQLite's dbstat) and the page size. */
function manifestPagesOf(db: Database): { pages: number[]; pageSize: number } {
  const pages = (db.query("SELECT pageno FROM dbstat WHERE name = 'manifest'").all() as { pageno: number }[]).map(
    (r) => r.pageno,
  );
  if (!pages.length) throw new Error("no manifest table");
  const pageSize = (db.query("PRAGMA page_size").get() as { page_size: number }).page_size;
  return { pages, pageSize };
}

const CHUNK = 1 << 20;

/** Read in 1 MiB chunks (memory stays flat), blank the excluded ranges, xxHash3 each chunk, then hash the list
 * of chunk digests seeded with a hash of the other manifest rows. */
function fileDigest(path: string, pages: number[], pageSize: number, manifest: Record<string, string>): string {
  const skip: [number, number][] = [
    ...HEADER_VOLATILE,
    ...pages.map((p): [number, number] => [(p - 1) * pageSize, p * pageSize]),
  ];
  const buf = new Uint8Array(CHUNK);
  const fd = openSync(path, "r");
  const digests: bigint[] = [];
  try {
    for (let pos = 0; ; pos += CHUNK) {
      const n = readSync(fd, buf, 0, CHUNK, pos);
      if (n <= 0) break;
      for (const [from, to] of skip)
        if (to > pos && from < pos + n) buf.fill(0, Math.max(0, from - pos), Math.min(n, to - pos));
      digests.push(Bun.hash.xxHash3(n === CHUNK ? buf : buf.subarray(0, n)));
      if (n < CHUNK) break;
    }
  } finally {
    closeSync(fd);
  }
  const rows = Object.keys(manifest)
    .filter((k) => k !== FILE_DIGEST_KEY)
    .sort()
    .map((k) => `${k}=${manifest[k]}`)
    .join("\n");
  return Bun.hash.xxHash3(new BigUint64Array(digests), Bun.hash.xxHash3(rows)).toString(16).padStart(16, "0");
}

/** Builder's last step: write the file seal into the manifest (a same-length update of the manifest's pages),
 * then check it the way the server will. */
export function sealDataFile(path: string): string {
  const db = new Database(path);
  let digest: string;
  try {
    const { pages, pageSize } = manifestPagesOf(db);
    digest = fileDigest(path, pages, pageSize, readManifest(db) as Record<string, string>);
    db.run("UPDATE manifest SET value = ? WHERE key = ?", [digest, FILE_DIGEST_KEY]);
  } finally {
    db.close();
  }
  const v = verifyManifest(path);
  if (!v.ok) throw new Error(`sealing ${path} failed: ${v.error}`);
  return digest;
}

/** Open the data file read-only, check the manifest is complete and the file seal (or, for files of the older
 * format, which have no table outside the content hash, the structure and the content hash) matches. Never throws. */
export function verifyManifest(dbPath: string): { ok: true; manifest: Manifest } | { ok: false; error: string } {
  let db: Database | null = null;
  try {
    db = new Database(dbPath, { readonly: true });
    const sealed = readManifest(db)[FILE_DIGEST_KEY as keyof Manifest];
    if (sealed) {
      const m = readManifest(db);
      for (const k of MANIFEST_KEYS) if (!m[k]) return { ok: false, error: `manifest key ${k} missing` };
      if (m.schema_version !== SCHEMA_VERSION)
        return { ok: false, error: `schema_version ${m.schema_version}, expected ${SCHEMA_VERSION}` };
      const { pages, pageSize } = manifestPagesOf(db);
      const got = fileDigest(dbPath, pages, pageSize, m as Record<string, string>);
      if (got !== sealed)
        return {
          ok: false,
          error: `file seal mismatch (${FILE_DIGEST_KEY} ${got}, manifest ${sealed}): the file was changed after it was built`,
        };
      return { ok: true, manifest: m as Manifest };
    }
    // the older format (before the seal) had only tables the content hash covers; a file holding a table it does
    // not cover (the boundary pack, the permit survey) is of the sealed format: without its seal it is refused
    const unhashed = SEALED_FORMAT_TABLES.filter(
      (t) => !!db!.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(t),
    );
    if (unhashed.length)
      return {
        ok: false,
        error: `file seal missing: this data file holds ${unhashed.join(", ")}, which only the seal (${FILE_DIGEST_KEY}) covers; the seal was removed or the file is not from this builder`,
      };
    const check = db.query("PRAGMA quick_check").get() as Record<string, string>;
    const verdict = Object.values(check)[0];
    if (verdict !== "ok") return { ok: false, error: `database structure check failed: ${verdict}` };
    const m = readManifest(db);
    for (const k of MANIFEST_KEYS) if (!m[k]) return { ok: false, error: `manifest key ${k} missing` };
    if (m.schema_version !== SCHEMA_VERSION)
      return { ok: false, error: `schema_version ${m.schema_version}, expected ${SCHEMA_VERSION}` };
    const got = contentSha256(db);
    if (got !== m.content_sha256)
      return { ok: false, error: `content_sha256 mismatch: file content ${got}, manifest ${m.content_sha256}` };
    return { ok: true, manifest: m as Manifest };
  } catch (e) {
    return { ok: false, error: `cannot read data file ${dbPath}: ${(e as Error).message}` };
  } finally {
    db?.close();
  }
}
