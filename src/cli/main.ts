#!/usr/bin/env bun
// One CLI: serve | keys | build-data | check-links | load-boundaries | load-layer | load-parcels | mcp.
// `bun run build` compiles this file into one executable. Each command's options are declared once (commands.ts):
// --help/-h prints that command's usage and runs nothing; an unknown option or a bad value exits 2 naming it.
import { loadConfig } from "../config/config";
import { commandNamed, mainUsage, parseCommand, str, usageOf, UsageError, VERSION, type Parsed } from "./commands";

async function run(name: string, p: Parsed): Promise<number> {
  const v = p.values;
  const cfgFile = str(v.config) ?? process.env.DIRECTORY_CONFIG ?? null;
  const overrides: Record<string, unknown> = {};
  if (str(v.data)) overrides.data_file = str(v.data);
  if (str(v.state)) overrides.state_file = str(v.state);
  const cfg = () => loadConfig(cfgFile, process.env, overrides as any);
  switch (name) {
    case "serve": {
      if (str(v.host)) overrides.host = str(v.host);
      if (str(v.port)) overrides.port = Number(str(v.port));
      if (str(v.workers)) overrides.workers = str(v.workers) === "auto" ? 0 : Number(str(v.workers));
      const { runServe } = await import("./serve");
      return runServe(cfg());
    }
    case "keys": {
      const { runKeys } = await import("./keys");
      return runKeys(cfg(), p);
    }
    case "build-data": {
      const { runBuildData } = await import("./build-data");
      return runBuildData(p);
    }
    case "check-links": {
      const { runCheckLinks } = await import("./check-links");
      return runCheckLinks(cfg(), p);
    }
    case "load-layer": {
      const { runLoadLayer } = await import("./load-layer");
      return runLoadLayer(cfg(), p);
    }
    case "load-boundaries": {
      const { runLoadBoundaries } = await import("./load-boundaries");
      return runLoadBoundaries(cfg(), p);
    }
    case "load-parcels": {
      const { runLoadParcels } = await import("./load-parcels");
      return runLoadParcels(cfg(), p);
    }
    case "health": {
      const { runHealth } = await import("./health");
      return runHealth(cfg(), p);
    }
    case "mcp": {
      const { runMcp } = await import("./mcp");
      return runMcp(cfg(), p);
    }
  }
  return 2;
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (name === "--version" || name === "version") {
    console.log(`directory ${VERSION}`);
    return 0;
  }
  if (name === undefined || name === "help" || name === "--help" || name === "-h") {
    (name === undefined ? console.error : console.log)(mainUsage());
    return name === undefined ? 2 : 0;
  }
  const spec = commandNamed(name);
  if (!spec) {
    console.error(`error: unknown command "${name}"\n${mainUsage()}`);
    return 2;
  }
  let parsed: Parsed;
  try {
    parsed = parseCommand(spec, args);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    console.error(`error: ${name}: ${e.message}\n${usageOf(spec)}`);
    return 2;
  }
  if (parsed.values.help) {
    console.log(usageOf(spec));
    return 0;
  }
  if (parsed.values.version) {
    console.log(`directory ${VERSION}`);
    return 0;
  }
  return run(name, parsed);
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
