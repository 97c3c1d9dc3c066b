// Every command of the `directory` executable declared once: its options (parsed by Node's util.parseArgs, strict:
// an unknown option or a missing value is refused), the checks of their values, its positional arguments and the
// usage text printed by --help. main.ts dispatches; scripts/build-data.ts parses with the same declaration.
import { parseArgs } from "node:util";
import pkg from "../../package.json" with { type: "json" };
import { KINDS } from "../lookups/layers/schema";

export const VERSION: string = pkg.version;

interface OptionSpec {
  type: "string" | "boolean";
  short?: string;
  multiple?: boolean;
  /** placeholder in the usage text (string options) */
  value?: string;
  help: string;
  /** a message when the value is not acceptable, else null */
  check?: (v: string) => string | null;
}

interface CommandSpec {
  name: string;
  summary: string;
  /** positional arguments in the usage text ("FILE", "create|revoke KEY_ID|list") */
  args?: string;
  positionals: { min: number; max: number; names?: string };
  options: Record<string, OptionSpec>;
  /** more lines for --help */
  notes?: string[];
}

export class UsageError extends Error {}

const intIn = (lo: number, hi: number, what: string) => (v: string) =>
  /^\d+$/.test(v) && Number(v) >= lo && Number(v) <= hi ? null : `must be ${what} (got "${v}")`;
const oneOf = (xs: readonly string[]) => (v: string) =>
  xs.includes(v) ? null : `must be one of ${xs.join(", ")} (got "${v}")`;
const nonEmpty = (v: string) => (v.trim() ? null : "must not be empty");

const PORT = intIn(0, 65535, "a port number from 0 to 65535 (0: any free port)");
const CONFIG: OptionSpec = { type: "string", value: "FILE", help: "YAML config file (else $DIRECTORY_CONFIG)" };
const DATA: OptionSpec = { type: "string", value: "FILE", help: "the data file (directory.sqlite)", check: nonEmpty };
const STATE: OptionSpec = {
  type: "string",
  value: "FILE",
  help: "the state file (keys, link results)",
  check: nonEmpty,
};
const LAYERS: OptionSpec = { type: "string", value: "FILE", help: "the layers file (default: config layers_file)" };
const COMMON: Record<string, OptionSpec> = {
  help: { type: "boolean", short: "h", help: "print this usage and exit" },
  version: { type: "boolean", help: "print the version and exit" },
};

