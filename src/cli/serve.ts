import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "../config/config";
import { startServer } from "../http/server";
import { buildDeps, composeApp, openData } from "./compose";
import { startLinkChecks } from "../links/schedule";

export async function runServe(cfg: Config): Promise<number> {
  const yamlDir = existsSync(join(process.cwd(), "data", "topics.yaml")) ? join(process.cwd(), "data") : null;
  const opened = await openData(cfg, yamlDir);
  const deps = buildDeps(cfg, opened, (line) => console.error(line));
  const app = composeApp(deps);
  const server = startServer(app, cfg.host, cfg.port);
  startLinkChecks(cfg, opened.db, deps.links, (line) => console.error(line)); // reload results; background checks if scheduled
  console.log(`serving ${cfg.base_url} on http://${server.hostname}:${server.port}/v1 (data: ${opened.db ? cfg.data_file : "data/*.yaml"}, as_of ${deps.asOf})`);
  await new Promise(() => {});
  return 0;
}
