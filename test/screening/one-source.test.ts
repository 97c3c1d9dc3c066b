// A screening source is one definition and one list entry: a sixth, test-only source (made-up aircraft noise
// levels, served by a loopback double on 127.0.0.1) added as `[...SERVICES, noise]` gets its config block, its fact
// in the answer (in order, with its own statuses, valid against the schema derived from the list) and its label on
// the screening page, with nothing else changed.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Value } from "@sinclair/typebox/value";
import { call } from "../helpers/app";
import { screeningApp } from "../helpers/screening-app";
import { startScreeningDoubles, type ScreeningDoubles } from "../doubles/screening-services";
import * as W from "../doubles/screening-world";
import { defaultConfig, loadConfig } from "../../src/config/config";
import { lookupTaker } from "../../src/http/limits";
import { Envelope } from "../../src/http/schemas/common";
import { screeningSchema } from "../../src/http/schemas/screening";
import { factsOf, SERVICES, Screening } from "../../src/lookups/screening";
import { serviceConfig, type ServiceDef } from "../../src/lookups/screening/types";
import { UpstreamError } from "../../src/lookups/http-client";
import { createWeb } from "../../src/web";
import type { App } from "../../src/http/app";
import type { Deps } from "../../src/http/deps";

// THE ONE DEFINITION: day-night noise level at the point from a made-up service, GET <base>?x=<lon>&y=<lat>
// → {"dnl": <decibels>}. STATUS TABLE: 65 dB or more → loud; less → quiet.
const noise: ServiceDef<"noise"> = {
  name: "noise",
  label: "Aircraft noise (test source)",
  statuses: ["loud", "quiet", "unknown"],
  defaults: { enabled: false, base_url: "", timeout_ms: 0 },
  topic: "zoning",
  calls: 1,
  caveat: "Test source only: made-up noise levels.",
  decider: () => ({ description: "The zoning office applies any airport noise overlay.", function: "zoning" }),
  origin: (c) => ({
    dataset: "Made-up noise contours",
    publisher: "Test publisher",
    as_of: null,
    url: serviceConfig(c, noise).base_url,
  }),
  reachM: () => 0,
  async fetchPoint(http, lon, lat, c) {
    const u = new URL(serviceConfig(c, noise).base_url);
    u.searchParams.set("x", String(lon));
    u.searchParams.set("y", String(lat));
    const body = (await http.get(u)) as { dnl?: unknown } | null;
    if (typeof body?.dnl !== "number") throw new UpstreamError("bad-reply", "noise reply has no dnl");
    return [{ layer: "level", attrs: { dnl: body.dnl }, hit: "inside" }];
  },
  read(features, _lon, _lat, origin) {
    const dnl = Number(features[0]?.attrs.dnl);
    const loud = dnl >= 65;
    return {
      status: loud ? "loud" : "quiet",
      summary: loud ? "Loud: 65 dB or more day-night level." : "Quiet: under 65 dB day-night level.",
      detail: `Day-night level ${dnl} dB.`,
      values: { dnl },
      dataset: origin.dataset,
      publisher: origin.publisher,
      as_of: origin.as_of,
    };
  },
};
// THE ONE LIST ENTRY
const defs = [...SERVICES, noise];

/** The loopback double: loud west of the made-up map's centre, quiet east of it. */
let calls = 0;
const double = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  fetch(req) {
    calls++;
    const x = Number(new URL(req.url).searchParams.get("x"));
    return Response.json({ dnl: x < W.C.lon - 0.0001 ? 70 : 55 });
  },
});
const env = {
  DIRECTORY_SCREENING__NOISE__ENABLED: "true",
  DIRECTORY_SCREENING__NOISE__BASE_URL: `http://127.0.0.1:${double.port}/dnl`,
};

