// The four directory endpoints over HTTP on the real data file: every error type by status and problem type,
// paging with signed cursors and Link rel="next", and keys that change page caps only.
import { expectProblem } from "../helpers/problem";
import { beforeAll, describe, expect, test } from "bun:test";
import { Value } from "@sinclair/typebox/value";
import { call, PROBLEMS, BASE, type FileDeps } from "../helpers/app";
import { fullApp } from "../helpers/directory-app";
import { Envelope } from "../../src/http/schemas/common";
import { PlacePage, ResolveResult, ResourcePage, SearchResult } from "../../src/http/schemas/directory";
import type { App } from "../../src/http/app";

let app: App, deps: FileDeps;
beforeAll(async () => {
  ({ app, deps } = await fullApp());
}, 600_000);

describe("GET /v1/jurisdictions/resolve", () => {
  test("by point: 200, schema-valid envelope, the Minneapolis chain", async () => {
    const r = await call(app, "/v1/jurisdictions/resolve?lat=44.9778&lon=-93.2650");
    expect(r.status).toBe(200);
    expect(Value.Check(Envelope(ResolveResult), r.json)).toBe(true);
    expect(r.json.data.jurisdictions.map((j: any) => j.jurisdiction_id)).toEqual([
      "state:27",
      "county:27053",
      "cousub:2705343000",
      "place:2743000",
    ]);
    expect(r.headers.get("cache-control")).toBe("public, max-age=900");
  });
  test("by place and by jurisdiction_id: 200 and schema-valid", async () => {
    for (const p of [
      "/v1/jurisdictions/resolve?place=Minneapolis&state=MN",
      "/v1/jurisdictions/resolve?jurisdiction_id=county:27053",
    ]) {
      const r = await call(app, p);
      expect(r.status).toBe(200);
      expect(Value.Check(Envelope(ResolveResult), r.json)).toBe(true);
    }
  });
  test("no selector or several → 400 bad-parameter", async () => {
    await expectProblem(app, "/v1/jurisdictions/resolve", 400, "bad-parameter");
    await expectProblem(app, "/v1/jurisdictions/resolve?lat=44.9&lon=-93.2&place=Minneapolis", 400, "bad-parameter");
    await expectProblem(
      app,
      "/v1/jurisdictions/resolve?jurisdiction_id=county:27053&address=350%20S%205th%20St",
      400,
      "bad-parameter",
    );
    await expectProblem(app, "/v1/jurisdictions/resolve?state=MN", 400, "bad-parameter");
  });
  test("malformed coordinates → 400 bad-point", async () => {
    for (const q of [
      "lat=abc&lon=-93",
      "lat=44.9&lon=",
      "lat=44.9",
      "lon=-93.2",
      "lat=91&lon=0",
      "lat=0&lon=181",
      "lat=1e999&lon=0",
      "lat=0x10&lon=1",
    ]) {
      await expectProblem(app, `/v1/jurisdictions/resolve?${q}`, 400, "bad-point");
    }
  });
  test("outside coverage → 404 outside-coverage", async () => {
    await expectProblem(app, "/v1/jurisdictions/resolve?lat=30&lon=-30", 404, "outside-coverage");
  });
  test("unknown or malformed jurisdiction_id → 404 unknown-jurisdiction / 400 bad-parameter", async () => {
    await expectProblem(app, "/v1/jurisdictions/resolve?jurisdiction_id=county:99999", 404, "unknown-jurisdiction");
    await expectProblem(app, "/v1/jurisdictions/resolve?jurisdiction_id=county:27", 400, "bad-parameter");
  });
  test("place: several → 409 ambiguous with choices; none → 404 place-not-found; bad state → 400 unknown-state", async () => {
    const r = await expectProblem(app, "/v1/jurisdictions/resolve?place=Springfield", 409, "ambiguous");
    expect(r.json.choices.length).toBeGreaterThan(5);
    for (const c of r.json.choices) {
      expect(c.jurisdiction_id).toBeTruthy();
      expect(c.label).toBeTruthy();
      expect(c.page_url).toMatch(/^http/);
    }
    await expectProblem(app, "/v1/jurisdictions/resolve?place=Qwxyzzy%20Falls&state=MN", 404, "place-not-found");
    await expectProblem(app, "/v1/jurisdictions/resolve?place=Springfield&state=ZZ", 400, "unknown-state");
    await expectProblem(app, "/v1/jurisdictions/resolve?place=Springfield&state=M1", 400, "unknown-state");
    await expectProblem(app, "/v1/jurisdictions/resolve?place=S", 400, "bad-parameter");
  });
  test("address length out of range → 400 bad-parameter", async () => {
    await expectProblem(app, "/v1/jurisdictions/resolve?address=ab", 400, "bad-parameter");
    await expectProblem(app, `/v1/jurisdictions/resolve?address=${"a".repeat(201)}`, 400, "bad-parameter");
  });
});

