// The assistant-protocol (MCP) server, official SDK: tools get_property_facts, resolve_place and
// screen_point, with input schemas and descriptions an assistant can use. No tool has an owner field, and a
// request for owners is refused in plain words. Every call draws one token from the anonymous list limit.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { DomainError } from "../domain/errors";
import type { Directory } from "../directory/directory";
import type { ParcelSource } from "../parcels/source";
import { NoParcelData } from "../parcels/none";
import { propertyFacts, DEFAULT_DISTANCE_M, MAX_DISTANCE_M } from "./property-facts";
import { chainEntry, chainFacts, resolveChain } from "./chain";
import type { ScreeningClient } from "./screening";

export interface McpContext {
  directory: Directory | null;
  parcels: ParcelSource | null;
  screening: ScreeningClient;
  /** One token from the anonymous list-endpoint limit (spec part 8); false with seconds to wait when used up. */
  take: () => { ok: boolean; retryAfter: number } | Promise<{ ok: boolean; retryAfter: number }>;
  version: string;
  /** "King County, WA (county:53033)" … : the counties with parcel data here (filled at start) */
  parcelCounties?: string[];
}

type ToolResult = {
  content: { type: "text"; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
};
const text = (v: unknown, isError = false): ToolResult => ({
  content: [{ type: "text", text: typeof v === "string" ? v : JSON.stringify(v, null, 2) }],
  ...(isError ? { isError } : {}),
});
/** A JSON answer as text (for clients without structured content) and as structured content (output schema). */
const structured = (v: Record<string, unknown>, words?: string): ToolResult => ({
  content: [{ type: "text", text: words ?? JSON.stringify(v, null, 2) }],
  structuredContent: v,
});
const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true } as const;

async function guarded(ctx: McpContext, f: () => Promise<ToolResult> | ToolResult): Promise<ToolResult> {
  const taken = ctx.take();
  const t = taken instanceof Promise ? await taken : taken;
  if (!t.ok)
    return text(
      `Rate limited: the shared limit for assistant calls is used up; retry after ${t.retryAfter} seconds.`,
      true,
    );
  try {
    return await f();
  } catch (e) {
    // an ambiguous name is no dead end: the choices, with their ids and labels, as the API's 409 gives them
    if (e instanceof DomainError && e.suffix === "ambiguous" && e.extra.choices?.length)
      return structured({ ambiguous: true, detail: e.detail, choices: e.extra.choices });
    if (e instanceof DomainError) return text(`${e.suffix}: ${e.detail}`, true);
    return text("internal-error: the call could not be finished.", true);
  }
}

const any = z.any();
const list = z.array(z.any());
/** Output schemas (structured content): the fields each tool may return; every one optional, so an ambiguous name
 *  (choices) and a refusal fit the same tool. */
const CHAIN_OUT = {
  jurisdictions: list.optional(),
  who_does_what: z.record(z.string(), any).optional(),
  sources: list.optional(),
  notices: z.array(z.string()).optional(),
  ambiguous: z.boolean().optional(),
  detail: z.string().optional(),
  choices: list.optional(),
};
const FACTS_OUT = {
  found: z.boolean().optional(),
  match: any.optional(),
  county: z.string().nullable().optional(),
  parcel: any.optional(),
  nearest_parcel: any.optional(),
  jurisdictions: list.optional(),
  who_assesses_collects_records: any.optional(),
  note: z.string().optional(),
  notes: list.optional(),
  source: any.optional(),
  caveat: z.string().optional(),
  refusal: z.string().optional(),
  parcel_data_here: list.optional(),
  coverage: z.string().optional(),
};
const SCREEN_OUT = { screening: any, who_decides: any.optional(), notices: z.array(z.string()), caveat: z.string() };
const SEARCH_OUT = { places: list, resources: list };

const noDirectory = () => text("The directory data file is not loaded on this server.", true);

