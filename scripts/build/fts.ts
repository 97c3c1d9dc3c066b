// name_search (FTS5): jurisdiction names (kind 'place', not the country) and resource names (kind 'resource').
// Office names and person names are never indexed.
import type { Database } from "bun:sqlite";

export function buildNameSearch(db: Database): { places: number; resources: number } {
  db.run(`INSERT INTO name_search (name, kind, ref, state)
          SELECT name, 'place', jurisdiction_id, state FROM jurisdictions WHERE type <> 'country' ORDER BY jurisdiction_id`);
  db.run(`INSERT INTO name_search (name, kind, ref, state)
          SELECT r.name, 'resource', r.resource_id, j.state FROM resources r LEFT JOIN jurisdictions j USING (jurisdiction_id)
          ORDER BY r.resource_id`);
  const n = (k: string) => (db.query("SELECT count(*) AS n FROM name_search WHERE kind = ?").get(k) as { n: number }).n;
  db.run("INSERT INTO name_search(name_search) VALUES ('optimize')");
  return { places: n("place"), resources: n("resource") };
}