describe("GET /v1/resources", () => {
  test("by jurisdiction_id with a topic: schema-valid page, the place's own first", async () => {
    const r = await call(app, "/v1/resources?jurisdiction_id=place:2743000&topic=property_records_general");
    expect(r.status).toBe(200);
    expect(Value.Check(Envelope(ResourcePage), r.json)).toBe(true);
    expect(r.json.data.resources[0].jurisdiction_id).toBe("place:2743000");
    expect(r.json.data.topic).toBe("property_records_general");
  });
  test("errors: none of the selectors, both, point without topic, bad topic, bad limit, bad point", async () => {
    await expectProblem(app, "/v1/resources", 400, "bad-parameter");
    await expectProblem(
      app,
      "/v1/resources?jurisdiction_id=county:27053&lat=44&lon=-93&topic=zoning",
      400,
      "bad-parameter",
    );
    await expectProblem(app, "/v1/resources?lat=44.97&lon=-93.26", 400, "bad-parameter");
    await expectProblem(app, "/v1/resources?jurisdiction_id=county:27053&topic=gossip", 400, "unknown-topic");
    for (const l of ["0", "101", "abc", "2.5"])
      await expectProblem(app, `/v1/resources?jurisdiction_id=county:27053&limit=${l}`, 400, "bad-parameter");
    await expectProblem(app, "/v1/resources?lat=444&lon=-93&topic=zoning", 400, "bad-point");
    await expectProblem(app, "/v1/resources?jurisdiction_id=county:99999", 404, "unknown-jurisdiction");
    await expectProblem(app, "/v1/resources?lat=30&lon=-30&topic=zoning", 404, "outside-coverage");
  });
  test("paging: next_cursor, Link rel=next with the full URL, pages join up, last page null", async () => {
    const q = "jurisdiction_id=place:2743000&topic=property_records_general";
    const all = (await call(app, `/v1/resources?${q}&limit=100`)).json.data.resources.map((x: any) => x.resource_id);
    expect(all.length).toBeGreaterThan(2);
    const p1 = await call(app, `/v1/resources?${q}&limit=2`);
    const cur = p1.json.data.next_cursor;
    expect(cur).toBeTruthy();
    expect(cur.length).toBeLessThanOrEqual(200);
    const link = p1.headers.get("link")!;
    const next = /<([^>]+)>; rel="next"/.exec(link)![1]!;
    expect(next.startsWith(`${BASE}/resources?`)).toBe(true);
    expect(new URL(next).searchParams.get("cursor")).toBe(cur);
    const p2 = await call(app, next.replace(BASE, "/v1"));
    expect(p2.status).toBe(200);
    expect([...p1.json.data.resources, ...p2.json.data.resources].map((x: any) => x.resource_id)).toEqual(
      all.slice(0, 4),
    );
    const last = await call(app, `/v1/resources?${q}&limit=100`);
    expect(last.json.data.next_cursor).toBeNull();
    expect(last.headers.get("link")).not.toContain('rel="next"');
  });
  test("a cursor from other parameters or another endpoint → 400 bad-cursor", async () => {
    const p1 = await call(app, "/v1/resources?jurisdiction_id=place:2743000&topic=property_records_general&limit=1");
    const cur = p1.json.data.next_cursor;
    await expectProblem(
      app,
      `/v1/resources?jurisdiction_id=place:2743000&topic=assessor&cursor=${cur}`,
      400,
      "bad-cursor",
    );
    await expectProblem(app, `/v1/places/place:2743000?cursor=${cur}`, 400, "bad-cursor");
    await expectProblem(app, "/v1/resources?jurisdiction_id=place:2743000&cursor=not-a-cursor", 400, "bad-cursor");
    await expectProblem(
      app,
      `/v1/resources?jurisdiction_id=place:2743000&cursor=${"a".repeat(201)}`,
      400,
      "bad-cursor",
    );
  });
});

describe("GET /v1/places/{jurisdiction_id}", () => {
  test("jurisdiction, chain, offices, functions, own resources; schema-valid", async () => {
    const r = await call(app, "/v1/places/county:27053");
    expect(r.status).toBe(200);
    expect(Value.Check(Envelope(PlacePage), r.json)).toBe(true);
    expect(r.json.data.chain.map((j: any) => j.jurisdiction_id)).toEqual(["state:27", "county:27053"]);
    // Hennepin registered no office domain: its one office is the assessor's, as its own page names it (data/pages)
    expect(r.json.data.offices.map((o: any) => [o.name, o.kind])).toEqual([
      ["Hennepin County Assessor's Office", "assessment"],
    ]);
    expect(r.json.data.functions.recording.jurisdiction_id).toBe("county:27053");
    expect(r.json.data.functions.recording.office_name).toBe("Hennepin County Recorder"); // the state rule's title
    const cook = await call(app, "/v1/places/county:17031");
    expect(Value.Check(Envelope(PlacePage), cook.json)).toBe(true);
    expect(cook.json.data.offices.map((o: any) => o.name)).toContain("Cook County Assessor");
    for (const x of r.json.data.resources) expect(x.jurisdiction_id).toBe("county:27053");
  });
  test("unknown → 404 unknown-jurisdiction; malformed → 400 bad-parameter", async () => {
    await expectProblem(app, "/v1/places/place:9999999", 404, "unknown-jurisdiction");
    await expectProblem(app, "/v1/places/nowhere", 400, "bad-parameter");
    await expectProblem(app, "/v1/places/place:2743000?limit=0", 400, "bad-parameter");
  });
  test("pages its own resources with a cursor bound to the place", async () => {
    const r = await call(app, "/v1/places/country:us?limit=2");
    expect(r.json.data.resources.length).toBe(2);
    const cur = r.json.data.next_cursor;
    expect(cur).toBeTruthy();
    expect(r.headers.get("link")).toContain('rel="next"');
    const r2 = await call(app, `/v1/places/country:us?limit=2&cursor=${cur}`);
    expect(r2.status).toBe(200);
    expect(r2.json.data.resources[0].resource_id).not.toBe(r.json.data.resources[0].resource_id);
    await expectProblem(app, `/v1/places/state:27?cursor=${cur}`, 400, "bad-cursor");
  });
});

