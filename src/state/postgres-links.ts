// The link-check results of the PostgreSQL state store (src/state/postgres.ts). The checker writes each row through THE transition rule (nextState of src/links/results.ts) in a
// transaction that locks the URL, then NOTIFYs its fields (channel directory_links); every replica lays them over
// its answers at once, and re-reads the table every links.reload_s when (count, sum of seq) changed. `version`
// grows with every change shown, so memoised answers and ETags follow.
import { LinkFieldsMap, fieldsOf, type ShownRow } from "../links/overlay";
import type { LinkFields } from "../domain/page-links";
import type { ProbeResult } from "../links/probe";
import { nextState, type LinkRow, type TransitionRule } from "../links/results";
import type { ResultStore, StoreView } from "./store";
import {
  LINKS_CHANNEL,
  NOTIFY_MAX,
  STORE_TIMEOUT_MS,
  WRITE_TIMEOUT_MS,
  type PgConnection,
} from "./postgres-connection";

const ROW_COLUMNS = `url, final_url, http_status, verification_method, request_method, outcome, reason, detail,
  checked_at, verified_status, verified_at, consecutive_failures, first_failure_at`;

export class PgResults implements ResultStore {
  constructor(private readonly store: PgConnection) {}

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

export class PgLinkView extends LinkFieldsMap implements StoreView {
  /** count and sum of seq when last read: any write changes it (seq only grows), like SQLite's data_version */
  private mark = "";

  constructor(readonly store: PgConnection) {
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
