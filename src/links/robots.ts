// robots.txt, read with `robots-parser` and cached per origin (scheme, host, port) for `ttlMs`.
// RFC 9309: 2xx → the rules apply; 4xx (none published) → everything is allowed; 5xx or unreachable → everything
// is disallowed for now (section 2.3.1.4), so such hosts are skipped, never counted as broken. Crawl-delay (not in
// the RFC, widely used) raises the per-host delay, capped at 60 s.
import robotsParser from "robots-parser";

export interface RobotsRules {
  allowed(url: string): boolean;
  crawlDelayMs: number;
  /** How the rules were obtained: "rules" | "none" (4xx) | "unreachable". */
  kind: "rules" | "none" | "unreachable";
}

/** GET a text document (following and vetting redirects): status and body, or a failure. */
export type FetchText = (url: string) => Promise<{ status: number; body: string } | { failure: string }>;

const MAX_CRAWL_DELAY_MS = 60_000;

export class RobotsCache {
  private readonly byOrigin = new Map<string, { at: number; rules: Promise<RobotsRules> }>();
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
    if (hit && this.now() - hit.at < this.ttlMs) return hit.rules;
    const rules = this.load(origin).then((r) => { if (r.crawlDelayMs) this.delays.set(url.host.toLowerCase(), r.crawlDelayMs); return r; });
    this.byOrigin.set(origin, { at: this.now(), rules });
    return rules;
  }

  /** Crawl delay already known for a host (host[:port], any scheme; 0 when none or not yet read). */
  crawlDelayMs(host: string): number { return this.delays.get(host.toLowerCase()) ?? 0; }

  get size() { return this.byOrigin.size; }

  private async load(origin: string): Promise<RobotsRules> {
    const robotsUrl = `${origin}/robots.txt`;
    const got = await this.fetchText(robotsUrl);
    if ("failure" in got || got.status >= 500) return { allowed: () => false, crawlDelayMs: 0, kind: "unreachable" };
    if (got.status >= 400 || got.status < 200 || got.status >= 300) return { allowed: () => true, crawlDelayMs: 0, kind: "none" };
    const robot = robotsParser(robotsUrl, got.body);
    const delayS = Number(robot.getCrawlDelay(this.agent) ?? 0);
    return {
      // isAllowed is undefined for a URL of another origin (never asked here): treat as allowed
      allowed: (u) => robot.isAllowed(u, this.agent) !== false,
      crawlDelayMs: Number.isFinite(delayS) && delayS > 0 ? Math.min(delayS * 1000, MAX_CRAWL_DELAY_MS) : 0,
      kind: "rules",
    };
  }
}
