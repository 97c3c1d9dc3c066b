// The state store over PostgreSQL (config `state_store: postgres://…`), shared by every replica, with Bun's built-in
// SQL client. Tables (created if missing): api_keys and link_results with the state file's columns (link_results
// plus `seq`, renumbered on every write), leases (name, holder, expires_at on the server's clock).
//
// Keys. A serving replica keeps every live key in memory (loaded at start, again every KEY_REFRESH_S and after the
// LISTEN connection comes back), so a known key is answered without a round trip. A well-formed key it does not
// know is looked up in the store before any 401 (a key made on another replica a moment ago works at once), with
// a short negative cache (NEGATIVE_TTL_MS), one look-up per key at a time, and at most MAX_KEY_LOOKUPS look-ups
// in flight (beyond: 503 busy, Retry-After 1), so random keys cannot flood the database. `keys create` and
// `keys revoke` NOTIFY every replica (channel directory_keys): a revoked key is dropped at once; a replica that
// missed the notice drops it at its next refresh (KEY_REFRESH_S).
// PostgreSQL not answering (refused, or no answer within STORE_TIMEOUT_MS): a key already in memory keeps
// working (fail-open for known keys: the refresh keeps the last list it had); any other key → 503
// upstream-unavailable with Retry-After, never a 401 for a key that may exist, never a hang, never a 500.
//
// Link results. The checker writes each row through THE transition rule (nextState of src/links/results.ts) in a
// transaction that locks the URL, then NOTIFYs its fields (channel directory_links); every replica lays them over
// its answers at once, and re-reads the table every links.reload_s when (count, sum of seq) changed. `version`
// grows with every change shown, so memoised answers and ETags follow.
import { DomainError } from "../domain/errors";
import { LinkFieldsMap, fieldsOf, type ShownRow } from "../links/overlay";
import type { LinkFields } from "../domain/links";
import type { ProbeResult } from "../links/probe";
import { nextState, type LinkRow, type TransitionRule } from "../links/results";
import { keyHash, newKey } from "./keys";
import type { FoundKey, KeyRow, Keys, LeaseAnswer, ResultStore, StateStore, StoreView, Tier } from "./store";

export const KEY_REFRESH_S = 30;
export const NEGATIVE_TTL_MS = 10_000;
export const MAX_KEY_LOOKUPS = 8;
/** How long a request waits for PostgreSQL (a key look-up); the CLI and the checker wait WRITE_TIMEOUT_MS. */
export const STORE_TIMEOUT_MS = 2_000;
export const WRITE_TIMEOUT_MS = 10_000;
/** Seconds a caller is asked to wait after the store did not answer. */
export const STORE_RETRY_AFTER_S = 5;
const NEGATIVE_MAX = 10_000;
const KEYS_CHANNEL = "directory_keys";
const LINKS_CHANNEL = "directory_links";
const SCHEMA_LOCK = 24_003; // pg_advisory_xact_lock id: two replicas creating the tables at once
const NOTIFY_MAX = 7_900; // a NOTIFY payload is under 8000 bytes; longer: an empty one (= re-read)

const DDL = [
  `CREATE TABLE IF NOT EXISTS api_keys (key_id text PRIMARY KEY, hash text NOT NULL UNIQUE,
    tier text NOT NULL CHECK (tier IN ('standard','partner')), label text NOT NULL, created_at text NOT NULL,
    revoked_at text)`,
  `CREATE SEQUENCE IF NOT EXISTS link_results_seq`,
  `CREATE TABLE IF NOT EXISTS link_results (url text PRIMARY KEY, final_url text, http_status integer,
    verification_method text, request_method text, outcome text NOT NULL, reason text, detail text,
    checked_at text NOT NULL,
    verified_status text NOT NULL CHECK (verified_status IN ('verified','not_yet_verified','possibly_broken')),
    verified_at text, consecutive_failures integer NOT NULL DEFAULT 0, first_failure_at text,
    seq bigint NOT NULL DEFAULT nextval('link_results_seq'))`,
  `CREATE TABLE IF NOT EXISTS leases (name text PRIMARY KEY, holder text NOT NULL, expires_at timestamptz NOT NULL)`,
];
const ROW_COLUMNS = `url, final_url, http_status, verification_method, request_method, outcome, reason, detail,
  checked_at, verified_status, verified_at, consecutive_failures, first_failure_at`;