export const COMMANDS: CommandSpec[] = [
  {
    name: "serve",
    summary: "serve the /v1 API, the web pages (and MCP when configured) from a data file",
    positionals: { min: 0, max: 0 },
    options: {
      config: CONFIG,
      data: DATA,
      host: { type: "string", value: "H", help: "address to listen on (default 127.0.0.1)", check: nonEmpty },
      port: { type: "string", value: "N", help: "port to listen on (default 8080)", check: PORT },
      workers: {
        type: "string",
        value: "N|auto",
        help: "processes on the one port (default 1; auto: one per core); more than 1 needs limits_store file or redis",
        check: (v: string) =>
          v === "auto" || (/^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 256)
            ? null
            : "a number of workers from 1 to 256, or auto",
      },
    },
  },
  {
    name: "keys",
    summary: "API keys in the state store (state file or PostgreSQL): create one (shown once), revoke one, list them",
    args: "create --tier standard|partner [--label TEXT] | revoke KEY_ID | list",
    positionals: { min: 1, max: 2, names: "create|revoke KEY_ID|list" },
    options: {
      config: CONFIG,
      state: STATE,
      tier: {
        type: "string",
        value: "TIER",
        help: "create: standard or partner",
        check: oneOf(["standard", "partner"]),
      },
      label: { type: "string", value: "TEXT", help: "create: a label for the key (who holds it)" },
    },
  },
  {
    name: "build-data",
    summary: "build directory.sqlite from data/ and the staged inputs (runs from a checkout of the project)",
    positionals: { min: 0, max: 0 },
    options: {
      out: { type: "string", value: "FILE", help: "output file (default ./directory.sqlite)", check: nonEmpty },
      sources: { type: "string", value: "DIR|none", help: "staged inputs (default ../shared/data when present)" },
      records: { type: "string", multiple: true, value: "FILE", help: "extra records file (repeatable)" },
      download: { type: "boolean", help: "fetch the inputs named in data/sources.yaml first" },
      "dataset-version": { type: "string", value: "V", help: "the dataset version to stamp" },
      "no-coverage": { type: "boolean", help: "skip the coverage tables" },
    },
  },
  {
    name: "check-links",
    summary: "check every link of the data file once, politely; results to the state file",
    positionals: { min: 0, max: 0 },
    options: {
      config: CONFIG,
      data: DATA,
      state: STATE,
      limit: {
        type: "string",
        value: "N",
        help: "check only the first N links",
        check: intIn(1, 1e9, "a positive integer"),
      },
      url: { type: "string", multiple: true, value: "URL", help: "check only this URL (repeatable)" },
    },
  },
  {
    name: "load-boundaries",
    summary: "load an official town/township boundary file into the layers file (GDAL ogr2ogr)",
    args: "--kind cousub FILE | --list",
    positionals: { min: 0, max: 1, names: "FILE" },
    options: {
      config: CONFIG,
      kind: { type: "string", value: "KIND", help: "cousub (county subdivisions)", check: oneOf(["cousub"]) },
      layers: LAYERS,
      vintage: { type: "string", value: "YEAR", help: "the file's vintage", check: intIn(1990, 2100, "a year") },
      list: { type: "boolean", help: "list what is loaded" },
    },
  },
  {
    name: "load-layer",
    summary: "load an offline screening layer into the layers file (GDAL ogr2ogr)",
    args: `--kind ${KINDS.join("|")} FILE... [--extent FILE] | --list`,
    positionals: { min: 0, max: 8, names: "FILE" },
    options: {
      config: CONFIG,
      kind: {
        type: "string",
        value: "KIND",
        help: `${KINDS.join(", ")} (local_wetlands: a local wetland survey, drawn, never read as the NWI)`,
        check: oneOf(KINDS),
      },
      layers: LAYERS,
      publisher: { type: "string", value: "TEXT", help: "the publisher (default: the kind's)" },
      extent: {
        type: "string",
        value: "FILE",
        help: "a polygon file whose shape is the load's coverage (e.g. a city boundary for a city's clip)",
      },
      vintage: { type: "string", value: "DATE", help: "the publisher's date of the data" },
      state: {
        type: "string",
        value: "XX",
        help: "the state it covers",
        check: (v) => (/^[A-Za-z]{2}$/.test(v) ? null : `must be a two-letter state (got "${v}")`),
      },
      list: { type: "boolean", help: "list what is loaded" },
    },
  },
  {
    name: "load-parcels",
    summary: "load one county's parcels into the parcel store",
    args: "--county county:NNNNN --mapping FILE.yaml INPUT(.csv|.geojson|.topojson|.gpkg|.shp) [--join TABLE] [--store FILE | --into postgres://…]",
    positionals: { min: 1, max: 1, names: "INPUT" },
    options: {
      config: CONFIG,
      county: {
        type: "string",
        value: "ID",
        help: "the county (county:NNNNN)",
        check: (v) => (/^county:\d{5}$/.test(v) ? null : `must be county:NNNNN (got "${v}")`),
      },
      mapping: { type: "string", value: "FILE", help: "the mapping of the input's columns (YAML)" },
      join: {
        type: "string",
        value: "FILE",
        help: "the table the mapping's join: names, when it is not beside INPUT (e.g. the assessor's CSV)",
      },
      store: { type: "string", value: "FILE", help: "the parcel store (default: config parcels.file)" },
      into: {
        type: "string",
        value: "URL",
        help: "load into this PostgreSQL/PostGIS database instead of the store file (postgres://…; serve it with parcels.source)",
        check: (v) => (/^postgres(ql)?:\/\/.+/.test(v) ? null : `must be a postgres:// URL`),
      },
    },
  },
  {
    name: "health",
    summary:
      "ask a running server whether it answers (GET /v1/topics); exit 0 if it does, 1 if not (container health checks)",
    positionals: { min: 0, max: 0 },
    options: {
      config: CONFIG,
      url: {
        type: "string",
        value: "URL",
        help: "the API's base (default http://127.0.0.1:<port>/v1 from the config)",
        check: (v) => (/^https?:\/\/[^/]+/.test(v) ? null : `must be an http(s) URL (got "${v}")`),
      },
      "timeout-ms": {
        type: "string",
        value: "N",
        help: "give up after N ms (default 3000)",
        check: intIn(1, 600_000, "a positive number of milliseconds"),
      },
    },
  },
  {
    name: "mcp",
    summary: "the assistant-protocol (MCP) server over stdio, or Streamable HTTP with --http",
    positionals: { min: 0, max: 0 },
    options: {
      config: CONFIG,
      data: DATA,
      parcels: { type: "string", value: "FILE", help: "the parcel store (default: config parcels.file)" },
      http: { type: "boolean", help: "serve Streamable HTTP on its own port instead of stdio" },
      host: {
        type: "string",
        value: "H",
        help: "--http: address to listen on (default: config mcp.host)",
        check: nonEmpty,
      },
      port: { type: "string", value: "N", help: "--http: port (default: config mcp.port)", check: PORT },
    },
  },
];

