// Fault 10: the generated OpenAPI document passes @redocly/cli (recommended) and @stoplight/spectral-cli
// (spectral:oas) with 0 errors and 0 warnings, run with no network at all (unshare -n where the kernel allows
// it, else a dead proxy), and it declares what the issue lists.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, yamlApp, call } from "../helpers/app";
import { TOPICS } from "../../src/domain/vocabulary";

const dir = mkdtempSync(join(tmpdir(), "openapi-lint-"));
const file = join(dir, "openapi.json");
let doc: any;
beforeAll(() => {
  doc = yamlApp().app.openapi();
  writeFileSync(file, JSON.stringify(doc, null, 1));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const offline = Bun.spawnSync(["unshare", "-rn", "true"]).exitCode === 0;
const env = {
  PATH: process.env.PATH ?? "",
  HOME: dir,
  REDOCLY_TELEMETRY: "off",
  REDOCLY_SUPPRESS_UPDATE_NOTICE: "true",
  NO_UPDATE_NOTIFIER: "1",
  HTTP_PROXY: "http://127.0.0.1:9",
  HTTPS_PROXY: "http://127.0.0.1:9",
  http_proxy: "http://127.0.0.1:9",
  https_proxy: "http://127.0.0.1:9",
};
function lint(cmd: string[]) {
  const p = Bun.spawnSync(offline ? ["unshare", "-rn", ...cmd] : cmd, { cwd: ROOT, env });
  return { code: p.exitCode, out: p.stdout.toString() + p.stderr.toString() };
}

describe("OpenAPI lint (offline)", () => {
  test("redocly lint (recommended): 0 errors, 0 warnings", () => {
    const r = lint([
      join(ROOT, "node_modules/.bin/redocly"),
      "lint",
      file,
      "--config",
      join(ROOT, ".redocly.yaml"),
      "--format=json",
    ]);
    const json = JSON.parse(r.out.slice(r.out.indexOf("{"), r.out.lastIndexOf("}") + 1));
    expect(json.totals).toEqual({ errors: 0, warnings: 0, ignored: 0 });
    expect(r.code).toBe(0);
  }, 120_000);
  test("spectral lint (spectral:oas): 0 errors, 0 warnings", () => {
    const r = lint([
      join(ROOT, "node_modules/.bin/spectral"),
      "lint",
      file,
      "--ruleset",
      join(ROOT, ".spectral.yaml"),
      "-f",
      "text",
      "--fail-severity",
      "hint",
    ]);
    expect(r.out).toContain("No results");
    expect(r.code).toBe(0);
  }, 120_000);
});

describe("what the document declares", () => {
  test("200 headers required with patterns; error headers; 429 with Retry-After and both RateLimit headers", () => {
    const op = doc.paths["/jurisdictions/resolve"].get;
    for (const h of [
      "ETag",
      "Cache-Control",
      "X-Request-Id",
      "RateLimit-Policy",
      "RateLimit",
      "Link",
      "Access-Control-Allow-Origin",
    ]) {
      expect(op.responses["200"].headers[h].required).toBe(true);
      const s = op.responses["200"].headers[h].schema;
      expect(s.pattern ?? s.const).toBeTruthy();
    }
    expect(
      new RegExp(op.responses["200"].headers.ETag.schema.pattern).test('W/"0123456789abcdef0123456789abcdef"'),
    ).toBe(true);
    for (const s of ["400", "404", "409", "429", "503"]) {
      expect(op.responses[s].headers["X-Request-Id"].required).toBe(true);
      expect(op.responses[s].headers["Cache-Control"].schema.const).toBe("no-store");
    }
    for (const h of ["Retry-After", "RateLimit", "RateLimit-Policy"])
      expect(op.responses["429"].headers[h].required).toBe(true);
  });
  test("304 wherever If-None-Match applies, /openapi.json included", () => {
    for (const [p, item] of Object.entries<any>(doc.paths)) {
      expect([p, !!item.get.responses["304"]]).toEqual([p, true]);
      expect(item.get.responses["304"].headers.ETag.required).toBe(true);
    }
  });
  test("Topic enum on /guides/{topic}", () => {
    const topic = doc.paths["/guides/{topic}"].get.parameters.find((x: any) => x.name === "topic");
    const schema = topic.schema.$ref ? doc.components.schemas[topic.schema.$ref.split("/").pop()] : topic.schema;
    expect(schema.enum).toEqual([...TOPICS]);
  });
  test("only the problem types each operation can return", () => {
    const topics = doc.paths["/topics"].get;
    expect(Object.keys(topics.responses).sort()).toEqual(["200", "304", "401", "429"]);
    expect(topics.responses["429"].description).not.toContain("lookup-limit");
    const search = doc.paths["/search"].get.responses["400"].description;
    expect(search).toContain("bad-parameter");
    expect(search).not.toContain("bad-point");
    expect(search).not.toContain("bad-cursor");
    expect(doc.paths["/guides/{topic}"].get.responses["404"].description).toContain("unknown-topic");
    expect(doc.paths["/guides/{topic}"].get.responses["404"].description).not.toContain("place-not-found");
    expect(doc.paths["/jurisdictions/resolve"].get.responses["429"].description).toContain("lookup-limit");
  });
  test("$ref to component schemas instead of inline copies; license and contact", () => {
    const text = JSON.stringify(doc.paths);
    expect(text).toContain('"$ref":"#/components/schemas/ResolveResult"');
    expect(text).not.toContain('"required":["jurisdiction_id","type","name","page_url"]'); // no inline Jurisdiction
    for (const ref of text.match(/#\/components\/schemas\/[A-Za-z]+/g) ?? [])
      expect(doc.components.schemas[ref.split("/").pop()!]).toBeTruthy();
    expect(doc.info.license.name).toBeTruthy();
    expect(doc.info.contact.name).toBeTruthy();
  });
  test("served with If-None-Match → 304 on /openapi.json", async () => {
    const { app } = yamlApp();
    const a = await call(app, "/v1/openapi.json");
    const b = await call(app, "/v1/openapi.json", { headers: { "If-None-Match": a.headers.get("etag")! } });
    expect(b.status).toBe(304);
  });
});
