// `directory mcp [--http] [--port N] [--host H] [--data FILE] [--parcels FILE] [--config FILE]`: the
// assistant-protocol server over stdio (default) or Streamable HTTP on its own port (config mcp.*).
import type { Config } from "../config/config";
import { buildDeps, openData } from "./compose";
import { mcpContext } from "../mcp/context";
import { serveHttp, serveStdio } from "../mcp/transports";
import { str, type Parsed } from "./commands";

export async function runMcp(cfg: Config, p: Parsed): Promise<number> {
  if (str(p.values.parcels)) cfg.parcels.file = str(p.values.parcels)!;
  if (str(p.values.port)) cfg.mcp.port = Number(str(p.values.port));
  if (str(p.values.host)) cfg.mcp.host = str(p.values.host)!;
  const log = (s: string) => console.error(s); // stdout is the protocol in stdio mode
  const opened = await openData(cfg);
  const deps = buildDeps(cfg, opened, log);
  const ctx = mcpContext(deps);
  if (p.values.http) {
    const server = serveHttp(ctx, cfg.mcp.host, cfg.mcp.port, cfg.mcp.path, cfg.base_url);
    console.error(
      `mcp: Streamable HTTP on http://${server.hostname}:${server.port}${cfg.mcp.path} (data: ${cfg.data_file}, parcels: ${cfg.parcels.file})`,
    );
  } else {
    await serveStdio(ctx);
    console.error(`mcp: stdio (data: ${cfg.data_file}, parcels: ${cfg.parcels.file})`);
  }
  await new Promise(() => {});
  return 0;
}
