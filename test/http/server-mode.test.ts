// The server runs in production mode: Bun's development mode (its default unless NODE_ENV=production) would
// render errors with stack traces. A failure escaping the app gets the last-net problem document, no stack.
import { describe, expect, test } from "bun:test";
import { startServer } from "../../src/http/server";

/** The last-net answer: a 500 problem document with a request id, and nothing of the error in it. */
async function expectLastNet(res: Response): Promise<string> {
  expect(res.status).toBe(500);
  expect(res.headers.get("content-type")).toBe("application/problem+json");
  expect(res.headers.get("x-request-id")).toMatch(/^[A-Za-z0-9._-]{8,64}$/);
  const text = await res.text();
  expect(text).not.toContain("secret-internal-detail");
  expect(JSON.parse(text).status).toBe(500);
  return text;
}

describe("Bun.serve mode", () => {
  test("development mode is off, and an escaped error answers a problem document without a stack trace", async () => {
    const app = {
      handle: () => {
        throw new Error("secret-internal-detail");
      },
    } as any;
    const server = startServer(app, "127.0.0.1", 0);
    try {
      expect(server.development).toBe(false);
      const text = await expectLastNet(await fetch(`http://127.0.0.1:${server.port}/v1/topics`));
      expect(text).not.toContain("at ");
    } finally {
      server.stop(true);
    }
  });
});

describe("node front", () => {
  test("an error escaping the app (thrown or rejected) answers the same last-net problem document, no stack", async () => {
    const { startNodeFront } = await import("../../src/http/node-front");
    for (const handle of [
      () => {
        throw new Error("secret-internal-detail");
      },
      () => Promise.reject(new Error("secret-internal-detail")),
    ]) {
      const server = await startNodeFront({ handle } as any, "127.0.0.1", 0);
      try {
        await expectLastNet(await fetch(`http://127.0.0.1:${server.port}/v1/topics`));
        expect(server.pendingRequests).toBe(0);
      } finally {
        server.stop(true);
      }
    }
  });
});
