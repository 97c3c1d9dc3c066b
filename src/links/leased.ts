// One link check at a time over every process that shares a state store (serve's scheduled run on each replica or
// worker, `check-links` from cron): the run takes the store's lease "link-check" (atomically; it expires after
// LEASE_TTL_MS), renews it while it runs and releases it at the end. A run that finds it taken checks nothing and
// says so; a run whose lease was taken over (it could not renew in time) stops.
import { hostname } from "node:os";
import type { StateStore } from "../state/store";
import { checkLinks, type CheckOptions, type Summary } from "./checker";

export const LINK_CHECK_LEASE = "link-check";
const LEASE_TTL_MS = 120_000;

/** Who holds a lease: host, process and a random tag (two runs in one process are two holders). */
function leaseHolder(): string {
  return `${hostname()}:${process.pid}:${crypto.randomUUID().slice(0, 8)}`;
}

/** checkLinks under the lease; null when another run holds it (logged). */
export async function checkUnderLease(
  store: StateStore,
  urls: string[],
  o: Omit<CheckOptions, "results">,
  log: (line: string) => void,
  ttlMs = LEASE_TTL_MS,
): Promise<Summary | null> {
  const holder = leaseHolder();
  const got = await store.takeLease(LINK_CHECK_LEASE, holder, ttlMs);
  if (!got.taken) {
    log(`link check: skipped: another run holds the lease (${got.holder}, until ${got.until})`);
    return null;
  }
  let lost = false;
  let renewedAt = Date.now();
  const renew = setInterval(async () => {
    try {
      if (await store.renewLease(LINK_CHECK_LEASE, holder, ttlMs)) renewedAt = Date.now();
      else lost = true;
    } catch {
      if (Date.now() - renewedAt >= ttlMs) lost = true; // expired meanwhile: another run may have it now
    }
    if (lost) {
      clearInterval(renew);
      log("link check: the lease was lost (not renewed in time): stopping this run");
    }
  }, ttlMs / 4);
  renew.unref?.();
  try {
    return await checkLinks(urls, { ...o, results: store.results, stopped: () => lost || (o.stopped?.() ?? false) });
  } finally {
    clearInterval(renew);
    if (!lost) await store.releaseLease(LINK_CHECK_LEASE, holder).catch(() => {});
  }
}
