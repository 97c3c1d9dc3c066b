// The link checker against loopback doubles: each kind of answer, the SSRF guard on every hop, robots.txt,
// politeness. Sites have *.test names resolved by an injected resolver to 127.0.0.1 (loopback allowed: test only).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { defaultConfig, type LinksConfig } from "../../src/config/config";
import { checkLinks, userAgentOf, type CheckOptions } from "../../src/links/checker";
import { LinkResults } from "../../src/links/results";
import { openStateFile } from "../../src/state/state-file";
import { startLinkDouble, testResolver, type LinkDouble } from "../doubles/links";

let d: LinkDouble;
beforeAll(() => {
  d = startLinkDouble({ slowMs: 3_000 });
});
afterAll(() => d.stop());

const cfg = (over: Partial<LinksConfig> = {}): LinksConfig => ({
  ...defaultConfig().links,
  contact: "links@example.gov",
  timeout_ms: 400,
  per_host_delay_ms: 0,
  concurrency: 8,
  ...over,
});

async function check(urls: string[], o: Partial<CheckOptions> & { links?: Partial<LinksConfig> } = {}) {
  const results = new LinkResults(openStateFile(":memory:"));
  const summary = await checkLinks(urls, {
    cfg: cfg(o.links),
    results,
    allowLoopback: true,
    resolver: testResolver({ "metadata.test": "169.254.169.254", "private.test": "10.0.0.8" }),
    ...o,
  });
  return { summary, row: (u: string) => results.get(u)!, results };
}
const seenPaths = (host: string) => d.seen.filter((s) => s.host === host).map((s) => `${s.method} ${s.path}`);

describe("a retired site", () => {
  test("a page that answers 200 but says the site is no longer in use fails with reason retired and the sentence", async () => {
    const u = d.url("retired.test", "/retired");
    const { row, summary } = await check([u]);
    expect(row(u)).toMatchObject({ outcome: "failed", reason: "retired", http_status: 200, consecutive_failures: 1 });
    expect(row(u).detail).toBe("the page says: This website is no longer in use.");
    expect(summary.reasons).toEqual({ retired: 1 });
    expect(seenPaths("retired.test")).toEqual(["GET /robots.txt", "HEAD /retired", "GET /retired"]);
  });
  test("a sentence that only mentions a move, a script's text and a page longer than the 64 KB read are live pages", async () => {
    const a = d.url("live.test", "/news-moved"),
      b = d.url("live.test", "/long-page");
    const { row } = await check([a, b]);
    expect(row(a)).toMatchObject({ outcome: "ok", verified_status: "verified", reason: null });
    expect(row(b)).toMatchObject({ outcome: "ok", verified_status: "verified", reason: null });
  });
});

