// `directory build-data`: the same as `bun scripts/build-data.ts` (one declaration of its options, commands.ts).
// It reads data/ and the npm atlas from a checkout of the project: the executable runs it from such a folder, and
// says so in one line anywhere else.
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Parsed } from "./commands";

export async function runBuildData(p: Parsed): Promise<number> {
  // inside the compiled executable the sources are not on disk: run it from the project folder (data/, node_modules/)
  const compiled = import.meta.dir.startsWith("/$bunfs") || import.meta.dir.startsWith("B:/~BUN");
  const root = compiled ? process.cwd() : resolve(import.meta.dir, "../..");
  if (!existsSync(join(root, "data/sources.yaml"))) {
    console.error(
      `error: build-data runs from a checkout of the project (data/sources.yaml and node_modules/ there); ${root} is none: cd into the checkout and run \`bun scripts/build-data.ts --out FILE\` (or this command from there)`,
    );
    return 1;
  }
  const { buildData, optionsOf } = await import("../../scripts/build-data");
  await buildData(optionsOf(p, root));
  return 0;
}
