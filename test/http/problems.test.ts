import { describe, expect, test } from "bun:test";
import { Value } from "@sinclair/typebox/value";
import { PROBLEMS as TABLE, problemBody } from "../../src/http/problems";
import { Problem } from "../../src/http/schemas/common";
import { call, yamlApp, PROBLEMS } from "../helpers/app";

describe("problem documents (RFC 9457)", () => {
  test("the one table holds the 18 types of part 7 with their statuses", () => {
    expect(Object.keys(TABLE).length).toBe(18);
    expect(Object.fromEntries(Object.entries(TABLE).map(([k, v]) => [k, v.status]))).toEqual({
      "bad-parameter": 400,
      "bad-point": 400,
      "bad-cursor": 400,
      "unknown-topic": 404,
      "unknown-state": 400,
      "invalid-key": 401,
      "unknown-jurisdiction": 404,
      "outside-coverage": 404,
      "address-not-found": 404,
      "place-not-found": 404,
      "not-found": 404,
      "method-not-allowed": 405,
      ambiguous: 409,
      "rate-limited": 429,
      "lookup-limit": 429,
      "internal-error": 500,
      busy: 503,
      "upstream-unavailable": 503,
    });
  });
  test("choices only on ambiguous", () => {
    const c = [{ label: "Springfield, IL", jurisdiction_id: "place:1772000" }];
    expect(problemBody(PROBLEMS, "ambiguous", "d", "rid12345", c).choices).toEqual(c);
    expect(problemBody(PROBLEMS, "place-not-found", "d", "rid12345", c).choices).toBeUndefined();
  });
  test("error bodies have type under problems_url, title, status, detail, request_id and the problem media type", async () => {
    const { app } = yamlApp();
    const r = await call(app, "/v1/guides/not_a_topic");
    expect(r.headers.get("content-type")).toBe("application/problem+json");
    expect(Value.Check(Problem, r.json)).toBe(true);
    expect(r.json).toMatchObject({ type: `${PROBLEMS}/unknown-topic`, title: "Unknown topic", status: 404 });
    expect(r.json.detail.length).toBeGreaterThan(5);
    expect(r.json.choices).toBeUndefined();
  });
  test("an exception inside a handler becomes 500 internal-error, and the process goes on", async () => {
    const { app, deps } = yamlApp();
    const saved = deps.content.topics;
    (deps.content as any).topics = null; // breaks topicList
    const r = await call(app, "/v1/topics");
    expect(r.status).toBe(500);
    expect(r.json.type).toBe(`${PROBLEMS}/internal-error`);
    expect(r.headers.get("cache-control")).toBe("no-store");
    (deps.content as any).topics = saved;
    expect((await call(app, "/v1/topics")).status).toBe(200);
  });
});
