// name_search (FTS5): jurisdiction names (kind 'place', not the country) and resource names (kind 'resource').
// A page read on an office's own site (source_kind hand-added) is also found by its office's name (its publisher,
// e.g. "Department of Buildings"), so search finds the office. Person names are never indexed.
import type { Database } from "bun:sqlite";

export function buildNameSearch(db: Database): { places: number; resources: number } {
  db.run(`INSERT INTO name_search (name, kind, ref, state)
          SELECT name, 'place', jurisdiction_id, state FROM jurisdictions WHERE type <> 'country' ORDER BY jurisdiction_id`);
  db.run(`INSERT INTO name_search (name, kind, ref, state)
          SELECT CASE WHEN r.source_kind = 'hand-added' AND r.publisher IS NOT NULL THEN r.name || ' ' || r.publisher
                      ELSE r.name END, 'resource', r.resource_id, j.state
          FROM resources r LEFT JOIN jurisdictions j USING (jurisdiction_id)
          ORDER BY r.resource_id`);
  const n = (k: string) => (db.query("SELECT count(*) AS n FROM name_search WHERE kind = ?").get(k) as { n: number }).n;
  db.run("INSERT INTO name_search(name_search) VALUES ('optimize')");
  return { places: n("place"), resources: n("resource") };
}
