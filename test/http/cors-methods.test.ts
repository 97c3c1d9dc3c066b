import { describe, expect, test } from "bun:test";
import { call, yamlApp, PROBLEMS } from "../helpers/app";

describe("CORS", () => {
  test("Access-Control-Allow-Origin * on 200, 304, errors and preflight; never credentials", async () => {
    const { app } = yamlApp();
    const ok = await call(app, "/v1/topics");
    const nm = await call(app, "/v1/topics", { headers: { "If-None-Match": ok.headers.get("etag")! } });
    const err = await call(app, "/v1/nope");
    const pre = await call(app, "/v1/topics", {
      method: "OPTIONS",
      headers: { Origin: "https://example.org", "Access-Control-Request-Method": "GET" },
    });
    for (const r of [ok, nm, err, pre]) {
      expect(r.headers.get("access-control-allow-origin")).toBe("*");
      expect(r.headers.get("access-control-allow-credentials")).toBeNull();
    }
  });
  test("preflight allows GET, HEAD, OPTIONS and the headers X-Request-Id and If-None-Match", async () => {
    const { app } = yamlApp();
    const r = await call(app, "/v1/topics", {
      method: "OPTIONS",
      headers: {
        Origin: "https://example.org",
        "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "x-request-id, if-none-match",
      },
    });
    expect(r.status).toBe(204);
    expect(r.headers.get("access-control-allow-methods")).toBe("GET, HEAD, OPTIONS");
    const allowed = r.headers.get("access-control-allow-headers")!.toLowerCase();
    expect(allowed).toContain("x-request-id");
    expect(allowed).toContain("if-none-match");
    expect(allowed).not.toContain("authorization");
  });
  test("a preflight that asks for Authorization is refused", async () => {
    const { app } = yamlApp();
    const r = await call(app, "/v1/topics", {
      method: "OPTIONS",
      headers: {
        Origin: "https://example.org",
        "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "X-Request-Id, Authorization",
      },
    });
    expect(r.status).toBe(400);
    expect(r.json.type).toBe(`${PROBLEMS}/bad-parameter`);
    expect(r.headers.get("access-control-allow-headers")).toBeNull();
  });
});

describe("methods", () => {
  test("HEAD has the same status and headers as GET, and no body", async () => {
    const { app } = yamlApp();
    const headers = { "X-Request-Id": "same-id-for-both" };
    const g = await call(app, "/v1/guides/zoning", { headers });
    const h = await call(app, "/v1/guides/zoning", { method: "HEAD", headers });
    expect(h.status).toBe(200);
    expect(h.text).toBe("");
    for (const k of [
      "etag",
      "cache-control",
      "link",
      "content-type",
      "access-control-allow-origin",
      "ratelimit-policy",
    ])
      expect(h.headers.get(k)).toBe(g.headers.get(k));
    expect(Number(h.headers.get("content-length"))).toBe(new TextEncoder().encode(g.text).length);
  });
  test("HEAD of an error keeps the status and has no body", async () => {
    const { app } = yamlApp();
    const h = await call(app, "/v1/guides/nope", { method: "HEAD" });
    expect(h.status).toBe(404);
    expect(h.text).toBe("");
  });
  test("any other method → 405 method-not-allowed with Allow", async () => {
    const { app } = yamlApp();
    for (const m of ["POST", "PUT", "DELETE", "PATCH"]) {
      const r = await call(app, "/v1/topics", { method: m });
      expect(r.status).toBe(405);
      expect(r.json.type).toBe(`${PROBLEMS}/method-not-allowed`);
      expect(r.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    }
  });
  test("unknown path → 404 not-found", async () => {
    const { app } = yamlApp();
    for (const p of ["/v1/nothing", "/", "/v2/topics", "/v1/topics/extra/deep"]) {
      const r = await call(app, p);
      expect(r.status).toBe(404);
      expect(r.json.type).toBe(`${PROBLEMS}/not-found`);
    }
  });
});
