// City home pages from UScityURL (uscityurl/UScityURL.csv, CC BY 4.0, collected September 2022): one official
// website per incorporated place, checked by hand by its authors. Used only where neither the CISA .gov registry
// nor the GSA list gave the place a home page (both are preferred: the registry is newer). Every place's listed
// host also counts as the place's own host for the hand-added page records (own-hosts.ts). The authors are credited
// in the source record (its publisher), which travels with every answer that uses it.
// A row's site is not always the place's own: where the place shares its name with a county, the collectors
// sometimes took the county's site (Kane village, IL listed at countyofkane.org; Jackson city, MO at jacksongov.org).
// So (placeHostOwner) a listed host is the place's own unless
//   - its name names a county of the state (countyofkane.org, co.montgomery.ny.us, clarkcountymo.org): the county's
//     own host; the place keeps it too only when it is one government with that county (a consolidated
//     city-county: Butte-Silver Bow, co.silverbow.mt.us);
//   - its name says county or parish in another way (vercounty.org, beaver.okcounties.org): nobody's;
//   - the .gov registry (or the GSA list) already gives the host to a town or township of the same name that is
//     another government (town-place.ts: Hempstead village, NY listed at hempsteadny.gov, the registry's "Town of
//     Hempstead"): the town's, not the place's;
//   - the place shares its name with a county of its state that it does not lie in, the host is the place's only
//     by this row, the place has its own home page elsewhere (the .gov registry's or the GSA list's), and the
//     county's own OpenAddresses definition publishes on the host (jcgis.jacksongov.org for Jackson County, MO):
//     the county's own host.
// A host that is not the place's gives the place no home page either.
import { parseCsv } from "./csv";
import { readDeclared, type DeclaredCtx } from "./declared";
import { GovIndex, governmentName } from "./dotgov";
import { bareDomain, type OwnHosts } from "./own-hosts";
import { countyNamedByHost, hostSaysCounty } from "./domain-names";
import { anotherOfTheName, nameKey, oneWithItsCounty } from "./town-place";
import { type JurisdictionIn, Records, isHttpUrl, resourceRow } from "./records-common";
import { HOME_SORT_KEY, HOME_TOPICS } from "./gsa";

export const USCITYURL_ID = "uscityurl-2022";

export interface CityUrlRow {
  placeId: string;
  name: string;
  url: string | null;
}

export function readCityUrls(text: string): CityUrlRow[] {
  return parseCsv(text).map((r) => {
    const geoid = String(r["GEOID"] ?? "").trim();
    const url = String(r["WEBSITE_URL"] ?? "").trim();
    return {
      placeId: `place:${geoid.slice(-7)}`,
      name: String(r["MUNICIPALITY"] ?? "").trim(),
      url: String(r["WEBSITE_AVAILABLE"] ?? "").trim() === "1" && isHttpUrl(url) ? url : null,
    };
  });
}

export interface PlaceHostEvidence {
  /** the counties of each state by county key (GovIndex.counties) */
  counties: GovIndex["counties"];
  /** the host of the place's home page from the .gov registry or the GSA list, if any */
  homeHost: (id: string) => string | null;
  /** hosts each county's own OpenAddresses definition publishes on (openaddresses.ts countyDefinitionHosts) */
  countyHosts: Map<string, Set<string>>;
  /** governments already owning the host (from the registry and the GSA list) */
  owners: (host: string) => Set<string>;
  /** the data file's governments by id (for the owners' names and kinds) */
  jurisdictions?: Map<string, JurisdictionIn>;
}

export type PlaceHostOwner =
  | { owner: "place" }
  | { owner: "county"; county: JurisdictionIn; alsoPlace: boolean; why: "named" | "same_name_county_definition" }
  | { owner: "none"; why: "says_county" }
  | { owner: "town"; town: JurisdictionIn; why: "registry_town" };

/** Whose own host a UScityURL row's site (at a host's root) is: see the rules at the top of this file. */
export function placeHostOwner(j: JurisdictionIn, url: string, ev: PlaceHostEvidence): PlaceHostOwner {
  const host = bareDomain(url);
  const st = j.state ?? "";
  const placeKey = nameKey(j);
  const named = countyNamedByHost(host, st, ev.counties);
  if (named) {
    return { owner: "county", county: named, alsoPlace: oneWithItsCounty(j, named), why: "named" };
  }
  if (hostSaysCounty(host, placeKey)) return { owner: "none", why: "says_county" };
  if (!ev.owners(host).has(j.jurisdiction_id))
    for (const o of ev.owners(host)) {
      const t = ev.jurisdictions?.get(o);
      if (t && anotherOfTheName(j, t)) return { owner: "town", town: t, why: "registry_town" };
    }
  const same = ev.counties.get(st)?.get(placeKey) ?? [];
  const c = same.length === 1 ? same[0]!.j : null;
  const home = ev.homeHost(j.jurisdiction_id);
  const under = (h: string, d: string) => h === d || h.endsWith(`.${d}`);
  if (
    c &&
    c.jurisdiction_id !== j.county_id &&
    ev.owners(host).size === 0 &&
    home &&
    !under(bareDomain(home), host) &&
    [...(ev.countyHosts.get(c.jurisdiction_id) ?? [])].some((h) => under(h, host))
  )
    return { owner: "county", county: c, alsoPlace: false, why: "same_name_county_definition" };
  return { owner: "place" };
}

