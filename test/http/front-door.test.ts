// The front door under a real socket: Host handling, methods, parser-rejected requests, empty parameters,
// the key on /openapi.json, the whole-request timeout. Exact request bytes go over TCP (test/helpers/raw-http.ts).
import { expectProblemAnswer } from "../helpers/problem";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startFront, type Front, type FrontKind } from "../../src/http/server";
import { unparsedReason } from "../../src/http/node-front";
import { call, yamlApp, PROBLEMS } from "../helpers/app";
import { rawRequest } from "../helpers/raw-http";
import type { RouteDef } from "../../src/http/route";
import { ROUTES } from "../../src/http/routes";
import { createApp } from "../../src/http/app";

// Both fronts (config `front`: Bun.serve, node:http) run the socket-level tests; the parser-rejected requests
// differ by front and have their own tests below.
const FRONTS: FrontKind[] = ["bun", "node"];
const servers = new Map<FrontKind, Front>();
// a service caller (6,000/min) so the many requests below are not rate-limited
beforeAll(async () => {
  for (const f of FRONTS)
    servers.set(f, await startFront(f, yamlApp({ service_callers: ["127.0.0.1"] }).app, "127.0.0.1", 0));
});
afterAll(() => {
  for (const s of servers.values()) s.stop(true);
});
const requestTo =
  (front: FrontKind) =>
  (target: string, headerLines: string[], method = "GET", version = "HTTP/1.1") =>
    rawRequest(
      servers.get(front)!.port!,
      `${method} ${target} ${version}\r\n${[...headerLines, "Connection: close"].join("\r\n")}\r\n\r\n`,
    );

const isProblem = (
  r: { status: number; headers: Record<string, string>; body: string },
  status: number,
  type: string,
) =>
  expectProblemAnswer(
    { status: r.status, header: (n) => r.headers[n] ?? null, json: JSON.parse(r.body) },
    status,
    type,
  );

for (const front of FRONTS) {
  const get = requestTo(front);
  const port = () => servers.get(front)!.port!;
  describe(`Host handling (fault 1, 2), front ${front}`, () => {
    test("missing or malformed Host never gives 500: the path is routed as sent", async () => {
      const cases: [string, string[], string][] = [
        ["GET /v1/topics HTTP/1.0", [], "HTTP/1.0 without Host"],
        ["", ["Host: a/b"], "a/b"],
        ["", ["Host: x@y"], "x@y"],
        ["", ["Host: 127.0.0.1:99999"], "bad port"],
        ["", ["Host: [::1"], "broken IPv6"],
        ["", ["Host: "], "empty"],
        ["", ["Host: a b"], "space"],
      ];
      for (const [line, headers, label] of cases) {
        const r = line ? await rawRequest(port(), `${line}\r\n\r\n`) : await get("/v1/topics", headers);
        expect([label, r.status]).toEqual([label, 200]);
        expect(JSON.parse(r.body).data.topics.length).toBeGreaterThan(10);
        expect(r.headers["x-request-id"]).toBeTruthy();
      }
    });
    test("a short Host (nginx proxy_pass http://api) routes every endpoint", async () => {
      for (const host of ["api", "ab", "a", "x:1"]) {
        expect((await get("/v1/topics", [`Host: ${host}`])).status).toBe(200);
        expect((await get("/v1/guides/zoning", [`Host: ${host}`])).status).toBe(200);
      }
    });
    test("a short Host cannot shift the path: /v1/v1/... is not found, and the list limits still apply", async () => {
      isProblem(await get("/v1/v1/topics", ["Host: ab"]), 404, "not-found");
      isProblem(await get("/v1/v1/places/state:27", ["Host: ab"]), 404, "not-found");
      // an anonymous caller on a list path with Host: ab draws from the list buckets (their policy is advertised)
      const anon = await startFront(front, yamlApp().app, "127.0.0.1", 0);
      try {
        const r = await rawRequest(
          anon.port!,
          "GET /v1/places/state:27 HTTP/1.1\r\nHost: ab\r\nConnection: close\r\n\r\n",
        );
        expect(r.headers["ratelimit-policy"]).toBe('"minute";q=5;w=60, "day";q=30;w=86400');
      } finally {
        anon.stop(true);
      }
    });
    test("an absolute-form target is routed by its path", async () => {
      expect((await get("http://elsewhere.example/v1/topics", ["Host: a"])).status).toBe(200);
    });
  });

  describe(`methods (fault 3), front ${front}`, () => {
    test("every method the runtime passes on, other than GET/HEAD/OPTIONS, gets 405 with Allow", async () => {
      for (const m of ["POST", "PUT", "DELETE", "PATCH", "TRACE", "PROPFIND", "PURGE", "QUERY", "SEARCH"]) {
        const r = await get("/v1/topics", ["Host: a", "Content-Length: 0"], m);
        isProblem(r, 405, "method-not-allowed");
        expect(r.headers.allow).toBe("GET, HEAD, OPTIONS");
      }
    });
    test("405 on unknown paths too (the method is checked first)", async () => {
      const r = await get("/nowhere", ["Host: a", "Content-Length: 0"], "DELETE");
      isProblem(r, 405, "method-not-allowed");
    });
  });
}

