// The screening config block: air-gapped switches from the environment, per-service timeouts with a default.
import { expect, test } from "bun:test";
import { loadConfig } from "../../src/config/config";
import { buildDeps } from "../../src/cli/compose";
import { contentFromYaml } from "../../src/directory/content";
import { join } from "node:path";
import { ROOT, testConfig } from "../helpers/app";
import { serviceConfig } from "../../src/lookups/screening/types";

test("DIRECTORY_SCREENING__<SERVICE>__ENABLED=false switches a service off; a non-boolean is refused", () => {
  const c = loadConfig(null, {
    DIRECTORY_SCREENING__FLOOD__ENABLED: "false",
    DIRECTORY_SCREENING__SOILS__BASE_URL: "",
  });
  expect(c.screening.flood.enabled).toBe(false);
  expect(c.screening.soils.base_url).toBe("");
  expect(c.screening.wetlands.enabled).toBe(true);
  expect(() => loadConfig(null, { DIRECTORY_SCREENING__FLOOD__ENABLED: "nope" })).toThrow(/not a boolean/);
});

test("a service timeout of 0 takes timeouts.screening_ms; a set one is kept", () => {
  const cfg = testConfig({ timeouts: { geocoder_ms: 5000, screening_ms: 1234, request_ms: 30000 } } as any);
  cfg.screening.soils.timeout_ms = 99;
  const deps = buildDeps(cfg, {
    db: null,
    manifest: { as_of: "2026-11-22T00:00:00Z", content_sha256: "t" },
    content: contentFromYaml(join(ROOT, "data")),
  });
  const resolved = (deps.screening as any).runner.cfg;
  expect(
    Object.fromEntries(deps.screening!.services.map((d) => [d.name, serviceConfig(resolved, d).timeout_ms])),
  ).toEqual({
    flood: 1234,
    wetlands: 1234,
    soils: 99,
    elevation: 1234,
    shoreland: 1234,
  });
});

test("the screening cache keeps to its memory budget (least recently used cells go first)", async () => {
  const { TtlCache } = await import("../../src/lookups/cache");
  const c = new TtlCache<string, { n: number }>({
    max: 1000,
    ttl: 60_000,
    maxSize: 1000,
    sizeOf: (v) => (v as { n: number }).n,
  });
  for (let i = 0; i < 10; i++) c.set(`k${i}`, { n: 300 });
  expect(c.size).toBe(3);
  expect(c.has("k9") && c.has("k8") && c.has("k7")).toBe(true);
  c.set("big", { n: 5000 }); // larger than the whole budget: not kept
  expect(c.has("big")).toBe(false);
});
