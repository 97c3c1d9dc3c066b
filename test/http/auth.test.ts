import { describe, expect, test } from "bun:test";
import { call, yamlApp, PROBLEMS } from "../helpers/app";

describe("authentication", () => {
  test("anonymous use is allowed", async () => {
    const { app } = yamlApp();
    expect((await call(app, "/v1/topics")).status).toBe(200);
  });
  test("malformed Authorization header → 401 invalid-key", async () => {
    const { app } = yamlApp();
    for (const h of [
      "Basic dXNlcjpwYXNz",
      "Bearer",
      "Bearer short",
      "Bearer pld_tooshort",
      "bearer  x y",
      "Token pld_" + "a".repeat(32),
    ]) {
      const r = await call(app, "/v1/topics", { headers: { Authorization: h } });
      expect(r.status).toBe(401);
      expect(r.json.type).toBe(`${PROBLEMS}/invalid-key`);
      expect(r.headers.get("cache-control")).toBe("no-store");
      expect(r.headers.get("x-request-id")).toBeTruthy();
    }
  });
  test("unknown key → 401 invalid-key", async () => {
    const { app } = yamlApp();
    const r = await call(app, "/v1/topics", { headers: { Authorization: "Bearer pld_" + "A".repeat(32) } });
    expect(r.status).toBe(401);
    expect(r.json.type).toBe(`${PROBLEMS}/invalid-key`);
  });
  test("a created key works; once revoked → 401 invalid-key", async () => {
    const { app, deps } = yamlApp();
    const { key, key_id } = deps.keys.create("standard", "test");
    expect((await call(app, "/v1/topics", { headers: { Authorization: `Bearer ${key}` } })).status).toBe(200);
    expect(deps.keys.revoke(key_id)).toBe(true);
    const r = await call(app, "/v1/topics", { headers: { Authorization: `Bearer ${key}` } });
    expect(r.status).toBe(401);
    expect(r.json.type).toBe(`${PROBLEMS}/invalid-key`);
  });
  test("keys are stored hashed: the state file never holds the key", () => {
    const { deps } = yamlApp();
    const { key } = deps.keys.create("partner", "hash check");
    const dump = JSON.stringify((deps.keys as any).db.query("SELECT * FROM api_keys").all());
    expect(dump).not.toContain(key);
    expect(dump).not.toContain(key.slice(4));
    expect(deps.keys.list()[0]).toMatchObject({ tier: "partner", label: "hash check", revoked_at: null });
  });
  test("a key changes limits only, never what a result holds or its order", async () => {
    const { app, deps } = yamlApp();
    const { key } = deps.keys.create("partner", "same results");
    for (const p of ["/v1/topics", "/v1/guides/assessor", "/v1/guides/recorder_deeds"]) {
      const anon = await call(app, p, { headers: { "X-Request-Id": "same-request-id" } });
      const keyed = await call(app, p, {
        headers: { "X-Request-Id": "same-request-id", Authorization: `Bearer ${key}` },
      });
      expect(keyed.text).toBe(anon.text);
      expect(keyed.headers.get("etag")).toBe(anon.headers.get("etag"));
      expect(keyed.headers.get("ratelimit-policy")).toBe('"minute";q=600;w=60, "day";q=200000;w=86400');
      expect(anon.headers.get("ratelimit-policy")).toBe('"minute";q=10;w=60, "day";q=300;w=86400');
    }
  });
});
