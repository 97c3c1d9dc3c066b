import { describe, expect, test } from "bun:test";
import { call, yamlApp } from "../helpers/app";
import { CACHE_SECONDS } from "../../src/http/cache-control";

describe("weak ETag and 304", () => {
  test("ETag is weak with 32 hex and stable across requests (request_id is not part of it)", async () => {
    const { app } = yamlApp();
    const a = await call(app, "/v1/topics");
    const b = await call(app, "/v1/topics");
    expect(a.headers.get("etag")).toMatch(/^W\/"[0-9a-f]{32}"$/);
    expect(a.headers.get("etag")).toBe(b.headers.get("etag"));
    expect(a.json.request_id).not.toBe(b.json.request_id);
  });
  test("different bodies have different ETags", async () => {
    const { app } = yamlApp();
    const a = await call(app, "/v1/guides/assessor");
    const b = await call(app, "/v1/guides/zoning");
    expect(a.headers.get("etag")).not.toBe(b.headers.get("etag"));
  });
  test("If-None-Match that matches → 304 with ETag and no body", async () => {
    const { app } = yamlApp();
    const a = await call(app, "/v1/guides/assessor");
    const etag = a.headers.get("etag")!;
    for (const inm of [etag, `"other", ${etag}`, etag.slice(2), "*"]) {
      const r = await call(app, "/v1/guides/assessor", { headers: { "If-None-Match": inm } });
      expect(r.status).toBe(304);
      expect(r.text).toBe("");
      expect(r.headers.get("etag")).toBe(etag);
      expect(r.headers.get("x-request-id")).toBeTruthy();
      expect(r.headers.get("cache-control")).toBe("public, max-age=86400");
    }
  });
  test("If-None-Match that does not match → 200", async () => {
    const { app } = yamlApp();
    const r = await call(app, "/v1/topics", { headers: { "If-None-Match": 'W/"00000000000000000000000000000000"' } });
    expect(r.status).toBe(200);
  });
});

describe("Cache-Control from one table", () => {
  test("topics and guides a day; openapi.json 15 minutes; the table holds the spec's numbers", async () => {
    expect(CACHE_SECONDS).toEqual({
      topics: 86400,
      guides: 86400,
      screening: 3600,
      default: 900,
      pages: 900,
      assets: 86400,
    });
    const { app } = yamlApp();
    expect((await call(app, "/v1/topics")).headers.get("cache-control")).toBe("public, max-age=86400");
    expect((await call(app, "/v1/guides/soils")).headers.get("cache-control")).toBe("public, max-age=86400");
    expect((await call(app, "/v1/openapi.json")).headers.get("cache-control")).toBe("public, max-age=900");
  });
  test("every error is no-store", async () => {
    const { app } = yamlApp();
    for (const [path, method] of [
      ["/v1/nope", "GET"],
      ["/v1/guides/nope", "GET"],
      ["/v1/topics", "DELETE"],
      ["/v1/guides/soils?state=ZZ", "GET"],
    ] as const) {
      const r = await call(app, path, { method });
      expect(r.status).toBeGreaterThanOrEqual(400);
      expect(r.headers.get("cache-control")).toBe("no-store");
      expect(r.headers.get("content-type")).toBe("application/problem+json");
    }
  });
});
