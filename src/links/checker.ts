// The link checker: every URL probed politely (per-host lanes, delay, robots.txt with Crawl-delay), each result
// stored in the state store (the state file or PostgreSQL) with the transition rule of results.ts, the in-process
// view updated at once, progress while it runs and a summary at the end.
import type { LinksConfig } from "../config/config";
import { runPolitely } from "./politeness";
import { probe, textFetcher, type ProbeDeps } from "./probe";
import { silentProgress, type Progress } from "./progress";
import type { LinkRow, VerifiedStatus } from "./results";
import type { ResultStore } from "../state/store";
import { RobotsCache } from "./robots";
import { systemResolver, type Resolver } from "./ssrf";
import { hostKey } from "./targets";

export interface CheckOptions {
  cfg: LinksConfig;
  results: ResultStore;
  /** The view answers are served from, updated after every check (serve's background run). */
  view?: { set(row: LinkRow): void };
  resolver?: Resolver;
  now?: () => Date;
  sleep?: (ms: number) => Promise<void>;
  /** TEST ONLY: allow loopback addresses (the doubles listen on 127.0.0.1). Not reachable from config or CLI. */
  allowLoopback?: boolean;
  progress?: Progress;
  stopped?: () => boolean;
}

export interface Summary {
  checked: number;
  ok: number;
  failed: number;
  skipped: number;
  hosts: number;
  reasons: Record<string, number>;
  /** verified_status of the checked URLs after the run, and how many changed to it in this run. */
  statuses: Record<VerifiedStatus, number>;
  changed: Record<VerifiedStatus, number>;
  elapsedMs: number;
  linksPerSecond: number;
}

export function userAgentOf(cfg: LinksConfig): string {
  if (!cfg.contact.trim())
    throw new Error(
      "config: links.contact is required to check links (an e-mail or URL where site owners can reach you)",
    );
  return `${cfg.user_agent} (+${cfg.contact.trim()})`;
}

export async function checkLinks(urls: string[], o: CheckOptions): Promise<Summary> {
  const cfg = o.cfg;
  const now = o.now ?? (() => new Date());
  const userAgent = userAgentOf(cfg);
  const base: Omit<ProbeDeps, "robots"> = {
    resolver: o.resolver ?? systemResolver,
    allowLoopback: o.allowLoopback === true,
    timeoutMs: cfg.timeout_ms,
    userAgent,
    maxRedirects: cfg.max_redirects,
  };
  const robots = new RobotsCache(textFetcher(base), userAgent, 86_400_000, () => now().getTime());
  const deps: ProbeDeps = { ...base, robots };
  const rule = { failures: cfg.broken_after_failures, days: cfg.broken_after_days };
  const progress = o.progress ?? silentProgress;
  const s: Summary = {
    checked: 0,
    ok: 0,
    failed: 0,
    skipped: 0,
    hosts: new Set(urls.map(hostKey)).size,
    reasons: {},
    statuses: { verified: 0, not_yet_verified: 0, possibly_broken: 0 },
    changed: { verified: 0, not_yet_verified: 0, possibly_broken: 0 },
    elapsedMs: 0,
    linksPerSecond: 0,
  };
  const started = performance.now();
  progress.start(urls.length);
  await runPolitely(
    urls,
    hostKey,
    async (url) => {
      const r = await probe(url, deps);
      let row: LinkRow, before: VerifiedStatus;
      try {
        before = (await o.results.get(url))?.verified_status ?? "not_yet_verified";
        row = await o.results.record(url, r, now(), rule);
      } catch (e) {
        throw new Error(`state store: ${(e as Error).message}`);
      }
      o.view?.set(row);
      s.checked++;
      s[r.kind === "ok" ? "ok" : r.kind === "failed" ? "failed" : "skipped"]++;
      if (r.reason) s.reasons[r.reason] = (s.reasons[r.reason] ?? 0) + 1;
      s.statuses[row.verified_status]++;
      if (row.verified_status !== before) s.changed[row.verified_status]++;
      progress.tick({ ok: s.ok, failed: s.failed, skipped: s.skipped });
    },
    {
      concurrency: cfg.concurrency,
      perHost: cfg.per_host_concurrency,
      sleep: o.sleep,
      stopped: o.stopped,
      delayMs: (host) => Math.max(cfg.per_host_delay_ms, robots.crawlDelayMs(host)),
    },
  );
  progress.stop();
  s.elapsedMs = performance.now() - started;
  s.linksPerSecond = s.checked / Math.max(0.001, s.elapsedMs / 1000);
  return s;
}

export function summaryLines(s: Summary): string[] {
  const reasons = Object.entries(s.reasons)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k} ${v}`)
    .join(", ");
  return [
    `checked ${s.checked} links on ${s.hosts} hosts in ${(s.elapsedMs / 1000).toFixed(1)} s (${s.linksPerSecond.toFixed(2)} links/s): ok ${s.ok}, failed ${s.failed}, skipped ${s.skipped}`,
    ...(reasons ? [`  not ok: ${reasons}`] : []),
    `  now verified ${s.statuses.verified}, not_yet_verified ${s.statuses.not_yet_verified}, possibly_broken ${s.statuses.possibly_broken}` +
      ` (changed in this run: → verified ${s.changed.verified}, → possibly_broken ${s.changed.possibly_broken})`,
  ];
}
