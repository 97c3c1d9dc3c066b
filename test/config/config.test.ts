import { describe, expect, test } from "bun:test";
import { parse } from "yaml";
import { readFileSync, writeFileSync, mkdtempSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { defaultConfig, loadConfig } from "../../src/config/config";
import { ROOT } from "../helpers/app";

describe("configuration", () => {
  test("config.example.yaml documents every key, with the defaults", () => {
    const example = parse(readFileSync(join(ROOT, "config.example.yaml"), "utf8"));
    const keys = (o: any, p = ""): string[] =>
      Object.entries(o).flatMap(([k, v]) =>
        v && typeof v === "object" && !Array.isArray(v) ? keys(v, `${p}${k}.`) : [`${p}${k}`],
      );
    expect(keys(example).sort()).toEqual(keys(defaultConfig()).sort());
    expect(loadConfig(join(ROOT, "config.example.yaml"), {})).toEqual(loadConfig(null, {}));
  });
  test("file < environment < overrides; base_url follows host and port unless set", () => {
    const dir = mkdtempSync(join(tmpdir(), "cfg-"));
    const f = join(dir, "c.yaml");
    writeFileSync(f, "port: 9000\nhost: 0.0.0.0\ntrusted_proxies: [10.0.0.1]\ntimeouts: { geocoder_ms: 1234 }\n");
    const c = loadConfig(f, { DIRECTORY_PORT: "9100", DIRECTORY_SERVICE_CALLERS: "10.1.0.0/16, 10.2.0.0/16" });
    expect(c.port).toBe(9100);
    expect(c.trusted_proxies).toEqual(["10.0.0.1"]);
    expect(c.service_callers).toEqual(["10.1.0.0/16", "10.2.0.0/16"]);
    expect(c.timeouts).toEqual({ geocoder_ms: 1234, screening_ms: 8000, request_ms: 30000, shutdown_grace_ms: 10000 });
    expect(c.base_url).toBe("http://127.0.0.1:9100/v1");
    expect(c.problems_url).toBe("http://127.0.0.1:9100/problems");
    expect(loadConfig(null, { DIRECTORY_BASE_URL: "https://dir.example.gov/v1/" }).base_url).toBe(
      "https://dir.example.gov/v1",
    );
  });
  test("unknown keys and a base_url not ending in /v1 are refused", () => {
    const dir = mkdtempSync(join(tmpdir(), "cfg-"));
    const f = join(dir, "c.yaml");
    writeFileSync(f, "prot: 9000\n");
    expect(() => loadConfig(f, {})).toThrow(/unknown key prot/);
    expect(() => loadConfig(null, { DIRECTORY_BASE_URL: "https://x.example/api" })).toThrow(/v1/);
  });
  test("front is bun or node, nothing else", () => {
    expect(loadConfig(null, {}).front).toBe("bun");
    expect(loadConfig(null, { DIRECTORY_FRONT: "node" }).front).toBe("node");
    expect(() => loadConfig(null, { DIRECTORY_FRONT: "nginx" })).toThrow(/front must be bun or node/);
  });

  test("memory_limit_mb is a whole number of megabytes, 0 switching it off", () => {
    expect(loadConfig(null, {}).memory_limit_mb).toBe(300);
    expect(loadConfig(null, { DIRECTORY_MEMORY_LIMIT_MB: "0" }).memory_limit_mb).toBe(0);
    for (const bad of ["-5", "1.5"])
      expect(() => loadConfig(null, { DIRECTORY_MEMORY_LIMIT_MB: bad })).toThrow(
        `config: memory_limit_mb must be a whole number of megabytes (0 = off), not ${bad}`,
      );
  });
});

describe("refused at start, naming the key (issue 19, item 7)", () => {
  test("a misspelt environment key is refused as the same typo in YAML is", () => {
    expect(() => loadConfig(null, { DIRECTORY_LIMITS__ANON_ADRESS__PER_MINUTE: "1" })).toThrow(
      "config: unknown environment key DIRECTORY_LIMITS__ANON_ADRESS__PER_MINUTE (no setting limits.anon_adress.per_minute)",
    );
    expect(() => loadConfig(null, { DIRECTORY_PROT: "9000" })).toThrow("unknown environment key DIRECTORY_PROT");
    expect(() => loadConfig(null, { DIRECTORY_LIMITS: "1" })).toThrow("unknown environment key DIRECTORY_LIMITS");
    const dir = mkdtempSync(join(tmpdir(), "cfg-"));
    const f = join(dir, "typo.yaml");
    writeFileSync(f, "limits:\n  anon_adress:\n    per_minute: 1\n");
    expect(() => loadConfig(f, {})).toThrow("config: unknown key limits.anon_adress");
  });
  test("a limit that is not a whole number of at least 1 is refused (-5, 0, 1.5), from YAML or the environment", () => {
    for (const v of ["-5", "0", "1.5"]) {
      expect(() => loadConfig(null, { DIRECTORY_LIMITS__ANON_ADDRESS__PER_MINUTE: v })).toThrow(
        `config: limits.anon_address.per_minute must be a whole number of at least 1, not ${v}`,
      );
      const dir = mkdtempSync(join(tmpdir(), "cfg-"));
      const f = join(dir, "lim.yaml");
      writeFileSync(f, `limits:\n  anon_list_all:\n    per_day: ${v}\n`);
      expect(() => loadConfig(f, {})).toThrow(
        "config: limits.anon_list_all.per_day must be a whole number of at least 1",
      );
    }
    expect(loadConfig(null, { DIRECTORY_LIMITS__ANON_ADDRESS__PER_MINUTE: "20" }).limits.anon_address.per_minute).toBe(
      20,
    );
  });
});
