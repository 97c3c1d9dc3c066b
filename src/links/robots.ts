// robots.txt, read with `robots-parser` and cached per origin (scheme, host, port) for `ttlMs`.
// RFC 9309: 2xx → the rules apply; 4xx (none published) → everything is allowed; 5xx or unreachable → everything
// is disallowed for now (section 2.3.1.4), so such hosts are skipped, never counted as broken; no HTTP answer at all
// (DNS, refused address, timeout, reset) → the host's links fail with that reason. Crawl-delay (not in
// the RFC, widely used) raises the per-host delay, capped at 60 s.
import robotsParser from "robots-parser";

interface RobotsRules {
  allowed(url: string): boolean;
  crawlDelayMs: number;
  /** How the rules were obtained: "rules" | "none" (4xx) | "unreachable" (5xx) | "failed" (no answer at all). */
  kind: "rules" | "none" | "unreachable" | "failed";
  detail: string;
  /** Set when robots.txt got no HTTP answer at all (refused address, DNS, timeout, reset, TLS): the host's links fail
   * the same way without a further request. Such results are kept for 10 minutes only. */
  failure?: { reason: string; detail: string };
}

/** GET a text document (following and vetting redirects): status and body, or a failure. */
export type FetchText = (url: string) => Promise<{ status: number; body: string } | { reason: string; detail: string }>;

const MAX_CRAWL_DELAY_MS = 60_000;
const FAILURE_TTL_MS = 600_000;

export class RobotsCache {
  private readonly byOrigin = new Map<string, { at: number; rules: Promise<RobotsRules>; failed?: boolean }>();
  private readonly delays = new Map<string, number>();
  constructor(
    private readonly fetchText: FetchText,
    /** The product token matched against User-agent lines (the first word of the User-Agent). */
    private readonly agent: string,
    private readonly ttlMs = 86_400_000,
    private readonly now: () => number = Date.now,
  ) {}

  rulesFor(url: URL): Promise<RobotsRules> {
    const origin = url.origin;
    const hit = this.byOrigin.get(origin);
    if (hit && this.now() - hit.at < (hit.failed ? FAILURE_TTL_MS : this.ttlMs)) return hit.rules;
    const entry: { at: number; rules: Promise<RobotsRules>; failed?: boolean } = {
      at: this.now(),
      rules: null as never,
    };
    entry.rules = this.load(origin).then((r) => {
      if (r.crawlDelayMs) this.delays.set(url.host.toLowerCase(), r.crawlDelayMs);
      if (r.failure) entry.failed = true;
      return r;
    });
    this.byOrigin.set(origin, entry);
    return entry.rules;
  }

  /** Crawl delay already known for a host (host[:port], any scheme; 0 when none or not yet read). */
  crawlDelayMs(host: string): number {
    return this.delays.get(host.toLowerCase()) ?? 0;
  }

  get size() {
    return this.byOrigin.size;
  }

  private async load(origin: string): Promise<RobotsRules> {
    const robotsUrl = `${origin}/robots.txt`;
    const got = await this.fetchText(robotsUrl);
    if ("reason" in got)
      return { allowed: () => false, crawlDelayMs: 0, kind: "failed", detail: got.detail, failure: got };
    if (got.status >= 500)
      return { allowed: () => false, crawlDelayMs: 0, kind: "unreachable", detail: `HTTP ${got.status}` };
    if (got.status < 200 || got.status >= 300)
      return { allowed: () => true, crawlDelayMs: 0, kind: "none", detail: `HTTP ${got.status}` };
    const robot = robotsParser(robotsUrl, got.body);
    const delayS = Number(robot.getCrawlDelay(this.agent) ?? 0);
    return {
      // isAllowed is undefined for a URL of another origin (never asked here): treat as allowed
      allowed: (u) => robot.isAllowed(u, this.agent) !== false,
      crawlDelayMs: Number.isFinite(delayS) && delayS > 0 ? Math.min(delayS * 1000, MAX_CRAWL_DELAY_MS) : 0,
      kind: "rules",
      detail: `HTTP ${got.status}`,
    };
  }
}