describe("requests Bun's parser rejects, front bun (fault 4; README: parser-rejected requests)", () => {
  const get = requestTo("bun");
  test("unknown method tokens (FOO, lowercase get) are closed by Bun's parser with no reply: never a 2xx or 5xx", async () => {
    for (const m of ["FOO", "get"]) {
      const r = await get("/v1/topics", ["Host: a"], m);
      expect(r.status === 0 || (r.status >= 400 && r.status < 500)).toBe(true);
    }
  });
  test("obs-fold, a bad request target and an oversized head get a 4xx", async () => {
    expect((await get("/v1/topics", ["Host: a", "X: a", "  folded"])).status).toBe(400);
    expect((await get("*", ["Host: a"])).status).toBe(400);
    expect((await get("/v1/topics", ["Host: a", `X: ${"a".repeat(20000)}`])).status).toBe(431);
  });
  test("a bad request line gets Bun's own 505 (documented; our code never sees it)", async () => {
    for (const line of ["GET /v1/topics HTTP/1.x", "GET /v1/topics", "GET /v1/to pics HTTP/1.1"]) {
      const r = await rawRequest(servers.get("bun")!.port!, `${line}\r\nHost: a\r\nConnection: close\r\n\r\n`);
      expect([line, r.status]).toEqual([line, 505]);
    }
  });
});

describe("requests the parser rejects, front node: problem documents from the app (faults 3, 4)", () => {
  const get = requestTo("node");
  test("unknown method tokens (FOO, lowercase get) → 405 method-not-allowed with Allow", async () => {
    for (const m of ["FOO", "get", "PROPPATCHX"]) {
      const r = await get("/v1/topics", ["Host: a"], m);
      isProblem(r, 405, "method-not-allowed");
      expect(r.headers.allow).toBe("GET, HEAD, OPTIONS");
      expect(r.headers["access-control-allow-origin"]).toBe("*");
      expect(r.headers["cache-control"]).toBe("no-store");
    }
  });
  test("a bad request line, obs-fold, a control character or a bad target → 400 about:blank", async () => {
    const port = servers.get("node")!.port!;
    for (const line of [
      "GET /v1/topics HTTP/1.x",
      "GET /v1/topics HTTP/9.1",
      "GET /v1/topics",
      "GET /v1/to pics HTTP/1.1",
      "GET /v1/\u0001 HTTP/1.1",
      "GET * HTTP/1.1",
      "G\u00c9T /v1/topics HTTP/1.1",
    ]) {
      const r = await rawRequest(port, `${line}\r\nHost: a\r\nConnection: close\r\n\r\n`);
      expect([line, r.status]).toEqual([line, 400]);
      isProblem(r, 400, "about:blank");
      expect(JSON.parse(r.body).title).toBe("Bad Request");
    }
    isProblem(await get("/v1/topics", ["Host: a", "X: a", "  folded"]), 400, "about:blank");
  });
  test("a head over 16 KB → 431 about:blank; just under it is answered", async () => {
    const r = await get("/v1/topics", ["Host: a", `X: ${"a".repeat(20000)}`]);
    isProblem(r, 431, "about:blank");
    expect(JSON.parse(r.body).title).toBe("Request Header Fields Too Large");
    expect((await get("/v1/topics", ["Host: a", `X: ${"a".repeat(15000)}`])).status).toBe(200);
  });
  test("unparsedReason: parse errors get an answer by kind; a failed connection (reset) gets none", () => {
    expect(unparsedReason("ECONNRESET")).toBeNull();
    expect(unparsedReason(undefined)).toBeNull();
    expect(unparsedReason("HPE_INVALID_METHOD")).toBe("method");
    expect(unparsedReason("HPE_CR_EXPECTED")).toBe("malformed");
  });
  test("the connection is closed after such an answer, and the server goes on answering", async () => {
    const r = await get("/v1/topics", ["Host: a"], "FOO");
    expect(r.headers.connection).toBe("close");
    expect((await get("/v1/topics", ["Host: a"])).status).toBe(200);
  });
});

