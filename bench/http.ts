// bench/http.ts: throughput of GET /v1/topics through the whole wire protocol, as a ratio to a bare Bun.serve
// hello world measured in the same run with the same load generator.
//   bun bench/http.ts [data file] [seconds]
import { join } from "node:path";
import { existsSync } from "node:fs";
import { load, unlimitedEnv, waitReady } from "./load";

const root = join(import.meta.dir, "..");
const data = process.argv[2] ?? join(root, "directory.sqlite");
const seconds = Number(process.argv[3] ?? 5);
if (!existsSync(data)) {
  console.error(`no data file at ${data}; build one with: npx bun run build-data`);
  process.exit(2);
}
const bun = process.execPath;

async function measure(label: string, cmd: string[], env: Record<string, string>, url: string) {
  const p = Bun.spawn(cmd, { cwd: root, env, stdout: "ignore", stderr: "inherit" });
  try {
    await waitReady(url);
    await load([url], 1); // warm-up
    const r = await load([url], seconds);
    console.log(`${label.padEnd(28)} ${r.rps.toFixed(0).padStart(8)} req/s  (${r.n} requests, ${r.errors} errors)`);
    return r.rps;
  } finally {
    p.kill();
    await p.exited;
  }
}

const p1 = 31000 + Math.floor(Math.random() * 1000),
  p2 = p1 + 1000;
const bare = await measure(
  "bare Bun.serve",
  [bun, join(root, "bench/bare-server.ts"), String(p1)],
  { PATH: process.env.PATH ?? "" },
  `http://127.0.0.1:${p1}/`,
);
const app = await measure(
  "GET /v1/topics",
  [bun, join(root, "src/cli/main.ts"), "serve", "--data", data, "--port", String(p2)],
  unlimitedEnv(p2),
  `http://127.0.0.1:${p2}/v1/topics`,
);
console.log(`ratio /v1/topics : bare = ${(app / bare).toFixed(3)}`);
