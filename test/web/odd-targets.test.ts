// Odd request targets in front of the pages (issue 19, items 5 and 6), over a real socket on both fronts: a path
// that starts with "//" is no page (never a 500, never another page), and a target with a dot segment is answered
// as a /v1 problem, never by the pages. Bun.serve resolves dot segments itself before the app sees the target
// ("/v1/../topics" arrives as "/topics"); the node front passes the target as sent (README).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startFront, type Front, type FrontKind } from "../../src/http/server";
import { rawRequest } from "../helpers/raw-http";
import { yamlWebApp } from "../helpers/web-app";
import { PROBLEMS } from "../helpers/app";

const FRONTS: FrontKind[] = ["bun", "node"];
const servers = new Map<FrontKind, Front>();
beforeAll(async () => {
  for (const f of FRONTS)
    servers.set(f, await startFront(f, yamlWebApp({ service_callers: ["127.0.0.1"] }).app, "127.0.0.1", 0));
});
afterAll(() => {
  for (const s of servers.values()) s.stop(true);
});
const get = (front: FrontKind, target: string) =>
  rawRequest(servers.get(front)!.port!, `GET ${target} HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n`);

for (const front of FRONTS) {
  describe(`paths that start with // (front ${front})`, () => {
    test("//[ and //a:99999/ are not pages: 404, never 500", async () => {
      for (const t of ["//[", "//a:99999/"]) {
        const r = await get(front, t);
        expect([t, r.status === 404 || r.status === 400]).toEqual([t, true]);
        expect(r.status).not.toBe(500);
      }
    });
    test("//x/topics does not render the /topics page", async () => {
      const r = await get(front, "//x/topics");
      expect(r.status).toBe(404);
      expect(r.body).not.toContain("<h1>Topics");
    });
  });
}

describe("dot segments (front node: the target as sent)", () => {
  test("/v1/../topics and /v1/%2e%2e/topics get a problem document 404 not-found with CORS, never a page", async () => {
    for (const t of ["/v1/../topics", "/v1/%2e%2e/topics", "/v1/%2E%2E/topics", "/v1/./topics", "/x/../v1/topics"]) {
      const r = await get("node", t);
      expect([t, r.status]).toEqual([t, 404]);
      expect(r.headers["content-type"]).toBe("application/problem+json");
      expect(r.headers["access-control-allow-origin"]).toBe("*");
      expect(JSON.parse(r.body).type).toBe(`${PROBLEMS}/not-found`);
    }
  });
  test("a name with dots that is no dot segment is routed as usual", async () => {
    expect((await get("node", "/v1/topics")).status).toBe(200);
    expect((await get("node", "/v1/guides/..zoning")).status).toBe(404);
  });
});
