// directory load-boundaries --kind cousub FILE [--layers FILE] [--vintage YEAR]
//         load-boundaries --list
// Loads an official county-subdivision file into the layers file (config layers_file), so points in states whose
// town boundaries the data file does not hold are placed in their town offline.
import type { Config } from "../config/config";
import { loadBoundaries } from "../lookups/towns/load";
import { TownStore } from "../lookups/towns/store";
import { existsSync } from "node:fs";
import { commandNamed, str, usageOf, type Parsed } from "./commands";

export function runLoadBoundaries(cfg: Config, p: Parsed): number {
  const layersFile = str(p.values.layers) ?? cfg.layers_file;
  if (p.values.list) {
    if (!existsSync(layersFile)) return 0;
    const s = new TownStore(layersFile);
    for (const r of s.list()) console.log(`${r.origin_kind}\t${r.dataset}\t${r.towns} towns\tstates ${r.states}`);
    s.close();
    return 0;
  }
  const file = p.positionals[0];
  if (!str(p.values.kind) || !file) {
    console.error(
      `error: load-boundaries: needs --kind cousub and FILE (or --list)\n${usageOf(commandNamed("load-boundaries")!)}`,
    );
    return 2;
  }
  if (!existsSync(file)) {
    console.error(`error: ${file}: no such file`);
    return 2;
  }
  try {
    const r = loadBoundaries({ file, layersFile, vintage: str(p.values.vintage) });
    console.log(
      `loaded ${r.towns} county subdivisions (states ${r.states.join(", ")}) from ${file} into ${layersFile}${r.skipped ? `; ${r.skipped} features without a GEOID or polygon skipped` : ""} (sha256 ${r.sha256.slice(0, 12)}…)`,
    );
    return 0;
  } catch (e) {
    console.error(`error: ${(e as Error).message}`);
    return 1;
  }
}
