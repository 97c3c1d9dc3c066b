// The parcel source a server uses: the parcel store file of the config, behind the guard (busy, timeout, 503).
import type { Config } from "../config/config";
import { GuardedParcelSource } from "./guard";
import { SqliteParcelSource } from "./sqlite-source";
import type { ParcelSource } from "./source";

export function parcelSourceFor(cfg: Config, log?: (s: string) => void, path = cfg.parcels.file): ParcelSource {
  const p = cfg.parcels;
  return new GuardedParcelSource(new SqliteParcelSource(path), {
    timeoutMs: p.query_timeout_ms,
    maxConcurrent: p.max_concurrent,
    retryAfterS: p.retry_after_s,
    log,
  });
}
