// Baseline of bench/front-door.ts: a bare Bun.serve answering one recorded response (same body, same headers).
import { readFileSync } from "node:fs";
const { body, headers } = JSON.parse(readFileSync(process.argv[2]!, "utf8")) as {
  body: string;
  headers: Record<string, string>;
};
Bun.serve({ hostname: "127.0.0.1", port: Number(process.argv[3] ?? 0), fetch: () => new Response(body, { headers }) });
