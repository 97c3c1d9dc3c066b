import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "../config/config";
import { startServer } from "../http/server";
import { buildDeps, composeApp, openData } from "./compose";

export async function runServe(cfg: Config): Promise<number> {
  const yamlDir = existsSync(join(process.cwd(), "data", "topics.yaml")) ? join(process.cwd(), "data") : null;
  const opened = await openData(cfg, yamlDir);
  const deps = buildDeps(cfg, opened, (line) => console.error(line));
  const app = composeApp(deps);
  const server = startServer(app, cfg.host, cfg.port);
  console.log(`serving ${cfg.base_url} on http://${server.hostname}:${server.port}/v1 (data: ${opened.db ? cfg.data_file : "data/*.yaml"}, as_of ${deps.asOf})`);
  deps.parcels?.counties().then(
    (cs) => console.log(`parcels: ${cfg.parcels.file}: ${cs.length ? cs.map((c) => `${c.countyId}${c.apiUse ? "" : " (not licensed for API use: no_data)"}`).join(", ") : "no county loaded (county-data answers no_data)"}`),
    () => console.log(`parcels: no usable parcel store at ${cfg.parcels.file}: county-data answers 503 until one is loaded (directory load-parcels)`),
  );
  await new Promise(() => {});
  return 0;
}
