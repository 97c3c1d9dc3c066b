import { describe, expect, test } from "bun:test";
import { Type } from "@sinclair/typebox";
import { Cursors } from "../../src/http/paging";
import { PAGE_CAPS, pageSize } from "../../src/domain/page-caps";
import { parseParams } from "../../src/http/params";
import { DomainError } from "../../src/domain/errors";
import { deprecationHeaders } from "../../src/http/deprecations";
import { call, yamlApp } from "../helpers/app";

const suffixOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return e instanceof DomainError ? e.suffix : String(e);
  }
  return null;
};

describe("cursors", () => {
  const c = new Cursors("secret");
  test("round trip, at most 200 characters", () => {
    const cur = c.issue("/resources", { jurisdiction_id: "county:27053", topic: "assessor" }, 150);
    expect(cur.length).toBeLessThanOrEqual(200);
    expect(c.read("/resources", { jurisdiction_id: "county:27053", topic: "assessor" }, cur)).toBe(150);
  });
  test("bound to the endpoint and the other parameters; tampered or foreign → bad-cursor", () => {
    const bound = { jurisdiction_id: "county:27053" };
    const cur = c.issue("/resources", bound, 50);
    expect(suffixOf(() => c.read("/places/county:27053", bound, cur))).toBe("bad-cursor");
    expect(suffixOf(() => c.read("/resources", { jurisdiction_id: "county:27123" }, cur))).toBe("bad-cursor");
    expect(suffixOf(() => c.read("/resources", bound, "2a" + cur.slice(2)))).toBe("bad-cursor");
    expect(suffixOf(() => c.read("/resources", bound, "x".repeat(201)))).toBe("bad-cursor");
    expect(suffixOf(() => c.read("/resources", bound, "garbage"))).toBe("bad-cursor");
    expect(suffixOf(() => new Cursors("other").read("/resources", bound, cur))).toBe("bad-cursor");
  });
  test("page size: 1–100, default 50, at most 50 without a key", () => {
    expect(pageSize(PAGE_CAPS.list, undefined, false)).toBe(50);
    expect(pageSize(PAGE_CAPS.list, 100, false)).toBe(50);
    expect(pageSize(PAGE_CAPS.list, 100, true)).toBe(100);
    expect(pageSize(PAGE_CAPS.list, 7, false)).toBe(7);
  });
});

describe("parameter validation", () => {
  const specs = {
    lat: { schema: Type.Number({ minimum: -90, maximum: 90 }), as: "number" as const, problem: "bad-point" as const },
    limit: {
      schema: Type.Integer({ minimum: 1, maximum: 100 }),
      as: "integer" as const,
      problem: "bad-parameter" as const,
    },
    q: {
      schema: Type.String({ minLength: 2, maxLength: 200 }),
      as: "string" as const,
      problem: "bad-parameter" as const,
      required: true,
    },
  };
  test("malformed, missing and out-of-range values give the named type", () => {
    expect(suffixOf(() => parseParams({ q: "ab", lat: "north" }, specs))).toBe("bad-point");
    expect(suffixOf(() => parseParams({ q: "ab", lat: "91" }, specs))).toBe("bad-point");
    expect(suffixOf(() => parseParams({ q: "ab", limit: "0" }, specs))).toBe("bad-parameter");
    expect(suffixOf(() => parseParams({ q: "ab", limit: "2.5" }, specs))).toBe("bad-parameter");
    expect(suffixOf(() => parseParams({ lat: "1" }, specs))).toBe("bad-parameter");
    expect(suffixOf(() => parseParams({ q: "a" }, specs))).toBe("bad-parameter");
  });
  test("good values are converted; unknown parameters ignored", () => {
    expect(parseParams({ q: "ab", lat: "44.97", limit: "10", other: "x" }, specs)).toEqual({
      q: "ab",
      lat: 44.97,
      limit: 10,
    });
  });
  test("over HTTP, unknown query parameters are ignored", async () => {
    const { app } = yamlApp();
    const a = await call(app, "/v1/guides/assessor?foo=bar&zzz=1");
    expect(a.status).toBe(200);
  });
});

describe("versioning: deprecations table", () => {
  test("empty now: no Deprecation or Sunset headers", async () => {
    const { app } = yamlApp();
    const r = await call(app, "/v1/topics");
    expect(r.headers.get("deprecation")).toBeNull();
    expect(r.headers.get("sunset")).toBeNull();
  });
  test("a fixture entry emits Deprecation and Sunset on its path only", async () => {
    const fixture = [
      { pathPrefix: "/guides/", deprecatedAt: "2026-01-01T00:00:00Z", sunsetAt: "2027-02-01T00:00:00Z" },
    ];
    expect(deprecationHeaders("/guides/soils", fixture)).toEqual({
      Deprecation: "@1767225600",
      Sunset: "Mon, 01 Feb 2027 00:00:00 GMT",
    });
    const { app } = yamlApp({}, (d) => {
      d.deprecations = fixture;
    });
    const g = await call(app, "/v1/guides/soils");
    expect(g.headers.get("deprecation")).toBe("@1767225600");
    expect(g.headers.get("sunset")).toBe("Mon, 01 Feb 2027 00:00:00 GMT");
    const t = await call(app, "/v1/topics");
    expect(t.headers.get("deprecation")).toBeNull();
  });
});
