// The MCP server with the SDK's own client, over Streamable HTTP (in process, port 0) and over stdio (the CLI
// as a child process): list tools, call each, no owner field anywhere, owner requests refused, limits.
import { describe, expect, test, beforeAll, afterAll } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { join } from "node:path";
import { parcelsApp } from "../helpers/parcels-app";
import { fullDataFile } from "../helpers/data-file";
import { ROOT } from "../helpers/app";
import { Limiter } from "../../src/http/limits";
import { mcpContext } from "../../src/mcp/context";
import { serveHttp } from "../../src/mcp/transports";
import { SCREENING_UNAVAILABLE } from "../../src/mcp/screening";

const TOOLS = ["get_property_facts", "resolve_place", "screen_point", "search_directory"];
const OWNERISH = /owner|taxpayer|mailing|grantee|grantor/i;

/** Every key of a JSON value, at any depth. */
const keysOf = (v: unknown): string[] =>
  v && typeof v === "object" ? Object.entries(v).flatMap(([k, x]) => [k, ...keysOf(x)]) : [];
const json = (r: any) => JSON.parse(r.content[0].text);

async function exercise(client: Client) {
  const listed = await client.listTools();
  expect(listed.tools.map((t) => t.name).sort()).toEqual(TOOLS);
  for (const t of listed.tools) {
    expect(t.description!.length).toBeGreaterThan(40);
    expect(Object.keys((t.inputSchema as any).properties ?? {}).some((k) => OWNERISH.test(k))).toBe(false);
  }
  // by parcel number and county name
  const byApn = await client.callTool({
    name: "get_property_facts",
    arguments: { apn: "1020069017", county: "King County, WA" },
  });
  const f = json(byApn);
  expect(f.found).toBe(true);
  expect(f.parcel.apn).toBe("1020069017");
  expect(f.parcel.acres).toBeCloseTo(37.91, 2);
  expect(f.parcel.last_sale_date).toBe("2015-03-27");
  expect(f.parcel.parcel_map_url).toContain("ParcelNbr=1020069017");
  expect(f.jurisdictions.map((j: any) => j.jurisdiction_id)).toContain("county:53033");
  expect(Object.keys(f.who_assesses_collects_records).sort()).toEqual(["assessment", "recording", "tax_collection"]);
  expect(f.who_assesses_collects_records.assessment.jurisdiction_id).toBe("county:53033");
  expect(f.source.as_of).toBe("2015-05-27");
  expect(f.caveat).toContain("the county record is official");
  expect(keysOf(f).some((k) => OWNERISH.test(k))).toBe(false);
  // by point: the parcel's own point, then nearest within a distance
  const at = json(
    await client.callTool({ name: "get_property_facts", arguments: { lat: f.parcel.lat, lon: f.parcel.lon } }),
  );
  expect(at.parcel.apn).toBe("1020069017");
  expect(at.match.distance_m).toBe(0);
  const near = json(
    await client.callTool({
      name: "get_property_facts",
      arguments: { lat: f.parcel.lat + 0.0005, lon: f.parcel.lon, max_distance_m: 200 },
    }),
  );
  // about 55 m off: never "the property" — the nearest parcel, with its distance
  expect(near.found).toBe(false);
  expect(near.parcel).toBeNull();
  expect(near.nearest_parcel.apn).toBeTruthy();
  expect(near.nearest_parcel.distance_m).toBeGreaterThan(25);
  expect(near.nearest_parcel.distance_m).toBeLessThanOrEqual(200);
  expect(near.note).toContain("not the property at the point");
  expect(keysOf(near).some((k) => OWNERISH.test(k))).toBe(false);
  // structured content mirrors the text
  const nearRaw = await client.callTool({
    name: "get_property_facts",
    arguments: { lat: f.parcel.lat + 0.0005, lon: f.parcel.lon, max_distance_m: 200 },
  });
  expect((nearRaw as any).structuredContent.nearest_parcel.apn).toBe(near.nearest_parcel.apn);
  // the tools are read-only; resolve_place and screen_point may call outside services
  const annotations = Object.fromEntries(listed.tools.map((t) => [t.name, t.annotations]));
  for (const t of TOOLS) expect(annotations[t]?.readOnlyHint).toBe(true);
  expect(annotations.screen_point?.openWorldHint).toBe(true);
  expect(annotations.get_property_facts?.openWorldHint).toBe(false);
  for (const t of listed.tools) expect((t as any).outputSchema?.type).toBe("object");
  // a name that fits several places: the choices with ids and labels, no dead end
  const amb = await client.callTool({ name: "resolve_place", arguments: { place: "Springfield" } });
  expect(amb.isError).toBeFalsy();
  const ambJ = json(amb);
  expect(ambJ.ambiguous).toBe(true);
  expect(ambJ.choices.length).toBeGreaterThan(1);
  for (const c of ambJ.choices) {
    expect(c.jurisdiction_id).toMatch(/^(place|cousub|county):\d+$/);
    expect(typeof c.label).toBe("string");
  }
  // search_directory: places and official resources by name, never people
  const found = json(await client.callTool({ name: "search_directory", arguments: { q: "Hennepin", state: "MN" } }));
  expect(found.places.map((p: any) => p.jurisdiction_id)).toContain("county:27053");
  expect(keysOf(found).some((k) => OWNERISH.test(k))).toBe(false);
  // a county not licensed for API use: chain and offices, no parcel facts
  const lex = json(await client.callTool({ name: "get_property_facts", arguments: { lat: 38.05445, lon: -84.44284 } }));
  expect(lex.found).toBe(false);
  expect(lex.parcel).toBeNull();
  expect(lex.note).toContain("not licensed for API use");
  // which counties do have parcel facts here (loaded and licensed): King and Lucas, not Lexington-Fayette
  const here = lex.parcel_data_here.map((c: any) => c.county);
  expect(here).toContain("county:53033");
  expect(here).not.toContain("county:21067");
  expect(lex.jurisdictions.map((j: any) => j.jurisdiction_id)).toContain("county:21067");
  // nothing derived from that county's rows (issue 19, item 8): probes at several distances all look the same
  for (const [dlat, dist] of [
    [0, 50],
    [0.0004, 200],
    [0.002, 1000],
  ] as const) {
    const probe = json(
      await client.callTool({
        name: "get_property_facts",
        arguments: { lat: 38.05445 + dlat, lon: -84.44284, max_distance_m: dist },
      }),
    );
    expect(probe.match).toEqual({ by: "point", max_distance_m: dist, inside_parcel_shape: false, distance_m: null });
    expect(probe.parcel).toBeNull();
  }
  // owners: a plain refusal
  const refused = await client.callTool({
    name: "get_property_facts",
    arguments: { apn: "1020069017", county: "county:53033", fields: ["owner_name", "acres"] },
  });
  expect((refused.content as any)[0].text).toContain(
    "Owner names, owner rankings and owner searches are never available",
  );
  const asked = await client.callTool({
    name: "get_property_facts",
    arguments: { lat: f.parcel.lat, lon: f.parcel.lon, question: "Who owns this house?" },
  });
  expect((asked.content as any)[0].text).toMatch(/^Owner names, owner rankings and owner searches are never available/);
  // every owner-style field is refused by the one rule (camelCase, look-alike letters, digits for letters)
  for (const field of ["ownerName", "TaxpayerName", "mailing_address", "grantee", "оwner", "0wner", "purchaser"]) {
    const r = await client.callTool({
      name: "get_property_facts",
      arguments: { apn: "1020069017", county: "county:53033", fields: ["acres", field] },
    });
    expect([field, (r.content as any)[0].text.startsWith("Owner names, owner rankings")]).toEqual([field, true]);
  }
  // bad input: an error result, not a crash
  const bad = await client.callTool({ name: "get_property_facts", arguments: { apn: "1" } });
  expect(bad.isError).toBe(true);
  // resolve_place
  const place = json(
    await client.callTool({ name: "resolve_place", arguments: { place: "King County", state: "WA" } }),
  );
  expect(place.jurisdictions.map((j: any) => j.jurisdiction_id)).toEqual(["state:53", "county:53033"]);
  expect(place.who_does_what.assessment.jurisdiction_id).toBe("county:53033");
  const point = json(await client.callTool({ name: "resolve_place", arguments: { lat: 44.9778, lon: -93.265 } }));
  expect(point.jurisdictions.map((j: any) => j.jurisdiction_id)).toContain("county:27053");
  return client;
}

