// A data file that is missing stops `serve` at start, also from the checkout, where data/*.yaml exists (issue 19,
// item 2): the YAML alone would answer 500 "no data file is loaded" on resolve, resources, places, search and
// screening.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { ROOT } from "../helpers/app";

describe("a missing data file", () => {
  test("serve from the checkout refuses to start, in one line naming the file and how to build it", () => {
    const work = mkdtempSync(join(tmpdir(), "directory-nodata-"));
    const missing = join(work, "nowhere.sqlite");
    const p = Bun.spawnSync(
      [process.execPath, join(ROOT, "src/cli/main.ts"), "serve", "--data", missing, "--port", "0"],
      {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? "", DIRECTORY_STATE_FILE: join(work, "s.sqlite") },
        timeout: 20_000,
      },
    );
    expect(p.exitCode).not.toBe(0);
    const err = p.stderr.toString().trim();
    expect(err).toContain(`data file not found: ${missing}`);
    expect(err).toContain("build-data");
    expect(p.stdout.toString()).not.toContain("serving");
  });
});
