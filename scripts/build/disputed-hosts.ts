// A host two staged rows give to two different governments: UScityURL lists leaguecitytx.gov for New Home, TX (the
// registry's City of League City), crossplains.org for Plains as well as Cross Plains; the GSA list files
// jeffersontownky.com (Jeffersontown's) under Jefferson County, KY; UScityURL gives Macon town, NC the site of Macon
// County, where it does not lie. Each such host is settled once every list is read, before any page record is
// checked against it, by the first rule that decides it:
//   1. the name: the claimants whose name the host's name label spells (leaguecitytx -> League City); when one
//      spells the longest name (crossplains: Cross Plains, not Plains; jeffersontownky: Jeffersontown, not
//      Jefferson County), the others lose it;
//   2. the .gov registry: the host, or the same name under .gov (pbgfl.com -> pbgfl.gov), is registered to one of
//      them (lakeviewalabama.gov: Lake View, not Lakeview; qac.org -> qac.gov: Queen Anne's County, not Queen Anne
//      town);
//   3. a county of the place's own name that the place does not lie in (maconnc.org: Macon County, not Macon town).
// A claim the .gov registry itself makes on the host is never dropped (louisvilleky.gov: Louisville Jefferson County
// Metro Government). Otherwise all keep it (minidoka.id.us: Minidoka County and Minidoka city, which lies in it).
// One government under two ids (a consolidated city-county; a unified, consolidated or metro government in its
// county: town-place.ts) is never a dispute. A loser's home page from the GSA list or UScityURL on that host is
// removed: it was another government's site.
import { bareDomain, hostOf, type OwnHosts } from "./own-hosts";
import { countyKey } from "./dotgov-names";
import { nameKey, oneWithItsCounty } from "./town-place";
import type { JurisdictionIn, Records } from "./records-common";

/** The host's name label: "leaguecitytx" (leaguecitytx.gov), "hillcity" (ci.hillcity.mn.us), "laporteco"
 *  (laporteco.in.gov); hyphens dropped. Null for a host deeper under another's site. */
export function hostNameLabel(host: string): string | null {
  const l = bareDomain(host).split(".");
  const us = /^(?:ci|co|town|vil|twp)\.([a-z0-9-]+)\.[a-z]{2}\.us$/.exec(l.join("."));
  if (us) return us[1]!.replace(/-/g, "");
  if (l.length === 2) return l[0]!.replace(/-/g, "");
  if (l.length === 3 && (l[2] === "gov" || l[2] === "us")) return l[0]!.replace(/-/g, "");
  return null;
}

/** The name key a government goes by: "leaguecity", "jefferson" (Jefferson County), "queenannes". */
export function governmentKey(j: Pick<JurisdictionIn, "type" | "name">): string {
  return j.type === "county" ? countyKey(j.name) : nameKey(j);
}

export interface DisputeCtx {
  jurisdictions: Map<string, JurisdictionIn>;
  /** the hosts the .gov registry alone gave (before the GSA list and UScityURL were read) */
  registry: OwnHosts;
  /** other ids of the same government */
  twins: (id: string) => string[];
}

/** Which claimants lose the host (empty when none does): the rules at the top of this file. */
export function losers(host: string, claimants: JurisdictionIn[], ctx: DisputeCtx): string[] {
  const ids = claimants.map((j) => j.jurisdiction_id);
  const same = (a: JurisdictionIn, b: JurisdictionIn) =>
    ctx.twins(a.jurisdiction_id).includes(b.jurisdiction_id) ||
    (a.type === "county" && b.type !== "county" && oneWithItsCounty(b, a)) ||
    (b.type === "county" && a.type !== "county" && oneWithItsCounty(a, b));
  if (claimants.every((a) => claimants.every((b) => a === b || same(a, b)))) return [];
  const registered = ctx.registry.owners(host);
  const keep = (winners: string[]) =>
    ids.filter((id) => {
      const j = ctx.jurisdictions.get(id)!;
      return !winners.includes(id) && !registered.has(id) && !winners.some((w) => same(j, ctx.jurisdictions.get(w)!));
    });
  // 1. the name the label spells
  const label = hostNameLabel(host);
  if (label) {
    const spelt = claimants
      .map((j) => ({ id: j.jurisdiction_id, key: governmentKey(j) }))
      .filter((c) => c.key.length >= 3 && label.includes(c.key))
      .sort((a, b) => b.key.length - a.key.length);
    if (spelt.length && (spelt.length === 1 || spelt[0]!.key.length > spelt[1]!.key.length))
      return keep([spelt[0]!.id]);
  }
  // 2. the .gov registry
  const name = bareDomain(host).split(".");
  const asGov = name.length === 2 && name[1] !== "gov" ? `${name[0]}.gov` : null;
  for (const d of [host, asGov]) {
    if (!d) continue;
    const reg = [...ctx.registry.owners(d)].filter((id) => ids.includes(id));
    if (reg.length === 1) return keep(reg);
  }
  // 3. a county of the place's name that the place does not lie in
  const out: string[] = [];
  for (const p of claimants)
    if (
      p.type !== "county" &&
      !registered.has(p.jurisdiction_id) &&
      claimants.some(
        (c) => c.type === "county" && c.jurisdiction_id !== p.county_id && governmentKey(c) === governmentKey(p),
      )
    )
      out.push(p.jurisdiction_id);
  return out;
}

const under = (h: string, d: string) => h === d || h.endsWith(`.${d}`);

/** Settles every disputed host of `own` (a listed domain with owners that are not one government); drops the
 *  losers' claims and their GSA/UScityURL home pages on the host. Returns one line per claim dropped. */
export function settleDisputedHosts(own: OwnHosts, rec: Records, ctx: DisputeCtx): string[] {
  const out: string[] = [];
  for (const [host, ids] of own.entries()) {
    if (ids.length < 2) continue;
    const claimants = ids.map((id) => ctx.jurisdictions.get(id)).filter((j): j is JurisdictionIn => !!j);
    if (claimants.length !== ids.length) continue;
    for (const id of losers(host, claimants, ctx)) {
      own.remove(id, host);
      const winners = ids.filter((x) => x !== id && own.isOwn(host, x));
      for (const r of [...rec.resources.values()])
        if (
          r.jurisdiction_id === id &&
          (r.source_kind === "gsa-govt-urls-list" || r.source_kind === "uscityurl") &&
          under(bareDomain(hostOf(r.url) ?? ""), host)
        )
          rec.resources.delete(r.resource_id);
      out.push(`${host}: not ${ctx.jurisdictions.get(id)!.name} (${id}) but ${winners.join(", ")}`);
    }
  }
  return out;
}
