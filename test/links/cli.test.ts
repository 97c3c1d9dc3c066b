// `directory check-links` end to end: progress and summary, results in the state file, loopback refused outside
// tests (no DNS is asked: the URL is an IP literal), and a missing contact refused with a one-line error.
import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "../helpers/app";
import { atlasDataFile } from "../helpers/data-file";

const run = async (args: string[], env: Record<string, string>) => {
  const p = Bun.spawn([process.execPath, join(ROOT, "src/cli/main.ts"), "check-links", ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { out, err, code };
};

describe("directory check-links", () => {
  test("checks the given URLs, prints progress and a summary, stores the result; loopback is refused", async () => {
    const state = join(mkdtempSync(join(tmpdir(), "check-links-")), "state.sqlite");
    const r = await run(["--data", await atlasDataFile(), "--state", state, "--url", "http://127.0.0.1:9/ok"], {
      DIRECTORY_LINKS__CONTACT: "ops@example.gov",
    });
    expect(r.code).toBe(0);
    expect(r.out).toContain('user agent "property-land-gis-directory-linkcheck/0.1 (+ops@example.gov)"');
    expect(r.out).toMatch(/checked 1 links on 1 hosts .*ok 0, failed 1, skipped 0/);
    expect(r.out).toContain("not ok: refused-address 1");
    expect(r.err).toContain("checking 1 links");
    const row = new Database(state, { readonly: true }).query("SELECT * FROM link_results").get() as any;
    expect(row).toMatchObject({
      url: "http://127.0.0.1:9/ok",
      outcome: "failed",
      reason: "refused-address",
      verified_status: "not_yet_verified",
      consecutive_failures: 1,
    });
  }, 120_000);

  test("without links.contact it refuses to start", async () => {
    const r = await run(["--data", await atlasDataFile(), "--state", ":memory:"], { DIRECTORY_LINKS__CONTACT: "" });
    expect(r.code).toBe(1);
    expect(r.err).toContain("links.contact is required");
  }, 120_000);
});
