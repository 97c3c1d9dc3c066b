// The state store over PostgreSQL (config `state_store: postgres://…`), shared by every replica, with Bun's built-in
// SQL client. Tables (created if missing): api_keys and link_results with the state file's columns (link_results
// plus `seq`, renumbered on every write), leases (name, holder, expires_at on the server's clock).
// Keys: postgres-keys.ts; link results: postgres-links.ts; what they share: postgres-connection.ts.
import { PgKeys } from "./postgres-keys";
import { PgLinkView, PgResults } from "./postgres-links";
import type { LeaseAnswer, StateStore } from "./store";
import {
  KEY_REFRESH_S,
  KEYS_CHANNEL,
  LINKS_CHANNEL,
  SCHEMA_LOCK,
  STORE_TIMEOUT_MS,
  WRITE_TIMEOUT_MS,
  describePostgres,
  timed,
  type PgConnection,
} from "./postgres-connection";

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
export class PostgresStateStore implements StateStore, PgConnection {
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