/** Adds a home page for each place with none yet (`hasHome`), and every listed host to `own`. */
export async function addCityUrls(
  rec: Records,
  ctx: DeclaredCtx & { jurisdictions: Map<string, JurisdictionIn> },
  hasHome: (id: string) => boolean,
  own: OwnHosts,
  summary: Record<string, number | string>,
  evidence?: Omit<PlaceHostEvidence, "counties" | "owners">,
): Promise<void> {
  const input = await readDeclared(ctx, USCITYURL_ID);
  if (!input) {
    ctx.log(`  uscityurl: ${USCITYURL_ID} not present; no UScityURL home pages`);
    summary.uscityurl = "not available";
    return;
  }
  const sid = rec.addSource(input.source);
  const c = {
    rows: 0,
    with_url: 0,
    place_not_held: 0,
    already_home: 0,
    added: 0,
    county_host_named: 0,
    county_host_same_name: 0,
    county_word_host_nobodys: 0,
    town_host_registry: 0,
  };
  const ev: PlaceHostEvidence = {
    counties: new GovIndex(ctx.jurisdictions.values()).counties,
    homeHost: evidence?.homeHost ?? (() => null),
    countyHosts: evidence?.countyHosts ?? new Map(),
    owners: (h) => own.owners(h),
    jurisdictions: ctx.jurisdictions,
  };
  const moved: string[] = [];
  for (const row of readCityUrls(input.text)) {
    c.rows++;
    if (!row.url) continue;
    c.with_url++;
    const j = ctx.jurisdictions.get(row.placeId);
    if (!j) {
      c.place_not_held++;
      continue;
    }
    // a home page at a host's root names the city's own host; one under a path is a page on another's server
    // (villages of Erie County, NY, listed at www2.erie.gov/<village>/): the host stays its owner's
    if (new URL(row.url).pathname.replace(/\/(index\.[a-z]+)?$/i, "") === "") {
      const o = placeHostOwner(j, row.url, ev);
      if (o.owner === "county") own.add(o.county.jurisdiction_id, row.url);
      if (o.owner === "place" || (o.owner === "county" && o.alsoPlace)) own.add(j.jurisdiction_id, row.url);
      else {
        // the county's site (or a county body's), not the place's: no home page for the place either
        if (o.owner === "county") c[o.why === "named" ? "county_host_named" : "county_host_same_name"]++;
        else if (o.owner === "town") c.town_host_registry++;
        else c.county_word_host_nobodys++;
        const to =
          o.owner === "county" ? o.county.jurisdiction_id : o.owner === "town" ? o.town.jurisdiction_id : "nobody";
        moved.push(`${bareDomain(row.url)}: ${j.jurisdiction_id} -> ${to} (${o.why})`);
        continue;
      }
    }
    if (hasHome(j.jurisdiction_id)) {
      c.already_home++;
      continue;
    }
    const gov = governmentName(j);
    rec.addResource(
      resourceRow({
        jurisdiction_id: j.jurisdiction_id,
        name: `${gov} official website`,
        url: row.url,
        topics: HOME_TOPICS,
        sort_key: HOME_SORT_KEY,
        source_kind: "uscityurl",
        source_id: sid,
        documented: input.source.documented,
        publisher: gov,
        official: true,
        description:
          "Home page of the city from UScityURL (Cai, Huang & Decaminada, CC BY 4.0), collected September 2022 and " +
          "checked by hand; older than the .gov registry, so the site may have moved.",
      }),
    );
    c.added++;
  }
  for (const [k, v] of Object.entries(c)) summary[`uscityurl_${k}`] = v;
  ctx.log(
    `  uscityurl: rows ${c.rows}, with a website ${c.with_url}, place not held ${c.place_not_held}, ` +
      `already with a .gov/GSA home page ${c.already_home}, home pages added ${c.added}; hosts not the place's: ` +
      `${c.county_host_named} name a county, ${c.county_host_same_name} the same-named county's (its OpenAddresses ` +
      `definition), ${c.county_word_host_nobodys} say county (nobody's), ${c.town_host_registry} a same-named town's ` +
      `(the registry's)`,
  );
  for (const l of moved.slice(0, 8)) ctx.log(`    ${l}`);
  if (process.env.BUILD_VERBOSE) for (const l of moved.slice(8)) ctx.log(`    ${l}`);
}
