import { describe, expect, test } from "bun:test";
import { Value } from "@sinclair/typebox/value";
import { call, yamlApp } from "../helpers/app";
import { Envelope } from "../../src/http/schemas/common";
import { TopicList } from "../../src/http/schemas/guides";

describe("envelope on every 200", () => {
  test("data, sources with license_class, as_of, request_id, notices", async () => {
    const { app } = yamlApp();
    const r = await call(app, "/v1/topics");
    expect(r.status).toBe(200);
    expect(Object.keys(r.json)).toEqual(["data", "sources", "as_of", "request_id", "notices"]);
    expect(Value.Check(Envelope(TopicList), r.json)).toBe(true);
    expect(r.json.sources.length).toBeGreaterThan(0);
    for (const s of r.json.sources)
      expect(["open", "public_record", "restricted_no_redistribution", "licensed_third_party", "unknown"]).toContain(
        s.license_class,
      );
    expect(Array.isArray(r.json.notices)).toBe(true);
    expect(Number.isNaN(Date.parse(r.json.as_of))).toBe(false);
    expect(r.json.request_id).toBe(r.headers.get("x-request-id"));
  });
});

describe("X-Request-Id", () => {
  test("a well-formed id is echoed in header and body", async () => {
    const { app } = yamlApp();
    const r = await call(app, "/v1/topics", { headers: { "X-Request-Id": "abc.DEF_123-xyz" } });
    expect(r.headers.get("x-request-id")).toBe("abc.DEF_123-xyz");
    expect(r.json.request_id).toBe("abc.DEF_123-xyz");
  });
  test("a malformed id (too short, bad characters, too long) is replaced by a generated one", async () => {
    const { app } = yamlApp();
    for (const bad of ["short", "has space in it", "x".repeat(65), "ünïcode-id-123"]) {
      const r = await call(app, "/v1/topics", { headers: { "X-Request-Id": bad } });
      const id = r.headers.get("x-request-id")!;
      expect(id).not.toBe(bad);
      expect(id).toMatch(/^[A-Za-z0-9._-]{8,64}$/);
      expect(r.json.request_id).toBe(id);
    }
  });
  test("errors carry the id too, in header and body", async () => {
    const { app } = yamlApp();
    const r = await call(app, "/v1/nowhere", { headers: { "X-Request-Id": "req-12345678" } });
    expect(r.status).toBe(404);
    expect(r.headers.get("x-request-id")).toBe("req-12345678");
    expect(r.json.request_id).toBe("req-12345678");
  });
});
