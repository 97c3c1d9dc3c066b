// `directory mcp [--http] [--port N] [--host H] [--data FILE] [--parcels FILE] [--config FILE]`: the
// assistant-protocol server over stdio (default) or Streamable HTTP on its own port (config mcp.*).
import { loadConfig } from "../config/config";
import { buildDeps, composeApp, openData } from "./compose";
import { mcpContext } from "../mcp/context";
import { serveHttp, serveStdio } from "../mcp/transports";

export async function runMcp(
  cfgFile: string | null,
  args: string[],
  flag: (a: string[], n: string) => string | undefined,
): Promise<number> {
  const overrides: Record<string, unknown> = {};
  if (flag(args, "data")) overrides.data_file = flag(args, "data");
  const cfg = loadConfig(cfgFile, process.env, overrides as any);
  if (flag(args, "parcels")) cfg.parcels.file = flag(args, "parcels")!;
  if (flag(args, "port")) cfg.mcp.port = Number(flag(args, "port"));
  if (flag(args, "host")) cfg.mcp.host = flag(args, "host")!;
  const log = (s: string) => console.error(s); // stdout is the protocol in stdio mode
  const opened = await openData(cfg);
  const deps = buildDeps(cfg, opened, log);
  const ctx = mcpContext(deps, composeApp(deps));
  if (args.includes("--http")) {
    const server = serveHttp(ctx, cfg.mcp.host, cfg.mcp.port, cfg.mcp.path);
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
