// @kitajs/html escapes attributes always and text only where `safe` is set: its own scanner (@kitajs/ts-html-plugin,
// `xss-scan`) must find no unescaped dynamic text in any page template.
import { expect, test } from "bun:test";
import { Glob } from "bun";
import { join } from "node:path";
import { ROOT } from "../helpers/app";

test("xss-scan finds no unescaped text in src/web", () => {
  const files = [...new Glob("src/web/**/*.tsx").scanSync(ROOT)].sort();
  expect(files.length).toBeGreaterThan(10);
  const p = Bun.spawnSync([join(ROOT, "node_modules/.bin/xss-scan"), ...files], {
    cwd: ROOT,
    env: { ...process.env, FORCE_COLOR: "0" },
  });
  const out = p.stdout.toString() + p.stderr.toString();
  expect(out).toContain("No XSS vulnerabilities found");
  expect(p.exitCode).toBe(0);
}, 120_000);
