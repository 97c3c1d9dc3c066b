#!/usr/bin/env bun
// One CLI: serve | keys | build-data | load-parcels | mcp. `bun run build` compiles this file into one executable.
import { loadConfig } from "../config/config";
import { runKeys } from "./keys";
import { runServe } from "./serve";

const USAGE = `usage: directory <command> [options]
  serve       [--config FILE] [--data FILE] [--host H] [--port N]   serve the /v1 API from a data file
  keys        create --tier standard|partner --label TEXT | revoke KEY_ID | list   [--config FILE] [--state FILE]
  build-data  [--out FILE] [--sources DIR|none]                     build directory.sqlite from data/ and inputs
  check-links [--config FILE] [--data FILE] [--state FILE] [--limit N] [--url URL]...   check links, results to the state file
  load-boundaries --kind cousub FILE [--layers FILE] [--vintage YEAR] | --list
                                                                    load town/township boundaries (GDAL ogr2ogr)
  load-layer  --kind flood|wetlands|shoreland|soils FILE [--layers FILE] [--publisher T] [--vintage D] [--state XX] | --list
                                                                    load an offline screening layer (GDAL ogr2ogr)
  load-parcels --county county:NNNNN --mapping FILE.yaml [--store FILE] INPUT   load one county into parcels.sqlite
  mcp         [--http] [--port N] [--config FILE] [--data FILE]     assistant-protocol server (stdio, or Streamable HTTP)`;

export function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
}

async function main(argv: string[]): Promise<number> {
  const [cmd, ...args] = argv;
  const cfgFile = flag(args, "config") ?? process.env.DIRECTORY_CONFIG ?? null;
  switch (cmd) {
    case "serve": {
      const overrides: Record<string, unknown> = {};
      if (flag(args, "data")) overrides.data_file = flag(args, "data");
      if (flag(args, "host")) overrides.host = flag(args, "host");
      if (flag(args, "port")) overrides.port = Number(flag(args, "port"));
      return runServe(loadConfig(cfgFile, process.env, overrides as any));
    }
    case "keys": {
      const overrides: Record<string, unknown> = {};
      if (flag(args, "state")) overrides.state_file = flag(args, "state");
      return runKeys(loadConfig(cfgFile, process.env, overrides as any), args);
    }
    case "build-data": {
      const { runBuildData } = await import("./build-data");
      return runBuildData(args);
    }
    case "check-links": {
      const overrides: Record<string, unknown> = {};
      if (flag(args, "data")) overrides.data_file = flag(args, "data");
      if (flag(args, "state")) overrides.state_file = flag(args, "state");
      const { runCheckLinks } = await import("./check-links");
      return runCheckLinks(loadConfig(cfgFile, process.env, overrides as any), args);
    }
    case "load-layer": {
      const { runLoadLayer } = await import("./load-layer");
      return runLoadLayer(loadConfig(cfgFile, process.env), args);
    }
    case "load-boundaries": {
      const { runLoadBoundaries } = await import("./load-boundaries");
      return runLoadBoundaries(loadConfig(cfgFile, process.env), args);
    }
    case "load-parcels": {
      const { runLoadParcels } = await import("./load-parcels");
      return runLoadParcels(loadConfig(cfgFile, process.env), args, flag);
    }
    case "mcp": {
      const { runMcp } = await import("./mcp");
      return runMcp(cfgFile, args, flag);
    }
    default:
      console.error(USAGE);
      return cmd === "help" || cmd === "--help" ? 0 : 2;
  }
}

if (import.meta.main) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err) => {
      console.error(`error: ${(err instanceof Error ? err.message : String(err)).replace(/\s*\n\s*/g, " ")}`);
      process.exit(1);
    },
  );
}