describe("answers of a site", () => {
  test("200: verified today, HTTP 200, method automated, our User-Agent with the contact", async () => {
    const u = d.url("ok.test", "/ok");
    const { row, summary } = await check([u]);
    expect(row(u)).toMatchObject({
      outcome: "ok",
      http_status: 200,
      verified_status: "verified",
      verification_method: "automated",
      request_method: "HEAD",
      final_url: u,
      consecutive_failures: 0,
    });
    expect(row(u).verified_at).toBe(new Date().toISOString().slice(0, 10));
    expect(summary).toMatchObject({ checked: 1, ok: 1, failed: 0, skipped: 0 });
    const ua = d.seen.find((s) => s.host === "ok.test" && s.path === "/ok")!.userAgent;
    expect(ua).toBe("property-land-gis-directory-linkcheck/0.1 (+links@example.gov)");
  });

  test("HEAD refused (405, 501) then GET 200: verified, by GET", async () => {
    const a = d.url("head.test", "/head-refused"),
      b = d.url("head.test", "/head-501");
    const { row } = await check([a, b]);
    for (const u of [a, b])
      expect(row(u)).toMatchObject({
        outcome: "ok",
        http_status: 200,
        request_method: "GET",
        verified_status: "verified",
      });
    expect(seenPaths("head.test")).toEqual(
      expect.arrayContaining(["HEAD /head-refused", "GET /head-refused", "HEAD /head-501", "GET /head-501"]),
    );
  });

  test("redirect chains: 5 hops are followed to the final URL, 6 are a failure; a hop to another host works", async () => {
    const five = d.url("redir.test", "/redirect/5"),
      six = d.url("redir.test", "/redirect/6"),
      abs = d.url("redir.test", "/redirect-absolute");
    const { row } = await check([five, six, abs]);
    expect(row(five)).toMatchObject({
      outcome: "ok",
      http_status: 200,
      final_url: d.url("redir.test", "/ok"),
      verified_status: "verified",
    });
    expect(row(six)).toMatchObject({
      outcome: "failed",
      reason: "too-many-redirects",
      http_status: 302,
      consecutive_failures: 1,
    });
    expect(row(abs)).toMatchObject({ outcome: "ok", final_url: d.url("other.test", "/ok") });
  });

  test("404, 410 and 500 are failures with their status; HEAD 404 is asked again with GET, 410 and 500 are not", async () => {
    const [a, b, c] = ["/status/404", "/status/410", "/status/500"].map((p) => d.url("codes.test", p));
    const { row, summary } = await check([a!, b!, c!]);
    expect(row(a!)).toMatchObject({
      outcome: "failed",
      reason: "http-status",
      http_status: 404,
      request_method: "GET",
      verified_status: "not_yet_verified",
      verification_method: "automated",
    });
    expect(row(b!)).toMatchObject({ outcome: "failed", http_status: 410, request_method: "HEAD" });
    expect(row(c!)).toMatchObject({ outcome: "failed", http_status: 500, request_method: "HEAD" });
    expect(summary.reasons["http-status"]).toBe(3);
  });

  test("timeout: no answer within timeout_ms is a failure without a status", async () => {
    const u = d.url("slow.test", "/slow");
    const t0 = performance.now();
    const { row } = await check([u], { links: { timeout_ms: 300 } });
    expect(performance.now() - t0).toBeLessThan(2_500);
    expect(row(u)).toMatchObject({ outcome: "failed", reason: "timeout", http_status: null });
  });

  test("connection reset is a failure (reset)", async () => {
    const u = `http://reset.test:${d.resetPort}/ok`;
    const { row } = await check([u]);
    expect(row(u)).toMatchObject({ outcome: "failed", reason: "reset", http_status: null });
  });
});

describe("robots.txt", () => {
  test("a disallowed path is skipped and never requested; an allowed path of the same host is checked", async () => {
    const no = d.url("blocked.test", "/private/page"),
      yes = d.url("blocked.test", "/public/page");
    const { row, summary } = await check([no, yes]);
    expect(row(no)).toMatchObject({
      outcome: "skipped",
      reason: "robots",
      verified_status: "not_yet_verified",
      verification_method: null,
    });
    expect(row(yes)).toMatchObject({ outcome: "ok", verified_status: "verified" });
    expect(seenPaths("blocked.test").filter((p) => p.includes("/private"))).toEqual([]);
    expect(seenPaths("blocked.test").filter((p) => p === "GET /robots.txt")).toHaveLength(1); // cached per host
    expect(summary.skipped).toBe(1);
  });

  test("rules for our own product token apply; a robots.txt answering 5xx means: not checked for now", async () => {
    const a = d.url("onlyus.test", "/ok"),
      b = d.url("robots500.test", "/ok");
    const { row } = await check([a, b]);
    expect(row(a)).toMatchObject({ outcome: "skipped", reason: "robots" });
    expect(row(b)).toMatchObject({ outcome: "skipped", reason: "robots" });
    expect(row(b).detail).toContain("could not be read");
    expect(seenPaths("onlyus.test")).toEqual(["GET /robots.txt"]);
  });

  test("a skip keeps an earlier result (status, date, failures)", async () => {
    const results = new LinkResults(openStateFile(":memory:"));
    const u = d.url("blocked.test", "/private/x");
    results.db.run(
      "INSERT INTO link_results (url, outcome, checked_at, verified_status, verified_at, " +
        "verification_method, http_status) VALUES (?, 'ok', '2026-01-01T00:00:00Z', 'verified', '2026-01-01', " +
        "'automated', 200)",
      [u],
    );
    await checkLinks([u], { cfg: cfg(), results, allowLoopback: true, resolver: testResolver() });
    expect(results.get(u)).toMatchObject({
      outcome: "skipped",
      verified_status: "verified",
      verified_at: "2026-01-01",
      http_status: 200,
    });
  });
});

