// directory load-layer --kind flood|wetlands|shoreland|soils FILE [--layers FILE] [--publisher TEXT] [--vintage DATE] [--state XX]
//         load-layer --list
// Loads a publisher's download into the layers file (config layers_file) for offline screening.
import type { Config } from "../config/config";
import { loadLayer } from "../lookups/layers/load";
import { LayerStore } from "../lookups/layers/store";
import { KINDS, type Kind } from "../lookups/layers/schema";

const USAGE =
  "usage: directory load-layer --kind flood|wetlands|shoreland|soils FILE [--layers FILE] [--publisher TEXT] [--vintage DATE] [--state XX] | --list";

export function runLoadLayer(cfg: Config, args: string[]): number {
  const flag = (n: string) => {
    const i = args.indexOf(`--${n}`);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const layersFile = flag("layers") ?? cfg.layers_file;
  if (args.includes("--list")) {
    const store = LayerStore.open(layersFile);
    for (const l of store?.list() ?? [])
      console.log(
        `${l.id}\t${l.kind}\t${l.origin.dataset}\t${l.origin.publisher}\t${l.tables.map((t) => `${t.tag}:${t.features}`).join(",")}`,
      );
    return 0;
  }
  const kind = flag("kind") as Kind | undefined;
  const valued = new Set(["kind", "layers", "publisher", "vintage", "state", "config"]);
  const file = args.find((a, i) => !a.startsWith("--") && !(i > 0 && valued.has(args[i - 1]!.slice(2))));
  if (!kind || !KINDS.includes(kind) || !file) {
    console.error(USAGE);
    return 2;
  }
  const r = loadLayer({
    kind,
    file,
    layersFile,
    publisher: flag("publisher"),
    vintage: flag("vintage"),
    state: flag("state"),
    log: (s) => console.log(s),
  });
  console.log(
    `loaded ${kind} from ${file} as load ${r.loadId} into ${layersFile}: ${r.tables.map((t) => `${t.tag} ${t.features} features`).join(", ")} (sha256 ${r.sha256.slice(0, 12)}…)`,
  );
  return 0;
}