export function createMcpServer(ctx: McpContext): McpServer {
  const server = new McpServer({ name: "property-land-gis-directory", version: ctx.version });

  server.registerTool(
    "get_property_facts",
    {
      title: "Property facts for one parcel",
      description:
        "Facts of one parcel from the county data loaded on this server: parcel number, situs address, acres, " +
        "value and its label, last sale date and price, year built, parcel map link, the jurisdiction chain, " +
        "and who assesses, collects tax and records deeds there (with office links). Give apn with county (a " +
        'county id like county:53033 or a name like "King County, WA"), or lat and lon (the parcel at the ' +
        "point, or within a few metres of it; a parcel farther away is reported as the nearest parcel with its " +
        "distance, never as the property). Owner names are never available; the county record is official." +
        (ctx.parcelCounties?.length ? ` Parcel data on this server: ${ctx.parcelCounties.join("; ")}.` : ""),
      annotations: { title: "Property facts for one parcel", ...READ_ONLY, openWorldHint: false },
      outputSchema: FACTS_OUT,
      inputSchema: {
        apn: z.string().min(1).max(64).optional().describe("Parcel number as the county writes it (with county)."),
        county: z
          .string()
          .min(2)
          .max(100)
          .optional()
          .describe('County id (county:NNNNN) or name with state, e.g. "King County, WA".'),
        lat: z.number().min(-90).max(90).optional().describe("Latitude, WGS84 (with lon)."),
        lon: z.number().min(-180).max(180).optional().describe("Longitude, WGS84 (with lat)."),
        max_distance_m: z
          .number()
          .min(0)
          .max(MAX_DISTANCE_M)
          .optional()
          .describe(
            `With lat/lon: how far to look for the nearest parcel, metres (default ${DEFAULT_DISTANCE_M}, at most ${MAX_DISTANCE_M}).`,
          ),
        fields: z
          .array(z.string().max(50))
          .max(20)
          .optional()
          .describe("Optional: the facts wanted. Owner names are never available."),
        question: z
          .string()
          .max(200)
          .optional()
          .describe("Optional: the user's question in their words (a question about owners is refused)."),
      },
    },
    (args) =>
      guarded(ctx, async () => {
        const r = await propertyFacts(ctx.parcels ?? new NoParcelData(), ctx.directory, args);
        return "refusal" in r ? structured({ refusal: r.refusal }, r.refusal) : structured(r.facts);
      }),
  );

  server.registerTool(
    "resolve_place",
    {
      title: "Governments and offices for a place or point",
      description:
        "Which governments cover a place or a point (state, county, county subdivision, place, by Census " +
        "GEOID) and which body does each job there (assessment, tax collection, recording, zoning, permits, " +
        "GIS), with their offices and official links. Give exactly one of: lat and lon; jurisdiction_id (e.g. " +
        "county:53033); place (a county, city, town or township name) with state. A name that fits several " +
        "places answers ambiguous with its choices (ids and labels): ask again with the chosen jurisdiction_id.",
      annotations: { title: "Governments and offices for a place or point", ...READ_ONLY, openWorldHint: true },
      outputSchema: CHAIN_OUT,
      inputSchema: {
        lat: z.number().min(-90).max(90).optional(),
        lon: z.number().min(-180).max(180).optional(),
        jurisdiction_id: z
          .string()
          .regex(/^(state:\d{2}|county:\d{5}|cousub:\d{10}|place:\d{7})$/)
          .optional(),
        place: z
          .string()
          .min(2)
          .max(100)
          .optional()
          .describe("A county, city, town or township name; add the county after a comma to pick a town."),
        state: z
          .string()
          .regex(/^[A-Za-z]{2}$/)
          .optional()
          .describe("Two-letter state code (with place)."),
      },
    },
    (a) =>
      guarded(ctx, async () => {
        if (!ctx.directory) return noDirectory();
        const sels = [
          a.lat !== undefined || a.lon !== undefined,
          a.jurisdiction_id !== undefined,
          a.place !== undefined,
        ].filter(Boolean).length;
        if (sels !== 1 || (a.lat === undefined) !== (a.lon === undefined))
          return text("Give exactly one of: lat with lon; jurisdiction_id; place (with state).", true);
        const sel =
          a.lat !== undefined
            ? { lat: a.lat, lon: a.lon! }
            : a.jurisdiction_id
              ? { jurisdiction_id: a.jurisdiction_id }
              : { place: a.place!, state: a.state };
        return structured(chainFacts(await resolveChain(ctx.directory, sel)));
      }),
  );

  server.registerTool(
    "screen_point",
    {
      title: "Screening facts for a point",
      description:
        "Screening facts for the exact point: flood zone, wetlands, soils, elevation, radon zone, and " +
        "Minnesota shoreland. Screening only, never an official determination: each fact names the office " +
        "that decides (who_decides gives each deciding office once).",
      annotations: { title: "Screening facts for a point", ...READ_ONLY, openWorldHint: true },
      outputSchema: SCREEN_OUT,
      inputSchema: { lat: z.number().min(-90).max(90), lon: z.number().min(-180).max(180) },
    },
    (a) =>
      guarded(ctx, async () => {
        const r = await ctx.screening.screen(a.lat, a.lon);
        if (!r.ok) return text(r.message, true);
        return structured({
          ...compactScreening(r.data),
          notices: r.notices,
          caveat: "Screening only, never an official determination; each fact names who decides.",
        });
      }),
  );

  server.registerTool(
    "search_directory",
    {
      title: "Search places and official resources by name",
      description:
        "Find places (states, counties, towns, cities) and official resources (offices' pages, maps, guides) by " +
        "name, e.g. 'Springfield' or 'assessor Hennepin'. Never people. Each place has its jurisdiction_id for " +
        "resolve_place.",
      annotations: { title: "Search places and official resources by name", ...READ_ONLY, openWorldHint: false },
      outputSchema: SEARCH_OUT,
      inputSchema: {
        q: z.string().min(2).max(200).describe("Words of a place or resource name."),
        state: z
          .string()
          .regex(/^[A-Za-z]{2}$/)
          .optional()
          .describe("Two-letter state code to narrow the search."),
        limit: z.number().int().min(1).max(20).optional().describe("How many places and resources (default 10)."),
      },
    },
    (a) =>
      guarded(ctx, async () => {
        if (!ctx.directory) return noDirectory();
        ctx.directory.requireState(a.state);
        const r = ctx.directory.searchNames(a.q, a.state?.toUpperCase() ?? null, a.limit ?? 10);
        const d = r.data as { places: any[]; resources: any[] };
        return structured({
          places: d.places.map((p) => ({
            jurisdiction_id: p.jurisdiction_id,
            type: p.type,
            name: p.name,
            state: p.state ?? null,
            page_url: p.page_url,
          })),
          resources: d.resources.map((x) => ({
            name: x.name,
            url: x.url,
            jurisdiction_id: x.jurisdiction_id,
            topics: x.topics,
            official: x.official,
            verified_status: x.verified_status,
          })),
        });
      }),
  );

  return server;
}

/** screen_point's answer: the facts first, each naming who decides by office; each deciding office once. */
function compactScreening(data: any) {
  const who: Record<string, unknown> = {};
  const facts: Record<string, unknown> = {};
  for (const [k, f] of Object.entries<any>(data?.facts ?? {})) {
    const o = f.decided_by?.office ?? null;
    if (o && f.decided_by.function && !who[f.decided_by.function]) who[f.decided_by.function] = chainEntry(o);
    facts[k] = {
      status: f.status,
      summary: f.summary,
      detail: f.detail,
      values: f.values,
      dataset: f.dataset,
      publisher: f.publisher,
      as_of: f.as_of,
      caveat: f.caveat,
      decided_by: { description: f.decided_by?.description ?? null, function: f.decided_by?.function ?? null },
      links: (f.resources ?? []).slice(0, 3).map((r: any) => ({ name: r.name, url: r.url })),
    };
  }
  return {
    screening: { kind: data?.kind, point: data?.point, jurisdictions: data?.jurisdictions, facts },
    who_decides: who,
  };
}
