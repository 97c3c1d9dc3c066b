// Links inside `serve`: the view re-reads results written by a separate `check-links` run (cron, systemd timer)
// every links.reload_s, and, when links.schedule_hours > 0 (off by default; keep it off on an air-gapped mirror),
// the checker itself runs in the background: first when the last check is older than the interval (a minute after
// start at the earliest), then every interval. Runs never overlap, here or anywhere else sharing the state store
// (the lease of leased.ts: a replica that finds it taken skips, saying so); a failed run is logged and retried
// next time. With PostgreSQL (state_store) the view also hears each row as it is written (src/state/postgres.ts).
import type { Database } from "bun:sqlite";
import type { Config } from "../config/config";
import type { PageLinks } from "../domain/page-links";
import { storeOfView } from "../state/open";
import { summaryLines, userAgentOf } from "./checker";
import { checkUnderLease } from "./leased";
import { targetsOf } from "./targets";

const START_GRACE_MS = 60_000;

export function startLinkChecks(
  cfg: Config,
  data: Database | null,
  links: PageLinks,
  log: (line: string) => void,
): () => void {
  const store = storeOfView(links.results);
  if (!store) return () => {};
  const view = store.view;
  const stopWatch = view.watch(cfg.links.reload_s);
  const hours = cfg.links.schedule_hours;
  if (!(hours > 0) || !data) return stopWatch;
  userAgentOf(cfg.links); // refuse to start without a contact, at start rather than hours later
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
      const s = await checkUnderLease(store, urls, { cfg: cfg.links, view, stopped: () => stopped }, log);
      if (s) for (const l of summaryLines(s)) log(`link check: ${l.trim()}`);
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
  const first = (last: string | null) => {
    if (stopped) return;
    const due = last ? Math.max(START_GRACE_MS, Date.parse(last) + everyMs - Date.now()) : START_GRACE_MS;
    timer = setTimeout(run, due);
    timer.unref?.();
    log(`link check: every ${hours} h, next in ${Math.round(due / 60_000)} min`);
  };
  const last = store.results.lastCheckedAt();
  if (last instanceof Promise) last.then(first, () => first(null));
  else first(last);
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    stopWatch();
  };
}
