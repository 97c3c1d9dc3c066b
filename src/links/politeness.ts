// Politeness: at most `concurrency` checks at once in all, at most `perHost` at once on one host, and a pause of
// `delayMs(host)` between two checks of one host (per lane). Hosts are served round-robin: a host's lane goes to the
// back of the queue after each check, so one big host never starves the others.
interface PoliteOptions {
  concurrency: number;
  perHost: number;
  /** Pause after a check before the next one on the same host (may grow, e.g. from robots.txt Crawl-delay). */
  delayMs: (host: string) => number | Promise<number>;
  sleep?: (ms: number) => Promise<void>;
  /** Stop taking new work when this returns true (a background run being stopped). */
  stopped?: () => boolean;
}

const realSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

class Semaphore {
  private free: number;
  private readonly waiting: (() => void)[] = [];
  constructor(n: number) {
    this.free = Math.max(1, n);
  }
  async acquire(): Promise<void> {
    if (this.free > 0) {
      this.free--;
      return;
    }
    await new Promise<void>((r) => this.waiting.push(r));
  }
  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.free++;
  }
}

export async function runPolitely<T>(
  items: T[],
  hostOf: (t: T) => string,
  work: (t: T) => Promise<void>,
  o: PoliteOptions,
): Promise<void> {
  const sleep = o.sleep ?? realSleep;
  const byHost = new Map<string, T[]>();
  for (const t of items) {
    const h = hostOf(t);
    const q = byHost.get(h);
    if (q) q.push(t);
    else byHost.set(h, [t]);
  }
  const gate = new Semaphore(o.concurrency);
  const lanes: Promise<void>[] = [];
  for (const [host, queue] of byHost) {
    const n = Math.min(Math.max(1, o.perHost), queue.length);
    for (let i = 0; i < n; i++) {
      lanes.push(
        (async () => {
          let first = true;
          for (let t = queue.shift(); t !== undefined; t = queue.shift()) {
            if (o.stopped?.()) return;
            if (!first) {
              const ms = await o.delayMs(host);
              if (ms > 0) await sleep(ms);
            }
            first = false;
            await gate.acquire();
            try {
              await work(t);
            } finally {
              gate.release();
            }
          }
        })(),
      );
    }
  }
  await Promise.all(lanes);
}
