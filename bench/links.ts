// Link checker throughput and memory against a loopback double (run in a child process), as ratios against a bare
// HEAD loop (same URLs, same concurrency, a new connection per request, no robots.txt, no SSRF guard, no state)
// measured in the same run. A check costs two requests on a new host (robots.txt + HEAD), so 0.5 is the ideal ratio.
//   npx bun bench/links.ts [links=400] [latency_ms=50]
// Two URL shapes: "spread" (one URL per host: the shape of the real data, 9,456 URLs on 9,447 hosts) and "one host"
// (every URL on one host: where the per-host delay rules). Modes: the default politeness of config.ts and relaxed.
import { defaultConfig, type LinksConfig } from "../src/config/config";
import { checkLinks } from "../src/links/checker";
import { LinkResults } from "../src/links/results";
import { openStateFile } from "../src/state/state-file";

if (process.argv[2] === "--double") {
  const latency = Number(process.argv[3] ?? 0);
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      if (latency) await Bun.sleep(latency);
      return new URL(req.url).pathname === "/robots.txt"
        ? new Response("User-agent: *\nDisallow: /private\n")
        : new Response(req.method === "HEAD" ? null : "ok");
    },
  });
  console.log(server.port);
} else {
  const n = Number(process.argv[2] ?? 400);
  const latency = Number(process.argv[3] ?? 50);
  const child = Bun.spawn([process.execPath, import.meta.path, "--double", String(latency)], {
    stdout: "pipe",
    stderr: "inherit",
  });
  const reader = child.stdout.getReader();
  const port = Number(new TextDecoder().decode((await reader.read()).value).trim());
  const resolver = async () => [{ address: "127.0.0.1", family: 4 as const }];
  const spread = Array.from({ length: n }, (_, i) => `http://h${i}.bench.test:${port}/page/${i}`);
  const oneHost = Array.from({ length: Math.min(n, 12) }, (_, i) => `http://one.bench.test:${port}/page/${i}`);
  const defaults: LinksConfig = { ...defaultConfig().links, contact: "bench@example.gov" };
  const relaxed: LinksConfig = { ...defaults, concurrency: 64, per_host_concurrency: 8, per_host_delay_ms: 0 };

  async function bare(urls: string[], concurrency: number): Promise<number> {
    const t0 = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        for (let i = next++; i < urls.length; i = next++) {
          // a new connection per request, as with distinct real hosts (no keep-alive across the bench's host names)
          const r = await fetch(urls[i]!.replace(/\/\/[^/:]+:/, "//127.0.0.1:"), {
            method: "HEAD",
            keepalive: false,
            headers: { connection: "close" },
          });
          await r.arrayBuffer();
        }
      }),
    );
    return urls.length / ((performance.now() - t0) / 1000);
  }
  async function checker(urls: string[], cfg: LinksConfig) {
    Bun.gc(true);
    const before = process.memoryUsage();
    const results = new LinkResults(openStateFile(":memory:"));
    const s = await checkLinks(urls, { cfg, results, resolver, allowLoopback: true });
    const after = process.memoryUsage();
    if (s.ok !== urls.length) throw new Error(`expected every link ok, got ${JSON.stringify(s)}`);
    return {
      rate: s.linksPerSecond,
      rssMb: after.rss / 1048576,
      heapDeltaMb: (after.heapUsed - before.heapUsed) / 1048576,
    };
  }

  console.log(
    `link checker vs a bare HEAD loop; ${n} links, double latency ${latency} ms per request, double in a child process`,
  );
  console.log("(2-core machine shared with other agents: absolute figures are disturbed, ratios less so)");
  for (const [name, cfg] of [
    ["default politeness", defaults],
    ["relaxed", relaxed],
  ] as const) {
    for (const [shape, urls] of [
      ["spread (1 URL/host)", spread],
      ["one host", oneHost],
    ] as const) {
      const base = await bare(
        urls,
        Math.min(cfg.concurrency, cfg.per_host_concurrency * new Set(urls.map((u) => new URL(u).host)).size),
      );
      const c = await checker(urls, cfg);
      console.log(
        `${name.padEnd(18)} ${shape.padEnd(20)} checker ${c.rate.toFixed(1).padStart(7)} links/s  bare ${base.toFixed(1).padStart(7)} req/s  ratio ${(c.rate / base).toFixed(2)}  rss ${c.rssMb.toFixed(0)} MB  heap +${c.heapDeltaMb.toFixed(1)} MB`,
      );
    }
  }
  const full = 9456;
  console.log(
    `defaults: concurrency ${defaults.concurrency}, per host ${defaults.per_host_concurrency}, delay ${defaults.per_host_delay_ms} ms, timeout ${defaults.timeout_ms} ms`,
  );
  console.log(
    `a full run of the real data (${full} URLs on ~${full} hosts) at the spread rate above would take ≈ ${(full / (await checker(spread, defaults)).rate / 60).toFixed(1)} min with this latency`,
  );
  child.kill();
  process.exit(0);
}
