// directory load-boundaries --kind cousub FILE [--layers FILE] [--vintage YEAR]
//         load-boundaries --list
// Loads an official county-subdivision file into the layers file (config layers_file), so points in states whose
// town boundaries the data file does not hold are placed in their town offline.
import type { Config } from "../config/config";
import { loadBoundaries } from "../lookups/towns/load";
import { TownStore } from "../lookups/towns/store";
import { existsSync } from "node:fs";

export const LOAD_BOUNDARIES_USAGE =
  "usage: directory load-boundaries --kind cousub FILE [--layers FILE] [--vintage YEAR] | --list [--layers FILE]";

export function runLoadBoundaries(cfg: Config, args: string[]): number {
  const flag = (n: string) => {
    const i = args.indexOf(`--${n}`);
    return i >= 0 ? args[i + 1] : undefined;
  };
  if (args.includes("--help") || args.includes("-h")) {
    console.log(LOAD_BOUNDARIES_USAGE);
    return 0;
  }
  const layersFile = flag("layers") ?? cfg.layers_file;
  if (args.includes("--list")) {
    if (!existsSync(layersFile)) return 0;
    const s = new TownStore(layersFile);
    for (const r of s.list()) console.log(`${r.origin_kind}\t${r.dataset}\t${r.towns} towns\tstates ${r.states}`);
    s.close();
    return 0;
  }
  const valued = new Set(["kind", "layers", "vintage", "config"]);
  const file = args.find((a, i) => !a.startsWith("--") && !(i > 0 && valued.has(args[i - 1]!.slice(2))));
  if (flag("kind") !== "cousub" || !file) {
    console.error(LOAD_BOUNDARIES_USAGE);
    return 2;
  }
  if (!existsSync(file)) {
    console.error(`error: ${file}: no such file`);
    return 2;
  }
  try {
    const r = loadBoundaries({ file, layersFile, vintage: flag("vintage") });
    console.log(
      `loaded ${r.towns} county subdivisions (states ${r.states.join(", ")}) from ${file} into ${layersFile}${r.skipped ? `; ${r.skipped} features without a GEOID or polygon skipped` : ""} (sha256 ${r.sha256.slice(0, 12)}…)`,
    );
    return 0;
  } catch (e) {
    console.error(`error: ${(e as Error).message}`);
    return 1;
  }
}
