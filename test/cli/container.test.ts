// The Containerfile, linted (no base image can be fetched on this machine, so no image is built here): parsed with
// dockerfile-ast, the checks a reviewer would make, and its environment read by the real config loader.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DockerfileParser } from "dockerfile-ast";
import { loadConfig, wildcardWithoutBaseUrl } from "../../src/config/config";
import { COMMANDS } from "../../src/cli/commands";
import { ROOT } from "../helpers/app";

const text = readFileSync(join(ROOT, "Containerfile"), "utf8");
const file = DockerfileParser.parse(text);
const stages = file.getFROMs();
const final = stages[stages.length - 1]!;
const lineOf = (i: { getRange(): { start: { line: number } } }) => i.getRange().start.line;
const inFinal = file.getInstructions().filter((i) => lineOf(i) > lineOf(final));
const kw = (k: string) => inFinal.filter((i) => i.getKeyword() === k);
const envOf = () => {
  const env: Record<string, string> = {};
  for (const e of kw("ENV")) for (const p of (e as any).getProperties()) env[p.getName()] = p.getValue();
  return env;
};

describe("Containerfile (lint)", () => {
  test("every base image has a tag; the sources come from a named build context whose default is empty", () => {
    for (const f of stages) if (f.getImageName() !== "scratch") expect(f.getImageTag()).toBeTruthy();
    expect(stages.map((f) => f.getBuildStage())).toEqual(["shared", "build", null]);
    expect(text).toContain("COPY --from=shared / /src/shared/");
    expect(text).toContain("--build-context shared=../shared"); // documented at the top
  });
  test("the build context leaves out the host's packages and data files (.containerignore, .dockerignore)", () => {
    for (const f of [".containerignore", ".dockerignore"]) {
      const lines = readFileSync(join(ROOT, f), "utf8").split("\n");
      for (const x of ["node_modules", "*.sqlite", "dist", ".git"]) expect([f, lines.includes(x)]).toEqual([f, true]);
    }
    // npm ci runs on the lock file before the sources are copied in (the install layer is cached)
    const all = file.getInstructions().map((i) => `${i.getKeyword()} ${i.getArgumentsContent()}`);
    expect(all.findIndex((s) => s.startsWith("RUN npm ci"))).toBeLessThan(all.indexOf("COPY . ."));
  });
  test("the image runs as a non-root user, with a health check by the executable itself, on the API's port", () => {
    const user = kw("USER");
    expect(user).toHaveLength(1);
    expect(user[0]!.getArgumentsContent()).not.toMatch(/^(root|0)(:|$)/);
    expect(kw("RUN").some((r) => /useradd --system/.test(r.getArgumentsContent() ?? ""))).toBe(true);
    const hc = kw("HEALTHCHECK");
    expect(hc).toHaveLength(1);
    expect(hc[0]!.getArgumentsContent()).toContain('CMD ["/usr/local/bin/directory", "health"]');
    expect(COMMANDS.some((c) => c.name === "health")).toBe(true);
    expect(kw("EXPOSE").map((e) => e.getArgumentsContent())).toEqual(["8080"]);
    expect(kw("ENTRYPOINT")[0]!.getArgumentsContent()).toBe('["/usr/local/bin/directory"]');
    expect(kw("CMD")[0]!.getArgumentsContent()).toBe('["serve"]');
    // nothing is installed in the runtime image besides the user: one executable, its data files
    expect(kw("RUN").every((r) => !/apt-get|npm /.test(r.getArgumentsContent() ?? ""))).toBe(true);
  });
  test("its environment is a valid config: writable state in the volume, and serve refuses until base_url is set", () => {
    const env = envOf();
    expect(env.DIRECTORY_STATE_FILE!.startsWith("/var/lib/directory/")).toBe(true);
    expect(env.DIRECTORY_LAYERS_FILE!.startsWith("/var/lib/directory/")).toBe(true);
    expect(kw("VOLUME")[0]!.getArgumentsContent()).toBe("/var/lib/directory");
    const cfg = loadConfig(null, env); // unknown keys would throw here
    expect(cfg.data_file).toBe("/srv/directory.sqlite");
    expect(cfg.parcels.file).toBe("/srv/parcels.sqlite");
    expect(wildcardWithoutBaseUrl(cfg)).toContain("set base_url (DIRECTORY_BASE_URL)");
    const set = loadConfig(null, { ...env, DIRECTORY_BASE_URL: "http://mirror.example.gov:8080/v1" });
    expect(wildcardWithoutBaseUrl(set)).toBeNull();
    expect(set.base_url).toBe("http://mirror.example.gov:8080/v1");
  });
});
