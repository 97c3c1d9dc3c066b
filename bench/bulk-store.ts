// A parcel store file opened for a bench's synthetic bulk load: no journal, no sync, a large cache, and its
// secondary indexes dropped, to be built again once after the rows (a sort, rather than an update per row).
import { openForWrite } from "../src/parcels/schema";

export function openForBulkLoad(path: string, o: { spatialite?: boolean } = {}) {
  const { db } = openForWrite(path, o);
  db.run("PRAGMA synchronous = OFF");
  db.run("PRAGMA journal_mode = OFF");
  db.run("PRAGMA cache_size = -262144");
  const indexes = db
    .query("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'parcels' AND sql IS NOT NULL")
    .all() as { name: string; sql: string }[];
  for (const ix of indexes) db.run(`DROP INDEX ${ix.name}`);
  return {
    db,
    rebuildIndexes() {
      for (const ix of indexes) db.run(ix.sql);
    },
  };
}