export const commandNamed = (name: string) => COMMANDS.find((c) => c.name === name);

const optionWords = (name: string, o: OptionSpec) =>
  `${o.short ? `-${o.short}, ` : ""}--${name}${o.type === "string" ? ` ${o.value ?? "VALUE"}` : ""}`;

/** The usage text of one command: its synopsis, then one line per option. */
export function usageOf(c: CommandSpec): string {
  const opts = { ...c.options, ...COMMON };
  const synopsis = [
    `usage: directory ${c.name}`,
    c.args ?? "",
    ...Object.entries(c.options)
      .filter(([n]) => !c.args?.includes(`--${n}`))
      .map(([n, o]) => `[${optionWords(n, o)}]${o.multiple ? "..." : ""}`),
  ]
    .filter(Boolean)
    .join(" ");
  const rows = Object.entries(opts).map(([n, o]) => [optionWords(n, o), o.help + (o.multiple ? " (repeatable)" : "")]);
  const w = Math.max(...rows.map((r) => r[0]!.length));
  return [
    synopsis,
    `  ${c.summary}`,
    "",
    "options:",
    ...rows.map(([a, b]) => `  ${a!.padEnd(w)}  ${b}`),
    ...(c.notes ?? []),
  ].join("\n");
}

/** The usage of the whole executable: one line per command. */
export function mainUsage(): string {
  const w = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    `usage: directory <command> [options]       (directory <command> --help for its options)`,
    "",
    ...COMMANDS.map((c) => `  ${c.name.padEnd(w)}  ${c.summary}`),
    "",
    `  --version  print the version (${VERSION})`,
  ].join("\n");
}

export type Values = Record<string, string | boolean | string[] | undefined>;
export interface Parsed {
  values: Values;
  positionals: string[];
}

/** Parses one command's arguments; an unknown option, a missing or bad value, or a wrong number of positional
 *  arguments is a UsageError naming it. --help and --version are answered by the caller before anything runs. */
export function parseCommand(c: CommandSpec, args: string[]): Parsed {
  const opts = { ...c.options, ...COMMON };
  let parsed: { values: Values; positionals: string[] };
  try {
    parsed = parseArgs({
      args,
      options: Object.fromEntries(
        Object.entries(opts).map(([n, o]) => [
          n,
          { type: o.type, ...(o.short ? { short: o.short } : {}), ...(o.multiple ? { multiple: true } : {}) },
        ]),
      ),
      strict: true,
      allowPositionals: true,
    }) as { values: Values; positionals: string[] };
  } catch (e) {
    throw new UsageError(parseMessage(e as Error & { code?: string }));
  }
  const { values, positionals } = parsed;
  if (values.help || values.version) return parsed;
  for (const [n, o] of Object.entries(c.options)) {
    const v = values[n];
    if (v === undefined || !o.check) continue;
    for (const one of Array.isArray(v) ? v : [v]) {
      const why = o.check(String(one));
      if (why) throw new UsageError(`--${n} ${why}`);
    }
  }
  if (positionals.length > c.positionals.max)
    throw new UsageError(
      c.positionals.max === 0
        ? `unexpected argument "${positionals[c.positionals.max]}" (${c.name} takes options only)`
        : `unexpected argument "${positionals[c.positionals.max]}"`,
    );
  if (positionals.length < c.positionals.min) throw new UsageError(`missing ${c.positionals.names ?? "argument"}`);
  return parsed;
}

function parseMessage(e: Error & { code?: string }): string {
  const m = e.message.split("\n")[0] ?? "";
  const name = m.match(/'(-{1,2}[^' ]+)/)?.[1];
  if (e.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" && name) return `unknown option ${name}`;
  if (e.code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE" && name) {
    if (/argument missing|ambiguous/.test(m)) return `${name} needs a value`;
    return `${name} takes no value`;
  }
  return m;
}

export const str = (v: Values[string]): string | undefined => (typeof v === "string" ? v : undefined);
export const list = (v: Values[string]): string[] => (Array.isArray(v) ? v : typeof v === "string" ? [v] : []);