let d: ScreeningDoubles, app: App, deps: Deps;
beforeAll(async () => {
  d = startScreeningDoubles();
  ({ app, deps } = await screeningApp(d, { timeoutMs: 2000 }));
  // the app's screening block (the five pointed at their doubles) with the noise block from the environment
  const config = loadConfig(null, env, { screening: deps.config.screening }, defs).screening;
  deps.screening = new Screening({
    config,
    timeoutMs: 2000,
    defs,
    takeLookup: lookupTaker(deps.limiter),
  });
  deps.web = createWeb(deps);
}, 600_000);
afterAll(() => {
  d.stop();
  void double.stop(true);
});

test("its config block is its definition's defaults, set from YAML or the environment like the others", () => {
  expect(serviceConfig(defaultConfig(defs).screening, noise)).toEqual({ enabled: false, base_url: "", timeout_ms: 0 });
  expect(serviceConfig(loadConfig(null, env, {}, defs).screening, noise)).toEqual({
    enabled: true,
    base_url: env.DIRECTORY_SCREENING__NOISE__BASE_URL,
    timeout_ms: 0,
  });
  // the five services' blocks are the same with or without it; without it in the list, its keys are unknown
  const { noise: _, ...five } = defaultConfig(defs).screening as unknown as Record<string, unknown>;
  expect(five).toEqual({ ...defaultConfig().screening });
  expect(() => loadConfig(null, env)).toThrow(/unknown environment key DIRECTORY_SCREENING__NOISE__/);
});

test("its fact is in the screening answer after the other six, with its own statuses", async () => {
  calls = 0;
  const r = await call(app, `/v1/screening?lat=${W.C.lat}&lon=${W.C.lon - 0.0005}`);
  expect(r.status).toBe(200);
  const facts = r.json.data.facts;
  expect(Object.keys(facts)).toEqual(["flood", "wetlands", "soils", "elevation", "radon", "shoreland", "noise"]);
  expect(facts.noise).toMatchObject({
    status: "loud",
    values: { dnl: 70 },
    dataset: "Made-up noise contours",
    caveat: "Test source only: made-up noise levels.",
    decided_by: { function: "zoning" },
  });
  expect(facts.noise.decided_by.office).not.toBeNull(); // the zoning office of the point, from the directory
  expect(calls).toBe(1);
  const quiet = await call(app, `/v1/screening?lat=${W.C.lat}&lon=${W.C.lon + 0.0005}`);
  expect(quiet.json.data.facts.noise.status).toBe("quiet");

  // the schema over the list gives the fact its own status enum; a status of another fact is refused
  const schema = Envelope(screeningSchema(factsOf(defs)));
  expect(Value.Check(schema, r.json)).toBe(true);
  expect(Value.Check(schema, quiet.json)).toBe(true);
  const status = (schema as any).properties.data.properties.facts.properties.noise.properties.status;
  expect(status.anyOf.map((s: { const: string }) => s.const)).toEqual(["loud", "quiet", "unknown"]);
  expect(status.description).toBe("noise: loud, quiet, unknown");
  const wrong = structuredClone(r.json);
  wrong.data.facts.noise.status = "zone_1";
  expect(Value.Check(schema, wrong)).toBe(false);
});

test("its label heads its section on the screening page, and the summary links to it", async () => {
  const r = await call(app, `/screening?lat=${W.C.lat}&lon=${W.C.lon - 0.0005}`);
  expect(r.status).toBe(200);
  expect(r.text).toContain('<h2 id="fact-noise">Aircraft noise (test source)</h2>');
  expect(r.text).toContain('<a href="#fact-noise">Aircraft noise (test source)</a>');
  expect(r.text).toContain("Loud: 65 dB or more day-night level.");
  // the others keep their labels, the page its order: the services, then radon
  const headings = [...r.text.matchAll(/<h2 id="fact-([a-z]+)">([^<]+)<\/h2>/g)].map((m) => `${m[1]}:${m[2]}`);
  expect(headings).toEqual([
    "flood:Flood zone",
    "wetlands:Wetlands",
    "soils:Soils",
    "elevation:Elevation",
    "shoreland:Shoreland (Minnesota)",
    "noise:Aircraft noise (test source)",
    "radon:Radon zone",
  ]);
});