describe("SSRF guard (every hop)", () => {
  test("redirects to metadata and private addresses are refused before any connection", async () => {
    const paths = ["/to-metadata", "/to-metadata-ip", "/to-metadata-name", "/to-private", "/to-mapped"];
    const urls = paths.map((p) => d.url("ssrf.test", p));
    const { row } = await check(urls);
    for (const u of urls)
      expect(row(u)).toMatchObject({
        outcome: "failed",
        reason: "refused-address",
        verified_status: "not_yet_verified",
      });
    expect(row(urls[0]!).detail).toContain("169.254.169.254");
    expect(row(urls[2]!).detail).toContain("metadata host name");
    expect(row(urls[3]!).detail).toContain("private");
    expect(
      d.seen.filter((s) =>
        ["metadata.test", "private.test", "169.254.169.254", "metadata.google.internal"].includes(s.host),
      ),
    ).toEqual([]);
  });

  test("a redirect to another scheme (file:) is refused", async () => {
    const u = d.url("ssrf.test", "/to-file");
    const { row } = await check([u]);
    expect(row(u)).toMatchObject({ outcome: "failed", reason: "bad-redirect" });
  });

  test("without the test-only option, loopback is refused: by address, by name (localhost) and after resolution", async () => {
    const urls = [
      `http://127.0.0.1:${d.port}/ok`,
      `http://localhost:${d.port}/ok`,
      d.url("loop.test", "/ok"),
      `http://[::1]:${d.port}/ok`,
    ];
    const before = d.seen.length;
    const { row } = await check(urls, { allowLoopback: false });
    for (const u of urls) expect(row(u)).toMatchObject({ outcome: "failed", reason: "refused-address" });
    expect(d.seen.length).toBe(before);
  });

  test("the vetted address is pinned: a name only the injected resolver knows is reached, one resolution per request", async () => {
    const r = testResolver({ "pinned.test": "127.0.0.1" });
    const u = d.url("pinned.test", "/ok");
    const { row } = await check([u], { resolver: r });
    expect(row(u)).toMatchObject({ outcome: "ok" });
    expect(r.calls.get("pinned.test")).toBe(3); // robots.txt, HEAD and the page read, each resolved once and connected to as vetted
  });

  test("DNS rebinding: a name that answers a public-looking address then metadata is refused on the hop that gets metadata", async () => {
    const r = testResolver({ "rebind.test": (n) => (n === 1 ? "127.0.0.1" : "169.254.169.254") });
    const u = d.url("rebind.test", "/ok");
    const { row } = await check([u], { resolver: r });
    expect(row(u)).toMatchObject({ outcome: "failed", reason: "refused-address" });
    expect(seenPaths("rebind.test")).toEqual(["GET /robots.txt"]);
  });
});

describe("politeness and configuration", () => {
  test("one check at a time per host by default; per_host_concurrency 2 allows two; the delay spaces checks", async () => {
    const slow = startLinkDouble({ latencyMs: 60 });
    try {
      const urls = (h: string) => Array.from({ length: 6 }, (_, i) => slow.url(h, `/ok?${i}`));
      await check([...urls("one.test"), ...urls("two.test")]);
      expect(slow.maxInFlight.get("one.test")).toBe(1);
      await check(urls("pair.test"), { links: { per_host_concurrency: 2 } });
      expect(slow.maxInFlight.get("pair.test")).toBe(2);
      const t0 = performance.now();
      await check(urls("spaced.test").slice(0, 3), { links: { per_host_delay_ms: 100 } });
      expect(performance.now() - t0).toBeGreaterThanOrEqual(200);
    } finally {
      slow.stop();
    }
  });

  test("a contact is required", () => {
    expect(() => userAgentOf({ ...defaultConfig().links })).toThrow(/links\.contact/);
  });
});
