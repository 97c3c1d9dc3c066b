// Links inside `serve`: the view re-reads results written by a separate `check-links` run (cron, systemd timer)
// every links.reload_s, and, when links.schedule_hours > 0 (off by default; keep it off on an air-gapped mirror),
// the checker itself runs in the background: first when the last check is older than the interval (a minute after
// start at the earliest), then every interval. Runs never overlap; a failed run is logged and retried next time.
import type { Database } from "bun:sqlite";
import type { Config } from "../config/config";
import type { Links } from "../domain/links";
import { checkLinks, summaryLines, userAgentOf } from "./checker";
import { LinkResultsView } from "./overlay";
import { LinkResults } from "./results";
import { targetsOf } from "./targets";

const START_GRACE_MS = 60_000;

export function startLinkChecks(
  cfg: Config,
  data: Database | null,
  links: Links,
  log: (line: string) => void,
): () => void {
  const view = links.results instanceof LinkResultsView ? links.results : null;
  if (!view) return () => {};
  const stopWatch = view.watch(cfg.links.reload_s);
  const hours = cfg.links.schedule_hours;
  if (!(hours > 0) || !data) return stopWatch;
  userAgentOf(cfg.links); // refuse to start without a contact, at start rather than hours later
  const results = new LinkResults(view.db);
  const everyMs = hours * 3_600_000;
  let stopped = false;
  let running = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const run = async () => {
    if (running || stopped) return;
    running = true;
    try {
      const { urls } = targetsOf(data);
      log(`link check: ${urls.length} links`);
      const s = await checkLinks(urls, { cfg: cfg.links, results, view, stopped: () => stopped });
      for (const l of summaryLines(s)) log(`link check: ${l.trim()}`);
    } catch (e) {
      log(`link check failed: ${(e as Error).message}`);
    } finally {
      running = false;
      if (!stopped) {
        timer = setTimeout(run, everyMs);
        timer.unref?.();
      }
    }
  };
  const last = view.db.query<{ at: string | null }, []>("SELECT max(checked_at) AS at FROM link_results").get()?.at;
  const due = last ? Math.max(START_GRACE_MS, Date.parse(last) + everyMs - Date.now()) : START_GRACE_MS;
  timer = setTimeout(run, due);
  timer.unref?.();
  log(`link check: every ${hours} h, next in ${Math.round(due / 60_000)} min`);
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    stopWatch();
  };
}
