// A generated client from the served OpenAPI document: openapi-typescript (pinned) turns /v1/openapi.json into
// types offline, with no extra configuration, and a small client type-checks against them (tsc, strict); a client
// that reads a field the document does not have fails to compile.
import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import openapiTS, { astToString } from "openapi-typescript";
import { call, ROOT, yamlApp } from "../helpers/app";

const CLIENT = `import type { paths } from "./api";
type Resolve = paths["/jurisdictions/resolve"]["get"];
type Ok = Resolve["responses"][200]["content"]["application/json"];
type Problem = Resolve["responses"][404]["content"]["application/problem+json"];
/** The county of a point, or the problem's type. */
export async function countyAt(base: string, lat: number, lon: number): Promise<string | null> {
  const q: NonNullable<Resolve["parameters"]["query"]> = { lat, lon };
  const r = await fetch(\`\${base}/jurisdictions/resolve?lat=\${q.lat}&lon=\${q.lon}\`);
  if (!r.ok) return ((await r.json()) as Problem).type;
  const body = (await r.json()) as Ok;
  const county = body.data.jurisdictions.find((j) => j.type === "county");
  const zoning = body.data.functions.zoning;
  return county ? \`\${county.jurisdiction_id} (\${zoning?.office_name ?? "no office named"})\` : null;
}
`;

function tsc(dir: string, files: string[]) {
  return Bun.spawnSync(
    [
      process.execPath,
      join(ROOT, "node_modules/typescript/bin/tsc"),
      "--noEmit",
      "--strict",
      "--skipLibCheck",
      "--target",
      "ES2022",
      "--module",
      "ESNext",
      "--moduleResolution",
      "Bundler",
      "--lib",
      "ES2022,DOM",
      ...files,
    ],
    { cwd: dir, timeout: 60_000 },
  );
}

describe("OpenAPI clients", () => {
  test("openapi-typescript generates types from the served document; a client type-checks; a wrong field does not", async () => {
    const { app } = yamlApp();
    const r = await call(app, "/v1/openapi.json");
    expect(r.status).toBe(200);
    const ts = astToString(await openapiTS(r.json));
    expect(ts).toContain('"/jurisdictions/resolve"');
    const dir = mkdtempSync(join(tmpdir(), "openapi-client-"));
    writeFileSync(join(dir, "api.d.ts"), ts);
    writeFileSync(join(dir, "client.ts"), CLIENT);
    const ok = tsc(dir, ["client.ts"]);
    expect(ok.stdout.toString() + ok.stderr.toString()).toBe("");
    expect(ok.exitCode).toBe(0);
    writeFileSync(join(dir, "bad.ts"), CLIENT.replace("body.data.jurisdictions", "body.data.jurisdiction_list"));
    const bad = tsc(dir, ["bad.ts"]);
    expect(bad.exitCode).not.toBe(0);
    expect(bad.stdout.toString()).toContain("jurisdiction_list");
  }, 60_000);
});
