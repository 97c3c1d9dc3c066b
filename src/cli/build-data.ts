import { resolve } from "node:path";
import { flag } from "./main";

export async function runBuildData(args: string[]): Promise<number> {
  const { buildData } = await import("../../scripts/build-data");
  const root = resolve(import.meta.dir, "../..");
  const sources = flag(args, "sources");
  const out = resolve(flag(args, "out") ?? "directory.sqlite");
  const sourcesDir = sources === "none" ? null : sources ? resolve(sources) : undefined;
  await buildData({ out, sourcesDir: sourcesDir as any, projectRoot: root, log: (s: string) => console.log(s) });
  return 0;
}