describe("GET /v1/search", () => {
  test("200, schema-valid, best first", async () => {
    const r = await call(app, "/v1/search?q=minneapolis&state=MN");
    expect(r.status).toBe(200);
    expect(Value.Check(Envelope(SearchResult), r.json)).toBe(true);
    expect(r.json.data.places[0].jurisdiction_id).toBe("place:2743000");
  });
  test("limit default 10, at most 20 each without a key, 50 with one; same order", async () => {
    expect((await call(app, "/v1/search?q=spring")).json.data.places.length).toBe(10);
    const anon = await call(app, "/v1/search?q=spring&limit=50");
    expect(anon.json.data.places.length).toBe(20);
    const { key } = deps.keys.create("partner", "search cap");
    const keyed = await call(app, "/v1/search?q=spring&limit=50", { headers: { Authorization: `Bearer ${key}` } });
    expect(keyed.json.data.places.length).toBe(50);
    expect(keyed.json.data.places.slice(0, 20)).toEqual(anon.json.data.places);
  });
  test("errors: q missing or out of range, bad limit, unknown state", async () => {
    await expectProblem(app, "/v1/search", 400, "bad-parameter");
    await expectProblem(app, "/v1/search?q=a", 400, "bad-parameter");
    await expectProblem(app, `/v1/search?q=${"a".repeat(201)}`, 400, "bad-parameter");
    await expectProblem(app, "/v1/search?q=ab&limit=51", 400, "bad-parameter");
    await expectProblem(app, "/v1/search?q=ab&state=ZZ", 400, "unknown-state");
  });
});

describe("OpenAPI covers the four endpoints", () => {
  test("paths, parameters and error responses", async () => {
    const d = (await call(app, "/v1/openapi.json")).json;
    expect(d.paths["/jurisdictions/resolve"].get.parameters.map((p: any) => p.name)).toEqual(
      expect.arrayContaining(["lat", "lon", "address", "place", "state", "jurisdiction_id"]),
    );
    expect(Object.keys(d.paths["/jurisdictions/resolve"].get.responses)).toEqual(
      expect.arrayContaining(["200", "304", "400", "401", "404", "409", "429", "503"]),
    );
    expect(d.paths["/resources"].get.parameters.map((p: any) => p.name)).toEqual(
      expect.arrayContaining(["jurisdiction_id", "lat", "lon", "topic", "limit", "cursor"]),
    );
    expect(
      d.paths["/places/{jurisdiction_id}"].get.parameters.find((p: any) => p.in === "path").schema.pattern,
    ).toBeTruthy();
    expect(d.paths["/search"].get.parameters.find((p: any) => p.name === "q").required).toBe(true);
  });
});

describe("every answer matches its schema (a sweep over the real data)", () => {
  test("resolve at 300 random points, and 200 place pages, validate against the TypeBox schemas", async () => {
    let s = 7;
    const rnd = () => {
      s = (s * 1103515245 + 12345) % 2147483648;
      return s / 2147483648;
    };
    let ok = 0;
    for (let i = 0; i < 300; i++) {
      const lat = 25 + rnd() * 24,
        lon = -124 + rnd() * 57;
      const r = await call(app, `/v1/jurisdictions/resolve?lat=${lat.toFixed(5)}&lon=${lon.toFixed(5)}`);
      if (r.status === 404) {
        expect(r.json.type).toBe(`${PROBLEMS}/outside-coverage`);
        continue;
      }
      expect(r.status).toBe(200);
      const valid = Value.Check(Envelope(ResolveResult), r.json);
      if (!valid) console.log([...Value.Errors(Envelope(ResolveResult), r.json)].slice(0, 3));
      expect(valid).toBe(true);
      ok++;
    }
    expect(ok).toBeGreaterThan(150);
    const { directory } = await (await import("../helpers/directory-app")).fullDirectory();
    const ids = [...directory.store.jurisdictions.keys()].filter((_, i) => i % 200 === 0);
    for (const id of ids) {
      const r = await call(app, `/v1/places/${id}`);
      if (r.status === 404) continue;
      const valid = Value.Check(Envelope(PlacePage), r.json);
      if (!valid) console.log(id, [...Value.Errors(Envelope(PlacePage), r.json)].slice(0, 3));
      expect(valid).toBe(true);
    }
  });
});
