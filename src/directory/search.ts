// Name lookup over place names and resource names (FTS5 with prefix matching on every token). Person names are
// never indexed (the build indexes jurisdiction and resource names only).
//
// Score, best first: bm25 of the FTS5 match (lower is better), then an exact match of the whole normalised name
// before a prefix match, then places by type (county, county subdivision/place, state), then by id. One fixed
// order for every caller; a key raises how many are returned, never the order.
import type { Database, Statement } from "bun:sqlite";
import type { Store } from "./store";
import { tokens } from "./names";

interface SearchHit {
  kind: "place" | "resource";
  ref: string;
  name: string;
  score: number;
}

export class NameSearch {
  private readonly stmt: Statement<
    { name: string; kind: string; ref: string; state: string | null; score: number },
    [string, string, number]
  >;
  private readonly stmtState: Statement<
    { name: string; kind: string; ref: string; state: string | null; score: number },
    [string, string, string, number]
  >;

  constructor(
    db: Database,
    private readonly store: Store,
  ) {
    const base =
      "SELECT name, kind, ref, state, bm25(name_search) AS score FROM name_search WHERE name_search MATCH ? AND kind = ?";
    this.stmt = db.query(`${base} ORDER BY score, ref LIMIT ?`);
    this.stmtState = db.query(`${base} AND (state = ? OR state IS NULL) ORDER BY score, ref LIMIT ?`);
  }

  /** FTS5 query: each token as a prefix, all required. Tokens are [a-z0-9] only, so no FTS syntax can leak in. */
  static matchExpr(q: string): string | null {
    const t = tokens(q).slice(0, 12);
    return t.length ? t.map((x) => `"${x}"*`).join(" AND ") : null;
  }

  search(q: string, state: string | null, kind: "place" | "resource", limit: number): SearchHit[] {
    const expr = NameSearch.matchExpr(q);
    if (!expr) return [];
    const want = tokens(q).join(" ");
    const fetch = Math.min(limit * 5 + 20, 500);
    const rows = state ? this.stmtState.all(expr, kind, state, fetch) : this.stmt.all(expr, kind, fetch);
    const ok = rows.filter((r) => (kind === "place" ? !!this.store.jurisdiction(r.ref) : true));
    const exact = (n: string) => (tokens(n).join(" ") === want ? 0 : 1);
    ok.sort((a, b) => exact(a.name) - exact(b.name) || a.score - b.score || (a.ref < b.ref ? -1 : 1));
    return ok
      .slice(0, limit)
      .map((r) => ({ kind: r.kind as "place" | "resource", ref: r.ref, name: r.name, score: r.score }));
  }
}
