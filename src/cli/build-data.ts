// `directory build-data`: the same as `bun scripts/build-data.ts` (one argument parser, in scripts/build-data.ts).
import { resolve } from "node:path";

export async function runBuildData(args: string[]): Promise<number> {
  const { buildData, parseArgs } = await import("../../scripts/build-data");
  await buildData(parseArgs(args, resolve(import.meta.dir, "../..")));
  return 0;
}
