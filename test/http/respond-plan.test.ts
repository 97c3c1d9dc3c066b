// respond(): frozen members are serialised once into a plan kept under the first of them; a later reply uses the
// plan only when it fits, so the body and the ETag always follow the content.
import { describe, expect, test } from "bun:test";
import { respond, type Reply } from "../../src/http/respond";
import { Context } from "../../src/http/context";

let n = 0;
const ctx = (ifNoneMatch: string | null = null) =>
  new Context(
    `req-${String(++n).padStart(8, "0")}`,
    "/v1/x",
    "",
    false,
    "http://h/v1",
    "http://h",
    "http://h/problems",
    ifNoneMatch,
    { "X-Request-Id": "r" },
  );

async function send(reply: Reply, inm: string | null = null) {
  const r = respond(ctx(inm), reply);
  const text = await r.text();
  return { status: r.status, etag: r.headers.get("etag")!, text, json: text ? JSON.parse(text) : null };
}

const chain = [{ id: "state:27" }, { id: "county:27053" }];
const functions = { assessment: { office: "Assessor" } };
const sources = [
  {
    name: "TIGER",
    url: "https://www.census.gov/",
    publisher: "U.S. Census Bureau",
    official: true,
    retrieved_at: null,
    license_class: "open",
  },
];
const match = { by: "point" };
const reply = (point: unknown, over: Partial<Reply> = {}): Reply => ({
  data: { match, point, jurisdictions: chain, functions },
  sources,
  asOf: "2026-11-22",
  notices: [],
  cache: "default",
  frozen: [chain, match, functions, sources],
  ...over,
});

describe("respond: plans of frozen members", () => {
  test("the same frozen members with another variable member: the body and the ETag follow the variable", async () => {
    const a = await send(reply({ type: "Point", coordinates: [-93.1, 45.1] }));
    const b = await send(reply({ type: "Point", coordinates: [-93.2, 45.2] }));
    const a2 = await send(reply({ type: "Point", coordinates: [-93.1, 45.1] }));
    expect(a.json.data.point.coordinates).toEqual([-93.1, 45.1]);
    expect(b.json.data.point.coordinates).toEqual([-93.2, 45.2]);
    expect(a.json.data.jurisdictions).toEqual(chain);
    expect(Object.keys(a.json)).toEqual(["data", "sources", "as_of", "request_id", "notices"]);
    expect(a.etag).toMatch(/^W\/"[0-9a-f]{32}"$/);
    expect(b.etag).not.toBe(a.etag);
    expect(a2.etag).toBe(a.etag);
    expect(a2.json.request_id).not.toBe(a.json.request_id);
    expect((await send(reply({ type: "Point", coordinates: [-93.1, 45.1] }), a.etag)).status).toBe(304);
  });

  test("a frozen member replaced under the same first member: no stale body, a new ETag", async () => {
    const p = { type: "Point", coordinates: [1, 2] };
    const a = await send(reply(p));
    const other = { assessment: { office: "County Assessor" } };
    const b = await send(
      reply(p, {
        data: { match, point: p, jurisdictions: chain, functions: other },
        frozen: [chain, match, other, sources],
      }),
    );
    expect(b.json.data.functions).toEqual(other);
    expect(b.etag).not.toBe(a.etag);
  });

  test("a member frozen before but not declared frozen now is serialised again (it may have changed)", async () => {
    const fns: Record<string, unknown> = { assessment: { office: "A" } };
    const p = { type: "Point", coordinates: [3, 4] };
    const a = await send(
      reply(p, {
        data: { match, point: p, jurisdictions: chain, functions: fns },
        frozen: [chain, match, fns, sources],
      }),
    );
    fns.assessment = { office: "B" };
    const b = await send(
      reply(p, { data: { match, point: p, jurisdictions: chain, functions: fns }, frozen: [chain, match, sources] }),
    );
    expect(a.json.data.functions.assessment.office).toBe("A");
    expect(b.json.data.functions.assessment.office).toBe("B");
    expect(b.etag).not.toBe(a.etag);
  });

  test("notices and as_of are part of the content: another value, another ETag", async () => {
    const p = { type: "Point", coordinates: [5, 6] };
    const a = await send(reply(p));
    const b = await send(reply(p, { notices: ["1 record of undocumented origin left out"] }));
    const c = await send(reply(p, { asOf: "2026-11-23" }));
    expect(b.json.notices).toEqual(["1 record of undocumented origin left out"]);
    expect(c.json.as_of).toBe("2026-11-23");
    expect(new Set([a.etag, b.etag, c.etag]).size).toBe(3);
  });

  test("without frozen members the ETag is the digest of the whole content", async () => {
    const r = (v: number): Reply => ({ data: { v }, sources: [], asOf: "2026-11-22", cache: "default" });
    const a = await send(r(1)),
      a2 = await send(r(1)),
      b = await send(r(2));
    expect(a.etag).toBe(a2.etag);
    expect(b.etag).not.toBe(a.etag);
    expect(a.json).toMatchObject({ data: { v: 1 }, sources: [], notices: [] });
  });

  test("data frozen as a whole (data and sources listed) is served the same way twice, with one ETag", async () => {
    const data = { topics: ["assessor", "zoning"] };
    const r: Reply = { data, sources, asOf: "2026-11-22", cache: "topics", frozen: [data, sources] };
    const a = await send(r),
      b = await send({ ...r });
    expect(a.json.data).toEqual(data);
    expect(b.etag).toBe(a.etag);
  });
});