let P: Awaited<ReturnType<typeof parcelsApp>>;
beforeAll(async () => {
  P = await parcelsApp();
}, 600_000);

describe("Streamable HTTP", () => {
  let server: ReturnType<typeof serveHttp>;
  afterAll(() => server?.stop(true));

  test("list tools, call each; screening answers 'not available' without the screening service", async () => {
    // a server composed without screening
    server = serveHttp(mcpContext({ ...P.deps, screening: undefined }), "127.0.0.1", 0);
    const client = new Client({ name: "test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${server.port}/mcp`)));
    await exercise(client);
    const s = await client.callTool({ name: "screen_point", arguments: { lat: 44.9778, lon: -93.265 } });
    expect(s.isError).toBe(true);
    expect((s.content as any)[0].text).toBe(SCREENING_UNAVAILABLE);
    await client.close();
  }, 60_000);

  test("screen_point: the domain call (no HTTP to the app), labelled screening; the API's anonymous buckets untouched", async () => {
    const off = { enabled: false, base_url: "", timeout_ms: 100 };
    const deps = { ...P.deps };
    const { Screening } = await import("../../src/lookups/screening");
    deps.screening = new Screening({
      config: { ...P.deps.config.screening, flood: off, wetlands: off, soils: off, elevation: off } as any,
      layers: null,
      takeLookup: () => ({ ok: true, retryAfter: 0 }),
    } as any);
    const anon = () =>
      JSON.stringify([
        (deps.limiter as Limiter).buckets.anon_address.peek("127.0.0.1").remaining,
        (deps.limiter as Limiter).buckets.anon_all.peek("*").remaining,
      ]);
    const before = anon();
    const srv = serveHttp(mcpContext(deps), "127.0.0.1", 0);
    const client = new Client({ name: "test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${srv.port}/mcp`)));
    const r = json(await client.callTool({ name: "screen_point", arguments: { lat: 47.6, lon: -122.3 } }));
    expect(r.screening.kind).toBe("screening");
    expect(r.screening.facts.radon.status).toMatch(/^zone_[123]$/);
    expect(r.screening.facts.flood.summary).toBe("Not available on this server.");
    expect(r.caveat).toContain("never an official determination");
    expect(anon()).toBe(before); // no request to the app: the API's anonymous buckets did not move
    await client.close();
    srv.stop(true);
  });

  test("Streamable HTTP checks Host and Origin (DNS rebinding); page_urls use the configured base_url", async () => {
    const base = "https://directory.example.gov/v1";
    const deps = { ...P.deps, config: { ...P.deps.config, base_url: base } };
    const { pageLinksFor } = await import("../../src/domain/page-links");
    const { Directory } = await import("../../src/directory/directory");
    const { contentFromStore } = await import("../../src/directory/content");
    const { Database } = await import("bun:sqlite");
    const db = new Database(await fullDataFile(), { readonly: true });
    deps.directory = new Directory(db, contentFromStore(db), pageLinksFor(base));
    const srv = serveHttp(mcpContext(deps), "127.0.0.1", 0, "/mcp", base);
    const url = `http://127.0.0.1:${srv.port}/mcp`;
    const init = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    };
    const post = (headers: Record<string, string>) =>
      fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
        body: JSON.stringify(init),
      });
    expect((await post({ origin: "https://evil.example.com" })).status).toBe(403);
    expect((await post({ host: "evil.example.com" })).status).toBe(403);
    expect((await post({ origin: "https://directory.example.gov" })).status).toBe(200);
    expect((await post({})).status).toBe(200);
    const client = new Client({ name: "test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    const r = json(await client.callTool({ name: "resolve_place", arguments: { jurisdiction_id: "county:53033" } }));
    for (const j of r.jurisdictions) expect(j.page_url.startsWith("https://directory.example.gov/")).toBe(true);
    await client.close();
    srv.stop(true);
  });

  test("a server without parcel data: get_property_facts says so (not an error to retry)", async () => {
    const { NoParcelData } = await import("../../src/parcels/none");
    const deps = { ...P.deps, parcels: new NoParcelData() };
    const srv = serveHttp(mcpContext(deps), "127.0.0.1", 0);
    const client = new Client({ name: "test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${srv.port}/mcp`)));
    const r = await client.callTool({ name: "get_property_facts", arguments: { lat: 47.6, lon: -122.3 } });
    expect(r.isError).toBeFalsy();
    const f = json(r);
    expect(f.found).toBe(false);
    expect(f.note).toContain("This server holds no parcel data");
    expect(f.who_assesses_collects_records.assessment.jurisdiction_id).toBe("county:53033"); // who to ask, still
    await client.close();
    srv.stop(true);
  });

  test("calls draw from the anonymous list limit (all callers together)", async () => {
    const deps = {
      ...P.deps,
      limiter: new Limiter({ ...P.deps.config.limits, anon_list_all: { per_minute: 2, per_day: 100 } }, 100),
    };
    const srv = serveHttp(mcpContext(deps), "127.0.0.1", 0);
    const client = new Client({ name: "test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${srv.port}/mcp`)));
    const args = { name: "resolve_place", arguments: { jurisdiction_id: "county:53033" } };
    expect((await client.callTool(args)).isError).toBeFalsy();
    expect((await client.callTool(args)).isError).toBeFalsy();
    const third = await client.callTool(args);
    expect(third.isError).toBe(true);
    expect((third.content as any)[0].text).toMatch(/Rate limited.*retry after \d+ seconds/);
    await client.close();
    srv.stop(true);
  });
});

test("stdio: the CLI's `mcp` command with the SDK's stdio client", async () => {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(ROOT, "src/cli/main.ts"), "mcp", "--data", await fullDataFile(), "--parcels", P.file.path],
    // air-gapped screening: the four outside services switched off (no traffic leaves the machine); radon answers
    cwd: ROOT,
    env: {
      ...process.env,
      DIRECTORY_STATE_FILE: ":memory:",
      DIRECTORY_LIMITS__ANON_LIST_ALL__PER_MINUTE: "1000",
      DIRECTORY_SCREENING__FLOOD__ENABLED: "false",
      DIRECTORY_SCREENING__WETLANDS__ENABLED: "false",
      DIRECTORY_SCREENING__SOILS__ENABLED: "false",
      DIRECTORY_SCREENING__ELEVATION__ENABLED: "false",
    } as Record<string, string>,
    stderr: "pipe",
  });
  const client = new Client({ name: "test", version: "1.0.0" });
  await client.connect(transport);
  await exercise(client);
  // the real /v1/screening route, in-process: screening facts labelled as screening, never a determination
  const s = json(await client.callTool({ name: "screen_point", arguments: { lat: 47.6, lon: -122.3 } }));
  expect(s.screening.kind).toBe("screening");
  expect(s.screening.facts.radon.status).toMatch(/^zone_[123]$|^not_listed$/);
  expect(s.screening.facts.flood.status).toBe("unknown");
  expect(s.screening.facts.flood.detail).toMatch(/switched off on this server/);
  expect(s.screening.facts.flood.summary).toBe("Not available on this server.");
  expect(s.caveat).toContain("never an official determination");
  await client.close();
}, 120_000);
