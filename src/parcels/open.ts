// The parcel source a server uses, behind the guard (busy, timeout, 503): config parcels.source, a postgres:// URL
// → the PostGIS database (postgis-source.ts, loaded by load-parcels --into); else the parcel store file
// parcels.file; both "" → NoParcelData (every county no_data: this server holds no parcel data).
import type { Config } from "../config/config";
import { GuardedParcelSource } from "./guard";
import { SqliteParcelSource } from "./sqlite-source";
import { PostgisParcelSource } from "./postgis-source";
import type { ParcelSource } from "./source";
import { NoParcelData } from "./none";

const isPostgresUrl = (s: string) => /^postgres(ql)?:\/\//.test(s);

/** `where`: a postgres:// URL or a store file (default: parcels.source when set, else parcels.file). */
export function parcelSourceFor(
  cfg: Config,
  log?: (s: string) => void,
  where = cfg.parcels.source || cfg.parcels.file,
): ParcelSource {
  const p = cfg.parcels;
  if (where === "") return new NoParcelData(); // not configured: a server without parcel data
  const inner = isPostgresUrl(where)
    ? new PostgisParcelSource(where, { timeoutMs: p.query_timeout_ms, max: p.max_concurrent })
    : new SqliteParcelSource(where);
  return new GuardedParcelSource(inner, {
    timeoutMs: p.query_timeout_ms,
    maxConcurrent: p.max_concurrent,
    retryAfterS: p.retry_after_s,
    log,
  });
}
