// Data files for tests, built once per test process (bun runs every test file in one process) and shared.
//   atlasDataFile(): from the npm atlas package alone;  fullDataFile(): with ../shared/data.
import { mkdtempSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { buildData } from "../../scripts/build-data";
import { ROOT } from "./app";

export const SHARED_DATA = resolve(ROOT, "../shared/data");
const dir = mkdtempSync(join(tmpdir(), "directory-test-"));
const builds = new Map<string, Promise<string>>();

function build(name: string, sourcesDir: string | null): Promise<string> {
  let p = builds.get(name);
  if (!p) {
    const out = join(dir, `${name}.sqlite`);
    const lines: string[] = [];
    p = buildData({ out, sourcesDir, projectRoot: ROOT, log: (s) => lines.push(s) }).then(() => out);
    builds.set(name, p);
  }
  return p;
}

export const atlasDataFile = () => build("atlas", null);
export const fullDataFile = () => {
  if (!existsSync(SHARED_DATA)) throw new Error(`../shared/data not found at ${SHARED_DATA}`);
  return build("full", SHARED_DATA);
};