describe("the two fronts answer alike", () => {
  const norm = (r: { status: number; headers: Record<string, string>; body: string }) => {
    const h = { ...r.headers };
    for (const k of ["date", "x-request-id", "connection", "keep-alive", "transfer-encoding"]) delete h[k];
    if (h.ratelimit) h.ratelimit = h.ratelimit.replace(/r=\d+/g, "r=N"); // the two servers have counted different requests
    return { status: r.status, headers: h, body: r.body.replace(/"request_id":"[^"]*"/, '"request_id":""') };
  };
  test("same status, headers and body for answers, errors, HEAD, OPTIONS and 304", async () => {
    const bun = requestTo("bun"),
      node = requestTo("node");
    const etag = (await bun("/v1/topics", ["Host: a"])).headers.etag!;
    const cases: [string, string[], string][] = [
      ["/v1/topics", ["Host: a"], "GET"],
      ["/v1/guides/zoning?state=MN", ["Host: a"], "GET"],
      ["/v1/nope", ["Host: a"], "GET"],
      ["/v1/search?q=", ["Host: a"], "GET"],
      ["/v1/topics", ["Host: a"], "HEAD"],
      ["/v1/topics", ["Host: a", "Origin: http://x", "Access-Control-Request-Method: GET"], "OPTIONS"],
      ["/v1/topics", ["Host: a", `If-None-Match: ${etag}`], "GET"],
      ["/v1/topics", ["Host: a", "Authorization: Basic nope"], "GET"],
      ["/v1/topics", ["Host: a", "X-Request-Id: fixed-id-12345"], "GET"],
    ];
    for (const [target, headers, method] of cases) {
      const a = norm(await bun(target, headers, method)),
        b = norm(await node(target, headers, method));
      expect([method, target, b]).toEqual([method, target, a]);
    }
  });
});

describe("empty query values are malformed (fault 9)", () => {
  const { app } = yamlApp();
  test("/search?q=00&state= → 400 unknown-state; q= → 400 bad-parameter", async () => {
    const r = await call(app, "/v1/search?q=00&state=");
    expect(r.status).toBe(400);
    expect(r.json.type).toBe(`${PROBLEMS}/unknown-state`);
    expect((await call(app, "/v1/search?q=")).json.type).toBe(`${PROBLEMS}/bad-parameter`);
  });
  test("/guides/{topic}?state= → 400 unknown-state", async () => {
    const r = await call(app, "/v1/guides/zoning?state=");
    expect(r.status).toBe(400);
    expect(r.json.type).toBe(`${PROBLEMS}/unknown-state`);
  });
  test("a bad Authorization on /openapi.json is ignored; elsewhere it is 401", async () => {
    const r = await call(app, "/v1/openapi.json", { headers: { Authorization: "Basic nope" } });
    expect(r.status).toBe(200);
    expect(r.json.openapi).toMatch(/^3\.1/);
    expect((await call(app, "/v1/topics", { headers: { Authorization: "Basic nope" } })).status).toBe(401);
  });
});

describe("whole-request timeout (fault 6)", () => {
  test("a request past timeouts.request_ms → 503 busy with Retry-After, never a hang", async () => {
    const slow: RouteDef = {
      path: "/slow",
      operationId: "slow",
      summary: "slow",
      data: null,
      errors: [503],
      handler: () => new Promise(() => {}),
    };
    const { deps } = yamlApp({
      timeouts: { geocoder_ms: 5000, screening_ms: 8000, request_ms: 150, shutdown_grace_ms: 1000 },
    } as any);
    const app = createApp(deps, [...ROUTES, slow]);
    const t0 = performance.now();
    const r = await call(app, "/v1/slow");
    expect(performance.now() - t0).toBeLessThan(2000);
    expect(r.status).toBe(503);
    expect(r.json.type).toBe(`${PROBLEMS}/busy`);
    expect(Number(r.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(r.headers.get("cache-control")).toBe("no-store");
  });
});

describe("non-/v1 paths (the web hook)", () => {
  test("without a web handler: 404 not-found problem; with one: every non-/v1 request is its, /v1 never is", async () => {
    expect((await call(yamlApp().app, "/places/state:27")).json.type).toBe(`${PROBLEMS}/not-found`);
    const seen: string[] = [];
    const { app } = yamlApp({}, (d) => {
      d.web = (req) => {
        seen.push(`${req.method} ${new URL(req.url).pathname}`);
        return new Response("<p>hi</p>", { headers: { "Content-Type": "text/html" } });
      };
    });
    const r = await call(app, "/hello");
    expect(r.status).toBe(200);
    expect(r.text).toBe("<p>hi</p>");
    expect((await call(app, "/v1/topics")).status).toBe(200);
    expect((await call(app, "/v1/nope")).json.type).toBe(`${PROBLEMS}/not-found`);
    expect(seen).toEqual(["GET /hello"]);
  });
});
