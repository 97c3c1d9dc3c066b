// The server runs in production mode: Bun's development mode (its default unless NODE_ENV=production) would
// render errors with stack traces. A failure escaping the app gets the last-net problem document, no stack.
import { describe, expect, test } from "bun:test";
import { startServer } from "../../src/http/server";

describe("Bun.serve mode", () => {
  test("development mode is off, and an escaped error answers a problem document without a stack trace", async () => {
    const app = { handle: () => { throw new Error("secret-internal-detail"); } } as any;
    const server = startServer(app, "127.0.0.1", 0);
    try {
      expect(server.development).toBe(false);
      const res = await fetch(`http://127.0.0.1:${server.port}/v1/topics`);
      expect(res.status).toBe(500);
      expect(res.headers.get("content-type")).toBe("application/problem+json");
      expect(res.headers.get("x-request-id")).toMatch(/^[A-Za-z0-9._-]{8,64}$/);
      const text = await res.text();
      expect(text).not.toContain("secret-internal-detail");
      expect(text).not.toContain("at ");
      expect(JSON.parse(text).status).toBe(500);
    } finally { server.stop(true); }
  });
});
