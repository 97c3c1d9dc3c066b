import { wildcardWithoutBaseUrl, type Config } from "../config/config";
import { startFront, type Front } from "../http/server";
import { buildDeps, composeApp, mountMcp, openData } from "./compose";
import { startLinkChecks } from "../links/schedule";
import { startMemoryLimit } from "./memory-limit";
import { safeUrl } from "../domain/safe-url";
import { runPrimary, workerCount, workerRole, workersRefused } from "./workers";

export async function runServe(cfg: Config): Promise<number> {
  const wildcard = wildcardWithoutBaseUrl(cfg);
  if (wildcard) {
    console.error(`error: ${wildcard}`);
    return 2;
  }
  const role = workerRole();
  const n = workerCount(cfg);
  const refused = workersRefused(cfg, n);
  if (refused) {
    console.error(`error: serve: ${refused}`);
    return 2;
  }
  // a missing data file stops serve at start, as the executable does: the YAML alone cannot answer resolve,
  // resources, places, search or screening (they would be 500s)
  const opened = await openData(cfg);
  if (!role && n > 1) {
    opened.db?.close(); // checked here, so a bad data file stops the primary, not N workers in a loop
    return runPrimary(cfg, n, (line) => console.error(line));
  }
  if (role) cfg.port = role.port;
  const deps = buildDeps(cfg, opened, (line) => console.error(line));
  const app = composeApp(deps);
  if (cfg.mcp.in_serve) mountMcp(deps);
  const server = await startFront(cfg.front, app, cfg.host, cfg.port, role !== null);
  // reload results; background checks if scheduled (by one worker only)
  const checks = role && role.index > 0 ? { ...cfg, links: { ...cfg.links, schedule_hours: 0 } } : cfg;
  startLinkChecks(checks, opened.db, deps.links, (line) => console.error(line));
  startMemoryLimit({ limitMb: cfg.memory_limit_mb, log: (line) => console.error(line) });
  const origin = `http://${server.hostname}:${server.port}`;
  console.log(
    `${role ? `worker ${role.index}: ` : ""}serving ${cfg.base_url} on ${origin}/v1 (data: ${cfg.data_file}, as_of ${deps.asOf}); pages at ${origin}/${cfg.mcp.in_serve ? `; MCP at ${origin}${cfg.mcp.path}` : ""}`,
  );
  if (deps.parcels?.holdsNone?.())
    console.log(
      `parcels: none on this server (${cfg.parcels.file ? `no file at ${cfg.parcels.file}` : "parcels.file is empty"}): county-data answers no_data for every county (load one with directory load-parcels)`,
    );
  else {
    // the store the parcels come from: the PostGIS database (printed without its password) or the file
    const where = cfg.parcels.source ? safeUrl(cfg.parcels.source) : cfg.parcels.file;
    deps.parcels?.counties().then(
      (cs) =>
        console.log(
          `parcels: ${where}: ${cs.length ? cs.map((c) => `${c.countyId}${c.apiUse ? "" : " (not licensed for API use: no_data)"}`).join(", ") : "no county loaded (county-data answers no_data)"}`,
        ),
      () =>
        console.log(
          `parcels: no usable parcel store at ${where}: county-data answers 503 until one is loaded (directory load-parcels)`,
        ),
    );
  }
  return stopOnSignal(server, cfg.timeouts.shutdown_grace_ms, (line) => console.error(line));
}

/** Graceful stop on SIGTERM or SIGINT: stop accepting at once, let the requests in flight finish within the
 * grace period, then cut what is left and resolve 0 (the process exits 0). A second signal cuts at once. */
function stopOnSignal(server: Front, graceMs: number, log: (line: string) => void): Promise<number> {
  return new Promise((resolve) => {
    let stopping = false;
    const stop = async (signal: string) => {
      if (stopping) {
        server.stop(true);
        resolve(0);
        return;
      }
      stopping = true;
      log(
        `${signal}: stopped accepting; finishing ${server.pendingRequests} request(s) in flight (grace ${graceMs} ms)`,
      );
      void server.stop(false); // closes the listener; requests in flight go on
      const until = performance.now() + graceMs;
      while (server.pendingRequests > 0 && performance.now() < until) await Bun.sleep(10);
      if (server.pendingRequests > 0) log(`grace period over: cutting ${server.pendingRequests} request(s)`);
      server.stop(true);
      resolve(0);
    };
    process.on("SIGTERM", () => void stop("SIGTERM"));
    process.on("SIGINT", () => void stop("SIGINT"));
  });
}
