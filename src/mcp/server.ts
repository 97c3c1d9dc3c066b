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
import { chainFacts, resolveChain } from "./chain";
import type { ScreeningClient } from "./screening";

export interface McpContext {
  directory: Directory | null;
  parcels: ParcelSource | null;
  screening: ScreeningClient;
  /** One token from the anonymous list-endpoint limit (spec part 8); false with seconds to wait when used up. */
  take: () => { ok: boolean; retryAfter: number };
  version: string;
}

type ToolResult = { content: { type: "text"; text: string }[]; isError?: boolean };
const text = (v: unknown, isError = false): ToolResult => ({
  content: [{ type: "text", text: typeof v === "string" ? v : JSON.stringify(v, null, 2) }],
  ...(isError ? { isError } : {}),
});

async function guarded(ctx: McpContext, f: () => Promise<ToolResult> | ToolResult): Promise<ToolResult> {
  const t = ctx.take();
  if (!t.ok)
    return text(
      `Rate limited: the shared limit for assistant calls is used up; retry after ${t.retryAfter} seconds.`,
      true,
    );
  try {
    return await f();
  } catch (e) {
    if (e instanceof DomainError) return text(`${e.suffix}: ${e.detail}`, true);
    return text("internal-error: the call could not be finished.", true);
  }
}

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
        "point, or the nearest within max_distance_m). Owner names are never available; the county record is " +
        "official.",
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
        return "refusal" in r ? text(r.refusal) : text(r.facts);
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
        "county:53033); place (a county, city, town or township name) with state.",
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
        return text(chainFacts(await resolveChain(ctx.directory, sel)));
      }),
  );

  server.registerTool(
    "screen_point",
    {
      title: "Screening facts for a point",
      description:
        "Screening facts for the exact point: flood zone, wetlands, soils, elevation, radon zone, and " +
        "Minnesota shoreland. Screening only, never an official determination: each fact names the office " +
        "that decides.",
      inputSchema: { lat: z.number().min(-90).max(90), lon: z.number().min(-180).max(180) },
    },
    (a) =>
      guarded(ctx, async () => {
        const r = await ctx.screening.screen(a.lat, a.lon);
        if (!r.ok) return text(r.message, true);
        return text({
          screening: r.data,
          notices: r.notices,
          caveat: "Screening only, never an official determination; each fact names who decides.",
        });
      }),
  );

  return server;
}