/** The promise, or a rejection after `ms` (the query itself may still finish; its answer is then not used). */
function timed<T>(p: Promise<T>, ms: number): Promise<T> {
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

export class PostgresStateStore implements StateStore {
  readonly sql: InstanceType<typeof Bun.SQL>;
  readonly where: string;
  readonly keys: PgKeys;
  readonly results: PgResults;
  readonly view: PgLinkView;
  /** Resolves once a serving store has loaded keys and results (or failed to: it never rejects). */
  loaded: Promise<void> = Promise.resolve();
  private schema: Promise<void> | null = null;
  private subs = new Map<string, { unlisten(): Promise<void> }>();
  private listening: Promise<void> | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  private answering = true;
  private closed = false;

  constructor(
    url: string,
    private readonly log: (line: string) => void = () => {},
  ) {
    this.where = describePostgres(url);
    this.sql = new Bun.SQL(url, {
      max: 8,
      connectionTimeout: Math.ceil(STORE_TIMEOUT_MS / 1000),
      idleTimeout: 60,
      // the server gives up too: a query or lock wait never outlives the caller's own timeout by much
      connection: {
        statement_timeout: String(WRITE_TIMEOUT_MS),
        lock_timeout: String(WRITE_TIMEOUT_MS),
        application_name: "directory state",
      },
    });
    this.keys = new PgKeys(this);
    this.results = new PgResults(this);
    this.view = new PgLinkView(this);
  }

  /** The tables, created if missing (once per process; tried again after a failure). */
  ready(): Promise<void> {
    return (this.schema ??= timed(
      this.sql.begin(async (tx) => {
        await tx`SELECT pg_advisory_xact_lock(${SCHEMA_LOCK})`;
        for (const ddl of DDL) await tx.unsafe(ddl);
      }),
      WRITE_TIMEOUT_MS,
    ).catch((e) => {
      this.schema = null;
      throw e;
    }));
  }

  /** A query (after the tables exist) that answers within `ms` or fails with an Error naming the store. */
  async run<T>(ms: number, q: () => Promise<T>): Promise<T> {
    try {
      return await timed(this.ready().then(q), ms);
    } catch (e) {
      throw new Error(`${this.where}: ${(e as Error).message}`);
    }
  }

  /** serve: keys and results in memory, kept current by LISTEN and a refresh every KEY_REFRESH_S. */
  serve(): this {
    if (this.timer) return this;
    this.loaded = this.reload(true);
    this.timer = setInterval(() => void this.reload(false), KEY_REFRESH_S * 1000);
    this.timer.unref?.();
    return this;
  }

  /** Keys and results again (and LISTEN if not yet); logs when the store stops or starts answering. */
  private async reload(first: boolean): Promise<void> {
    try {
      if (this.subs.size < 2) await timed(this.listen(), STORE_TIMEOUT_MS);
      await Promise.all([this.keys.reload(), this.view.refresh()]);
      if (!this.answering || first)
        this.log(
          `state store: ${this.where}: ${this.keys.size} live keys, ${this.view.size} link results${first ? "" : " (answering again)"}`,
        );
      this.answering = true;
    } catch (e) {
      if (this.closed) return;
      if (this.answering || first)
        this.log(
          `state store: ${this.where} is not answering (${(e as Error).message}): keys already known keep working, other keys get 503 until it answers`,
        );
      this.answering = false;
    }
  }

  /** LISTEN on both channels (one attempt at a time; a channel already heard is not asked again). */
  private listen(): Promise<void> {
    return (this.listening ??= (async () => {
      // onlisten runs again after the LISTEN connection comes back: what was announced meanwhile is read again
      let again = false;
      const channels: [string, (p: string) => void, (() => void)?][] = [
        [
          KEYS_CHANNEL,
          (p) => this.keys.heard(p),
          () => {
            if (again) void this.reload(false);
            again = true;
          },
        ],
        [LINKS_CHANNEL, (p) => this.view.heard(p)],
      ];
      for (const [channel, heard, onListen] of channels) {
        if (this.subs.has(channel)) continue;
        const sub = await this.sql.listen(channel, heard, onListen);
        if (this.closed) await sub.unlisten().catch(() => {});
        else this.subs.set(channel, sub);
      }
    })().finally(() => {
      this.listening = null;
    }));
  }

  async takeLease(name: string, holder: string, ttlMs: number): Promise<LeaseAnswer> {
    return this.run(WRITE_TIMEOUT_MS, async () => {
      const took = await this.sql`INSERT INTO leases (name, holder, expires_at)
        VALUES (${name}, ${holder}, clock_timestamp() + make_interval(secs => ${ttlMs / 1000}))
        ON CONFLICT (name) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
        WHERE leases.expires_at <= clock_timestamp() OR leases.holder = EXCLUDED.holder
        RETURNING holder`;
      if (took.length) return { taken: true } as const;
      const [cur] = await this.sql`SELECT holder, expires_at FROM leases WHERE name = ${name}`;
      return {
        taken: false,
        holder: String(cur?.holder ?? "?"),
        until: cur ? new Date(cur.expires_at).toISOString() : "",
      } as const;
    });
  }

  async renewLease(name: string, holder: string, ttlMs: number): Promise<boolean> {
    return this.run(WRITE_TIMEOUT_MS, async () => {
      const r = await this.sql`UPDATE leases SET expires_at = clock_timestamp() + make_interval(secs => ${ttlMs / 1000})
        WHERE name = ${name} AND holder = ${holder} RETURNING 1`;
      return r.length > 0;
    });
  }

  async releaseLease(name: string, holder: string): Promise<void> {
    await this.run(WRITE_TIMEOUT_MS, () => this.sql`DELETE FROM leases WHERE name = ${name} AND holder = ${holder}`);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    const subs = [...this.subs.values()];
    this.subs.clear();
    await Promise.all(subs.map((s) => timed(s.unlisten(), 1000).catch(() => {})));
    await timed(this.sql.close({ timeout: 1 }), 2000).catch(() => {});
  }
}

class PgKeys implements Keys {
  /** hash → the live key's tier and id */
  private live = new Map<string, FoundKey>();
  /** hash → until when "unknown" is believed */
  private negative = new Map<string, number>();
  private inflight = new Map<string, Promise<FoundKey | null>>();
  /** hashes revoked while this process ran (a revocation is never undone): a late read cannot bring one back */
  private revoked = new Set<string>();

  constructor(private readonly store: PostgresStateStore) {}

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

class PgResults implements ResultStore {
  constructor(private readonly store: PostgresStateStore) {}

  async get(url: string): Promise<LinkRow | null> {
    const rows = await this.store.run(
      WRITE_TIMEOUT_MS,
      () => this.store.sql`SELECT ${this.store.sql.unsafe(ROW_COLUMNS)} FROM link_results WHERE url = ${url}`,
    );
    return (rows[0] as LinkRow | undefined) ?? null;
  }

  async lastCheckedAt(): Promise<string | null> {
    const [r] = await this.store.run(
      WRITE_TIMEOUT_MS,
      () => this.store.sql`SELECT max(checked_at) AS at FROM link_results`,
    );
    return r?.at ?? null;
  }

  /** THE transition rule on the stored row, in one transaction that holds the URL; every replica is told. */
  async record(url: string, r: ProbeResult, now: Date, rule: TransitionRule): Promise<LinkRow> {
    const sql = this.store.sql;
    return this.store.run(WRITE_TIMEOUT_MS, () =>
      sql.begin(async (tx) => {
        await tx`SELECT pg_advisory_xact_lock(hashtext(${url}))`;
        const [prev] = await tx`SELECT ${tx.unsafe(ROW_COLUMNS)} FROM link_results WHERE url = ${url}`;
        const row = nextState((prev as LinkRow | undefined) ?? null, url, r, now, rule);
        await tx`INSERT INTO link_results ${tx(row)} ON CONFLICT (url) DO UPDATE SET
          final_url = EXCLUDED.final_url, http_status = EXCLUDED.http_status,
          verification_method = EXCLUDED.verification_method, request_method = EXCLUDED.request_method,
          outcome = EXCLUDED.outcome, reason = EXCLUDED.reason, detail = EXCLUDED.detail,
          checked_at = EXCLUDED.checked_at, verified_status = EXCLUDED.verified_status,
          verified_at = EXCLUDED.verified_at, consecutive_failures = EXCLUDED.consecutive_failures,
          first_failure_at = EXCLUDED.first_failure_at, seq = nextval('link_results_seq')`;
        const payload = JSON.stringify({ url, f: fieldsOf(row) ?? null });
        await tx.notify(LINKS_CHANNEL, Buffer.byteLength(payload) <= NOTIFY_MAX ? payload : "");
        return row;
      }),
    );
  }
}

class PgLinkView extends LinkFieldsMap implements StoreView {
  /** count and sum of seq when last read: any write changes it (seq only grows), like SQLite's data_version */
  private mark = "";

  constructor(readonly store: PostgresStateStore) {
    super();
  }

  /** Re-read the table when it changed since the last look; true when what answers show changed. */
  async refresh(): Promise<boolean> {
    const sql = this.store.sql;
    const [m] = await this.store.run(
      STORE_TIMEOUT_MS * 5,
      () => sql`SELECT count(*)::text AS n, coalesce(sum(seq), 0)::text AS s FROM link_results`,
    );
    const mark = `${m?.n}:${m?.s}`;
    if (mark === this.mark) return false;
    const rows = await this.store.run(
      WRITE_TIMEOUT_MS,
      () => sql`SELECT url, verified_status, verified_at, http_status, verification_method FROM link_results`,
    );
    this.mark = mark;
    return this.replace(rows as ShownRow[]);
  }

  /** A row another process wrote (its fields in the notice), or an empty notice: read the table again. */
  heard(payload: string): void {
    let n: { url?: string; f?: LinkFields | null } | null = null;
    try {
      n = payload ? JSON.parse(payload) : null;
    } catch {}
    if (n?.url) this.put(n.url, n.f ?? undefined);
    else void this.refresh().catch(() => {});
  }

  watch(seconds: number): () => void {
    if (!(seconds > 0)) return () => {};
    const t = setInterval(() => void this.refresh().catch(() => {}), seconds * 1000);
    t.unref?.();
    return () => clearInterval(t);
  }
}
