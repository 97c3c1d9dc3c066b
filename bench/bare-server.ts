// Baseline: a bare Bun.serve hello world (JSON), the same for every bench.
const port = Number(process.argv[2] ?? 0);
const body = JSON.stringify({ hello: "world" });
Bun.serve({
  hostname: "127.0.0.1",
  port,
  fetch: () => new Response(body, { headers: { "Content-Type": "application/json" } }),
});
