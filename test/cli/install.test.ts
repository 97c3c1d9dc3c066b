// A fresh install must not depend on what the registry serves today: every dependency is pinned to one exact
// version, the lock file agrees with package.json, and setup.sh says in one line why npm refused.
import { describe, expect, test } from "bun:test";
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync, copyFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = join(import.meta.dir, "../..");
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const lock = JSON.parse(readFileSync(join(root, "package-lock.json"), "utf8"));
const EXACT = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;
const sections = ["dependencies", "devDependencies", "optionalDependencies", "peerDependencies"] as const;

/** Every dependency of package.json whose specifier is not one exact version, as `section name@spec`. */
function looseSpecifiers(p: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const s of sections) {
    for (const [name, spec] of Object.entries((p[s] ?? {}) as Record<string, string>)) {
      if (!EXACT.test(spec)) out.push(`${s} ${name}@${spec}`);
    }
  }
  return out;
}

describe("exact pins", () => {
  test("every dependency and devDependency is one exact version (no latest, ^, ~, ranges or tags)", () => {
    expect(looseSpecifiers(pkg)).toEqual([]);
  });
  test("the check names what it refuses", () => {
    const bad = {
      dependencies: { a: "latest", b: "^1.2.3", c: "~1.2.3", d: "1.2.3" },
      devDependencies: { e: ">=1 <2", f: "1.x", g: "next", h: "1.2.3-rc.1" },
    };
    expect(looseSpecifiers(bad)).toEqual([
      "dependencies a@latest",
      "dependencies b@^1.2.3",
      "dependencies c@~1.2.3",
      "devDependencies e@>=1 <2",
      "devDependencies f@1.x",
      "devDependencies g@next",
    ]);
  });
  test("the lock file holds the same pins as package.json", () => {
    const top = lock.packages[""];
    for (const s of ["dependencies", "devDependencies"] as const) {
      expect(top[s], s).toEqual(pkg[s]);
      for (const [name, version] of Object.entries(pkg[s] as Record<string, string>)) {
        expect(lock.packages[`node_modules/${name}`]?.version, name).toBe(version);
      }
    }
  });
});

describe("scripts/setup.sh when npm refuses", () => {
  test("one line says what failed (not npm's usage text), exit non-zero", () => {
    const dir = mkdtempSync(join(tmpdir(), "setup-"));
    mkdirSync(join(dir, "scripts"));
    copyFileSync(join(root, "scripts/setup.sh"), join(dir, "scripts/setup.sh"));
    writeFileSync(
      join(dir, "package.json"),
      JSON.stringify({ name: "x", version: "1.0.0", dependencies: { yaml: "2.9.1" } }),
    );
    // a lock file out of step with package.json: npm ci refuses before it fetches anything
    writeFileSync(
      join(dir, "package-lock.json"),
      JSON.stringify({
        name: "x",
        version: "1.0.0",
        lockfileVersion: 3,
        requires: true,
        packages: {
          "": { name: "x", version: "1.0.0", dependencies: { yaml: "2.9.0" } },
          "node_modules/yaml": { version: "2.9.0" },
        },
      }),
    );
    const p = Bun.spawnSync(["bash", "scripts/setup.sh"], {
      cwd: dir,
      env: { ...process.env, npm_config_offline: "true" },
    });
    expect(p.exitCode).not.toBe(0);
    const err = p.stderr.toString().trim().split("\n");
    expect(err).toHaveLength(1);
    expect(err[0]).toStartWith("setup: npm ci failed: ");
    expect(err[0]).toContain("yaml@2.9.0 does not satisfy yaml@2.9.1");
    expect(p.stdout.toString()).not.toContain("Usage");
  }, 30_000);
});
