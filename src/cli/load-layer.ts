// directory load-layer --kind flood|wetlands|shoreland|soils FILE... [--extent FILE] [--layers FILE] [--publisher TEXT] [--vintage DATE] [--state XX]
//         load-layer --list
// Loads a publisher's download into the layers file (config layers_file) for offline screening.
import type { Config } from "../config/config";
import { loadLayer } from "../lookups/layers/load";
import { LayerStore } from "../lookups/layers/store";
import type { Kind } from "../lookups/layers/schema";
import { commandNamed, str, usageOf, type Parsed } from "./commands";

export function runLoadLayer(cfg: Config, p: Parsed): number {
  const layersFile = str(p.values.layers) ?? cfg.layers_file;
  if (p.values.list) {
    const store = LayerStore.open(layersFile);
    for (const l of store?.list() ?? [])
      console.log(
        `${l.id}\t${l.kind}\t${l.origin.dataset}\t${l.origin.publisher}\t${l.tables.map((t) => `${t.tag}:${t.features}`).join(",")}`,
      );
    return 0;
  }
  const kind = str(p.values.kind) as Kind | undefined;
  const files = p.positionals;
  const file = files.length > 1 ? files : files[0];
  if (!kind || !file) {
    console.error(`error: load-layer: needs --kind and FILE (or --list)\n${usageOf(commandNamed("load-layer")!)}`);
    return 2;
  }
  const r = loadLayer({
    kind,
    file,
    layersFile,
    extent: str(p.values.extent),
    publisher: str(p.values.publisher),
    vintage: str(p.values.vintage),
    state: str(p.values.state),
    log: (s) => console.log(s),
  });
  console.log(
    `loaded ${kind} from ${files.join(", ")} as load ${r.loadId} into ${layersFile}: ${r.tables.map((t) => `${t.tag} ${t.features} features`).join(", ")} (sha256 ${r.sha256.slice(0, 12)}…)`,
  );
  return 0;
}
