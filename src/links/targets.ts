// The URLs to check: every documented resource, office and source URL of the data file (http and https only),
// each URL once however many records carry it. Read-only; the data file is never written.
import type { Database } from "bun:sqlite";

interface Targets {
  urls: string[];
  resources: number;
  offices: number;
  sources: number;
}

export function targetsOf(db: Database): Targets {
  const q = (sql: string) =>
    db
      .query<{ url: string }, []>(sql)
      .all()
      .map((r) => r.url)
      .filter((u) => /^https?:\/\//i.test(u));
  const resources = q("SELECT DISTINCT url FROM resources WHERE documented = 1 AND url IS NOT NULL");
  const offices = q("SELECT DISTINCT url FROM offices WHERE documented = 1 AND url IS NOT NULL");
  const sources = q("SELECT DISTINCT url FROM sources WHERE documented = 1 AND url IS NOT NULL");
  const urls = [...new Set([...resources, ...offices, ...sources])].sort();
  return { urls, resources: resources.length, offices: offices.length, sources: sources.length };
}

/** Host of a URL for politeness (lower case, with a non-default port); unreadable URLs share one lane. */
export function hostKey(url: string): string {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return "";
  }
}
