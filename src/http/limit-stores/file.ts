// The limit counters of the workers of one machine (limits_store: file): a small SQLite file (limits_file) in WAL
// mode that every worker opens. A plan is counted in one IMMEDIATE transaction, so two workers never both admit
// the last request of a window. Counts are not precious (synchronous OFF: a crash forgets a few seconds of counts),
// slots that left both windows are deleted about once a minute. Calls are synchronous (bun:sqlite): a write lock
// held by another worker is tried again at once for at most the store's timeout, then the caller falls back
// (see limiter.ts).
import { Database } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { currentSlots, RING, type BucketAsk, type Counted, type SharedStore } from "./shared";

const PRUNE_EVERY_MS = 60_000;

export class FileLimitStore implements SharedStore {
  readonly name = "file";
  private readonly db: Database;
  private readonly read;
  private readonly bump;
  private readonly prune;
  private pruned = 0;

  constructor(
    path: string,
    private readonly busyMs: number,
  ) {
    if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
    this.db = new Database(path, { create: true });
    this.db.run("PRAGMA busy_timeout = 5000"); // at start the workers open it at the same moment
    this.db.run("PRAGMA journal_mode = WAL");
    this.db.run("PRAGMA synchronous = OFF");
    this.db.run(`CREATE TABLE IF NOT EXISTS limit_counts (
      bucket TEXT NOT NULL, w INTEGER NOT NULL, slot INTEGER NOT NULL, n INTEGER NOT NULL,
      PRIMARY KEY (bucket, w, slot)) WITHOUT ROWID`);
    // a lock held by another worker lasts microseconds: SQLite's own busy handler would sleep a millisecond or more
    // per try, so the lock is tried again here at once, for at most busyMs
    this.db.run("PRAGMA busy_timeout = 0");
    this.read = this.db.query<{ w: number; slot: number; n: number }, [string, number, number]>(
      "SELECT w, slot, n FROM limit_counts WHERE bucket = ?1 AND ((w = 0 AND slot > ?2) OR (w = 1 AND slot > ?3))",
    );
    this.bump = this.db.query(
      "INSERT INTO limit_counts (bucket, w, slot, n) VALUES (?1, ?2, ?3, 1) ON CONFLICT DO UPDATE SET n = n + 1",
    );
    this.prune = this.db.query("DELETE FROM limit_counts WHERE (w = 0 AND slot <= ?1) OR (w = 1 AND slot <= ?2)");
  }

  count(asks: BucketAsk[], take: boolean, t0: number): Counted {
    const t = t0 || Date.now();
    const cur = currentSlots(t);
    const floor = [cur[0] - RING[0], cur[1] - RING[1]] as const;
    const run = () => {
      let admitted = true;
      const slots = asks.map((a) => {
        const counts: [number[], number[]] = [new Array(RING[0]).fill(0), new Array(RING[1]).fill(0)];
        for (const r of this.read.all(a.id, floor[0], floor[1])) {
          const j = r.slot - floor[r.w]! - 1;
          if (j >= 0 && j < RING[r.w]!) counts[r.w as 0 | 1][j] = r.n;
        }
        for (let w = 0; w < 2; w++) if (counts[w]!.reduce((s, n) => s + n, 0) >= a.quota[w]!) admitted = false;
        return counts;
      });
      if (admitted && take)
        for (let i = 0; i < asks.length; i++)
          for (let w = 0; w < 2; w++) {
            this.bump.run(asks[i]!.id, w, cur[w]!);
            slots[i]![w]![RING[w]! - 1]! += 1;
          }
      if (take && t - this.pruned > PRUNE_EVERY_MS) {
        this.pruned = t;
        this.prune.run(floor[0], floor[1]);
      }
      if (!(admitted && take)) return { t, admitted: false as const, slots };
      const used = slots.map(
        (s) => [s[0].reduce((a, n) => a + n, 0), s[1].reduce((a, n) => a + n, 0)] as [number, number],
      );
      return { t, admitted: true as const, used };
    };
    if (!take) return run();
    const tx = this.db.transaction(run);
    const until = performance.now() + this.busyMs;
    for (;;) {
      try {
        return tx.immediate();
      } catch (e) {
        if ((e as { code?: string }).code !== "SQLITE_BUSY" || performance.now() > until) throw e;
      }
    }
  }

  close(): void {
    this.db.close();
  }
}
