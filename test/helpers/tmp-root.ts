// Preloaded by `bun test` (bunfig.toml): every temporary directory a test makes (os.tmpdir(), and the programs the
// tests start, which inherit TMPDIR) goes under one directory of this run, removed when the run ends, so runs do not
// pile up data files, parcel stores and browser profiles in /tmp. Mode 0755 so that the PostgreSQL server, which
// runs as the `postgres` user under root, can reach its own directory inside.
import { afterAll } from "bun:test";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = mkdtempSync(join(tmpdir(), "directory-tests-"));
chmodSync(root, 0o755);
process.env.TMPDIR = root;
// a global hook: a preloaded file's afterAll runs once, after every test file (process "exit" is not emitted)
afterAll(() => rmSync(root, { recursive: true, force: true }));
