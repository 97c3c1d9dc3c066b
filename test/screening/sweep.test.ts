// Every /screening answer of a 500-point sweep over the country validates against the TypeBox schema (the one the
// OpenAPI document is generated from), every fact's status is one of its own, and the OpenAPI document covers
// /screening from the same schemas.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Value } from "@sinclair/typebox/value";
import { call, PROBLEMS } from "../helpers/app";
import { screeningApp } from "../helpers/screening-app";
import { startScreeningDoubles, type ScreeningDoubles } from "../doubles/screening-services";
import { Envelope } from "../../src/http/schemas/common";
import { FACT_STATUSES, Screening } from "../../src/http/schemas/screening";
import type { App } from "../../src/http/app";

const STATUSES: Record<string, readonly string[]> = FACT_STATUSES;

let d: ScreeningDoubles, app: App;
beforeAll(async () => {
  d = startScreeningDoubles();
  ({ app } = await screeningApp(d, { timeoutMs: 2000, screening: { max_concurrent: 1000 } }));
}, 600_000);
afterAll(() => d.stop());

test("500 random points: each answer is 200 (valid) or 404 outside-coverage", async () => {
  let s = 11;
  const rnd = () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
  const points = Array.from({ length: 500 }, () => ({ lat: 25 + rnd() * 24, lon: -124 + rnd() * 57 }));
  // a few in Minnesota so shoreland is swept too
  for (let i = 0; i < 40; i++) points[i] = { lat: 43.6 + rnd() * 5.3, lon: -96.9 + rnd() * 7 };
  let ok = 0,
    mn = 0;
  const seen = new Set<string>();
  for (let i = 0; i < points.length; i += 10) {
    const rs = await Promise.all(
      points.slice(i, i + 10).map((p) => call(app, `/v1/screening?lat=${p.lat.toFixed(6)}&lon=${p.lon.toFixed(6)}`)),
    );
    for (const r of rs) {
      if (r.status === 404) {
        expect(r.json.type).toBe(`${PROBLEMS}/outside-coverage`);
        continue;
      }
      expect(r.status).toBe(200);
      const valid = Value.Check(Envelope(Screening), r.json);
      if (!valid) console.log([...Value.Errors(Envelope(Screening), r.json)].slice(0, 3));
      expect(valid).toBe(true);
      for (const [k, f] of Object.entries<any>(r.json.data.facts)) {
        expect(STATUSES[k]).toContain(f.status);
        seen.add(`${k}:${f.status}`);
      }
      if (r.json.data.facts.shoreland) mn++;
      ok++;
    }
  }
  expect(ok).toBeGreaterThan(250);
  expect(mn).toBeGreaterThan(20);
  expect(seen.has("radon:zone_1") && seen.has("radon:zone_2") && seen.has("radon:zone_3")).toBe(true);
}, 600_000);

test("the OpenAPI document describes /screening from the schemas", async () => {
  const doc = (await call(app, "/v1/openapi.json")).json;
  const op = doc.paths["/screening"].get;
  expect(op.operationId).toBe("getScreening");
  expect(op.parameters.filter((p: any) => p.in === "query").map((p: any) => [p.name, p.required])).toEqual([
    ["lat", true],
    ["lon", true],
  ]);
  expect(Object.keys(op.responses).sort()).toEqual(["200", "304", "400", "401", "404", "429", "503"]);
  expect(JSON.stringify(op.responses["200"])).toContain('"$ref":"#/components/schemas/Screening"');
  const json = JSON.stringify(doc.components.schemas.Screening);
  for (const k of ["flood", "wetlands", "soils", "elevation", "radon", "shoreland", "decided_by", "caveat"])
    expect(json).toContain(`"${k}"`);
});
