// The parcel source a server uses: the parcel store file of the config, behind the guard (busy, timeout, 503);
// parcels.file "" → NoParcelData (every county no_data: this server holds no parcel data).
import type { Config } from "../config/config";
import { GuardedParcelSource } from "./guard";
import { SqliteParcelSource } from "./sqlite-source";
import type { ParcelSource } from "./source";
import { NoParcelData } from "./none";

export function parcelSourceFor(cfg: Config, log?: (s: string) => void, path = cfg.parcels.file): ParcelSource {
  const p = cfg.parcels;
  if (path === "") return new NoParcelData(); // not configured: a server without parcel data
  return new GuardedParcelSource(new SqliteParcelSource(path), {
    timeoutMs: p.query_timeout_ms,
    maxConcurrent: p.max_concurrent,
    retryAfterS: p.retry_after_s,
    log,
  });
}
