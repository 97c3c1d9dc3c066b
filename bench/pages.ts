// bench/pages.ts: the human pages against their JSON twins, in-process (app.handle, no sockets), in the same run:
// a place page vs GET /v1/places/{id} for the same places, and /topics vs /v1/topics. Prints per-request time
// and the ratio (page time / API time). Limits are lifted so only the work is measured.
//   bun bench/pages.ts [data file] [requests per kind]
import { Database } from "bun:sqlite";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "../src/config/config";
import { buildDeps, composeApp } from "../src/cli/compose";
import { contentFromStore } from "../src/directory/content";
import { Directory } from "../src/directory/directory";
import { LIMIT_CLASSES } from "../src/config/limits-table";

const root = join(import.meta.dir, "..");
const data = process.argv[2] ?? join(root, "directory.sqlite");
const n = Number(process.argv[3] ?? 400);
if (!existsSync(data)) {
  console.error(`no data file at ${data}; build one with: npx bun run build-data`);
  process.exit(2);
}

const db = new Database(data, { readonly: true });
const lifted = Object.fromEntries(Object.keys(LIMIT_CLASSES).map((k) => [k, { per_minute: 1e9, per_day: 1e9 }]));
const cfg = loadConfig(null, {}, { base_url: "http://bench.test/v1", state_file: ":memory:", limits: lifted } as any);
const deps = buildDeps(cfg, {
  db: null,
  manifest: { as_of: "2026-11-22T00:00:00Z", content_sha256: "bench" },
  content: contentFromStore(db),
});
deps.directory = new Directory(db, deps.content, deps.links);
const app = composeApp(deps);

const ids = db
  .query<{ jurisdiction_id: string }, []>(
    "SELECT jurisdiction_id FROM jurisdictions WHERE documented = 1 AND type IN ('county','cousub','place') ORDER BY jurisdiction_id",
  )
  .all()
  .map((r) => r.jurisdiction_id);
let s = 20261122;
const pick = () => {
  s = (s * 1103515245 + 12345) & 0x7fffffff;
  return ids[s % ids.length]!;
};
const sample = Array.from({ length: n }, pick);

async function time(paths: string[]): Promise<{ ms: number; bytes: number }> {
  let bytes = 0;
  const t0 = performance.now();
  for (const p of paths) {
    const r = await app.handle(new Request(`http://bench.test${p}`), "127.0.0.1");
    bytes += (await r.arrayBuffer()).byteLength;
    if (r.status !== 200) throw new Error(`${p}: ${r.status}`);
  }
  return { ms: (performance.now() - t0) / paths.length, bytes: bytes / paths.length };
}

await time(sample.slice(0, 50).map((id) => `/places/${id}`)); // warm up
await time(sample.slice(0, 50).map((id) => `/v1/places/${id}`));
for (const [label, page, api] of [
  ["place (random county/cousub/place)", sample.map((id) => `/places/${id}`), sample.map((id) => `/v1/places/${id}`)],
  ["topics", Array(n).fill("/topics"), Array(n).fill("/v1/topics")],
] as const) {
  const a = await time([...api]);
  const p = await time([...page]);
  console.log(
    `${label}: page ${p.ms.toFixed(2)} ms (${(p.bytes / 1024).toFixed(1)} KB), API ${a.ms.toFixed(2)} ms (${(a.bytes / 1024).toFixed(1)} KB), ratio page/API ${(p.ms / a.ms).toFixed(2)}`,
  );
}
console.log(`RSS ${(process.memoryUsage().rss / 1048576).toFixed(0)} MB`);
