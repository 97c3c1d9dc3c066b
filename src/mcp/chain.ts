// The directory as assistants see it: a place, an id or a point → its jurisdiction chain and who does each job
// there, with office links. Built on the directory domain's own answers (resolve), nothing duplicated.
import type { Directory } from "../directory/directory";

type Resolved = ReturnType<Directory["resolvePoint"]>;
const JOBS = ["assessment", "tax_collection", "recording", "zoning", "permits", "gis"] as const;

/** One function entry, trimmed to what an assistant needs: the body, its office and its official links. */
export function chainEntry(e: any) {
  if (!e) return null;
  return {
    jurisdiction_id: e.jurisdiction_id,
    office_name: e.office_name,
    office: e.office
      ? {
          name: e.office.name,
          url: e.office.url,
          phone: e.office.phone,
          page_url: e.office.page_url,
          verified_status: e.office.verified_status,
        }
      : null,
    links: (e.resources ?? []).slice(0, 5).map((r: any) => ({
      name: r.name,
      url: r.url,
      official: r.official,
      verified_status: r.verified_status,
      verified_at: r.verified_at ?? null,
    })),
    basis: e.basis ?? null,
    also: (e.also ?? []).map((a: any) => ({
      jurisdiction_id: a.jurisdiction_id,
      office_name: a.office_name,
      role: a.role ?? null,
    })),
  };
}

export function chainFacts(r: Resolved, jobs: readonly string[] = JOBS) {
  const f = r.data.functions as Record<string, unknown>;
  return {
    jurisdictions: r.data.jurisdictions.map((j) => ({
      jurisdiction_id: j.jurisdiction_id,
      type: j.type,
      name: j.name,
      state: j.state ?? null,
      page_url: j.page_url,
    })),
    who_does_what: Object.fromEntries(jobs.map((k) => [k, chainEntry(f[k])])),
    sources: r.sources.map((s) => ({ name: s.name, url: s.url })),
    notices: r.notices,
  };
}

type ChainSelector = { lat: number; lon: number } | { jurisdiction_id: string } | { place: string; state?: string };

/** The same domain calls as /v1/jurisdictions/resolve (a point gets its town where the data file holds none). */
export async function resolveChain(dir: Directory, sel: ChainSelector): Promise<Resolved> {
  if ("lat" in sel) return dir.resolvePointTowns(sel.lon, sel.lat);
  if ("jurisdiction_id" in sel) return dir.resolveId(sel.jurisdiction_id) as Resolved;
  return dir.resolvePlace(sel.place, sel.state) as Resolved;
}
