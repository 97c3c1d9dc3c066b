// What the parts of the PostgreSQL state store share (src/state/postgres.ts: the store and its lease;
// postgres-keys.ts; postgres-links.ts): the timeouts, the NOTIFY channels, a query within a time, and the store's
// name as messages say it.

export const KEY_REFRESH_S = 30;
export const NEGATIVE_TTL_MS = 10_000;
export const MAX_KEY_LOOKUPS = 8;
/** How long a request waits for PostgreSQL (a key look-up); the CLI and the checker wait WRITE_TIMEOUT_MS. */
export const STORE_TIMEOUT_MS = 2_000;
export const WRITE_TIMEOUT_MS = 10_000;
/** Seconds a caller is asked to wait after the store did not answer. */
export const STORE_RETRY_AFTER_S = 5;
export const KEYS_CHANNEL = "directory_keys";
export const LINKS_CHANNEL = "directory_links";
export const SCHEMA_LOCK = 24_003; // pg_advisory_xact_lock id: two replicas creating the tables at once
export const NOTIFY_MAX = 7_900; // a NOTIFY payload is under 8000 bytes; longer: an empty one (= re-read)

/** The promise, or a rejection after `ms` (the query itself may still finish; its answer is then not used). */
export function timed<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

/** "PostgreSQL host:port/database", never the user or password. */
export function describePostgres(url: string): string {
  try {
    const u = new URL(url);
    return `PostgreSQL ${u.hostname}:${u.port || "5432"}${u.pathname}`;
  } catch {
    return "PostgreSQL";
  }
}

/** What the keys and the link results need of the store: its client, and a query that answers within a time. */
export interface PgConnection {
  readonly sql: InstanceType<typeof Bun.SQL>;
  run<T>(ms: number, q: () => Promise<T>): Promise<T>;
}
