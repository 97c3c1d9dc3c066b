// `directory build-data`: the same as `bun scripts/build-data.ts` (one argument parser, in scripts/build-data.ts).
import { resolve } from "node:path";

export async function runBuildData(args: string[]): Promise<number> {
  const { buildData, parseArgs } = await import("../../scripts/build-data");
  // inside the compiled executable the sources are not on disk: run it from the project folder (data/, node_modules/)
  const root =
    import.meta.dir.startsWith("/$bunfs") || import.meta.dir.startsWith("B:/~BUN")
      ? process.cwd()
      : resolve(import.meta.dir, "../..");
  await buildData(parseArgs(args, root));
  return 0;
}
