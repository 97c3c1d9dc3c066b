// The MCP endpoint served by `serve` on the API's own port (issue 19, item 9): one process, one limiter. The spec
// counts MCP calls in the anonymous "all callers together, lists" bucket: /v1/places answers and MCP calls draw
// from the same 10 a minute, on both fronts.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { startFront, type Front, type FrontKind } from "../../src/http/server";
import { buildDeps, composeApp, mountMcp, openData } from "../../src/cli/compose";
import { fullDataFile } from "../helpers/data-file";
import { testConfig } from "../helpers/app";

const fronts: Front[] = [];
beforeAll(async () => {
  await fullDataFile(); // built once per test process
}, 600_000);
afterAll(() => {
  for (const f of fronts) f.stop(true);
});

async function serveWithMcp(front: FrontKind) {
  // the anonymous buckets as shipped; X-Forwarded-For believed from loopback so callers can differ by address
  const cfg = testConfig({ data_file: await fullDataFile(), trusted_proxies: ["127.0.0.1"], front } as any);
  const deps = buildDeps(cfg, await openData(cfg));
  const app = composeApp(deps);
  mountMcp(deps);
  const f = await startFront(front, app, "127.0.0.1", 0);
  fronts.push(f);
  return f;
}

for (const front of ["bun", "node"] as FrontKind[])
  describe(`MCP on the API's port, front ${front}`, () => {
    test("list answers and MCP calls share the anonymous list bucket of all callers (10 a minute)", async () => {
      const f = await serveWithMcp(front);
      const base = `http://127.0.0.1:${f.port}`;
      const client = new Client({ name: "test", version: "1.0.0" });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
      expect((await client.listTools()).tools.map((t) => t.name)).toContain("get_property_facts");
      // 4 MCP calls, then 6 list answers from three addresses (the per-address list bucket is 5): 10 in all
      const call = () => client.callTool({ name: "resolve_place", arguments: { jurisdiction_id: "county:53033" } });
      for (let i = 0; i < 4; i++) expect((await call()).isError).toBeFalsy();
      for (let i = 0; i < 6; i++) {
        const r = await fetch(`${base}/v1/places/county:53033`, {
          headers: { "X-Forwarded-For": `198.51.100.${i % 3}` },
        });
        expect([i, r.status]).toEqual([i, 200]);
      }
      // the bucket is used up for both doors
      const mcp = await call();
      expect(mcp.isError).toBe(true);
      expect((mcp.content as any)[0].text).toMatch(/Rate limited/);
      const list = await fetch(`${base}/v1/places/county:53033`, { headers: { "X-Forwarded-For": "198.51.100.9" } });
      expect(list.status).toBe(429);
      await client.close();
    });
    test("the endpoint is at mcp.path only; /v1 and the pages are unchanged", async () => {
      const f = await serveWithMcp(front);
      const base = `http://127.0.0.1:${f.port}`;
      expect((await fetch(`${base}/v1/topics`)).status).toBe(200);
      expect((await fetch(`${base}/mcpx`)).status).toBe(404);
    });
  });
