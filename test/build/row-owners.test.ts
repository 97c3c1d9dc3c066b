// Staged rows filed under the wrong government, one test per class, on the real rows of ../shared/data and the real
// build's governments: which government a listed host belongs to (scripts/build/gsa.ts, uscityurl.ts,
// domain-names.ts), and what the built data file holds for it.
import { beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { gunzipSync } from "bun";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { SHARED_DATA, fullDataFile } from "../helpers/data-file";
import { GovIndex, matchRegistry, readDotgov } from "../../scripts/build/dotgov";
import { matchGsaRow, readGsa, type GsaRow } from "../../scripts/build/gsa";
import { placeHostOwner, readCityUrls, type PlaceHostEvidence } from "../../scripts/build/uscityurl";
import { countyDefinitionHosts } from "../../scripts/build/openaddresses";
import { OwnHosts } from "../../scripts/build/own-hosts";
import { losers } from "../../scripts/build/disputed-hosts";
import type { JurisdictionIn } from "../../scripts/build/records-common";

let db: Database;
let js: Map<string, JurisdictionIn>;
let idx: GovIndex;
let gsa: GsaRow[];
let ev: PlaceHostEvidence;
let reg: ReturnType<typeof matchRegistry>;
const text = (f: string) => readFileSync(join(SHARED_DATA, f), "utf8");
const rows = (sql: string, ...p: any[]) => db.query(sql).all(...p) as any[];

beforeAll(async () => {
  db = new Database(await fullDataFile(), { readonly: true });
  js = new Map(
    (
      db
        .query("SELECT jurisdiction_id, type, name, legal_type, state, state_fips, county_id FROM jurisdictions")
        .all() as JurisdictionIn[]
    ).map((j) => [j.jurisdiction_id, j]),
  );
  idx = new GovIndex(js.values());
  gsa = [
    ...readGsa(text("gsa-govt-urls/5_govt_urls_county_only.csv"), "County"),
    ...readGsa(text("gsa-govt-urls/6_govt_urls_local_only.csv"), "City"),
  ];
  // the evidence the build gives the UScityURL rows: the registry's home pages and domains, and the hosts each
  // county's OpenAddresses definition publishes on
  reg = matchRegistry(readDotgov(text("dotgov/current-full.csv")).rows, js.values());
  const own = new OwnHosts();
  for (const [id, list] of reg.domains) for (const d of list) own.add(id, d);
  const oa = new TextDecoder().decode(gunzipSync(readFileSync(join(SHARED_DATA, "openaddresses/us_sources.jsonl.gz"))));
  ev = {
    counties: idx.counties,
    homeHost: (id) => reg.homes.get(id)?.row.domain ?? null,
    countyHosts: countyDefinitionHosts(oa, js),
    owners: (h) => own.owners(h),
    jurisdictions: js,
  };
}, 600_000);

/** The government the real GSA row of `domain` is matched to (or why none). */
const gsaOwner = (domain: string) => {
  const row = gsa.find((r) => r.domain === domain);
  expect(row).toBeDefined();
  const m = matchGsaRow(idx, row!);
  return m.ok ? m.j.jurisdiction_id : `unmatched: ${m.reason}`;
};

/** Whose own host the real UScityURL row of `placeId` lists. */
const cityUrlOwner = (placeId: string) => {
  const row = readCityUrls(text("uscityurl/UScityURL.csv")).find((r) => r.placeId === placeId);
  expect(row?.url).toBeTruthy();
  const o = placeHostOwner(js.get(placeId)!, row!.url!, ev);
  if (o.owner === "town") return [o.town.jurisdiction_id];
  return o.owner === "county" ? [o.county.jurisdiction_id, ...(o.alsoPlace ? [placeId] : [])] : o.owner;
};

describe("staged rows filed under the wrong government", () => {
  test("UScityURL: a same-named county's site listed as a place's is the county's own host, not the place's", () => {
    // "1600000US1738869,Kane,Illinois,1,https://www.countyofkane.org/": the host names Kane County
    expect(cityUrlOwner("place:1738869")).toEqual(["county:17089"]);
    // "1600000US2935648,Jackson,Missouri,1,https://www.jacksongov.org/": Jackson city lies in Cape Girardeau
    // County, has its own .gov home (cityofjacksonmo.gov), and Jackson County's OpenAddresses definition
    // (sources/us/mo/jackson.json, GEOID 29095) publishes on jcgis.jacksongov.org
    expect(ev.homeHost("place:2935648")).toBe("cityofjacksonmo.gov");
    expect(cityUrlOwner("place:2935648")).toEqual(["county:29095"]);
    // the same rule elsewhere: Montgomery village (Orange County, NY) listed at co.montgomery.ny.us
    expect(cityUrlOwner("place:3648142")).toEqual(["county:36057"]);
    // a consolidated city-county keeps the county's host too (Butte-Silver Bow at co.silverbow.mt.us)
    expect(cityUrlOwner("place:3011397")).toEqual(["county:30093", "place:3011397"]);
    // a host saying county that names no one county is nobody's (Vermilion village at vercounty.org)
    expect(cityUrlOwner("place:1777551")).toBe("none");
    // a place whose own name says county keeps its host (County Line town at mycountyline.org), and a city's host
    // used by its same-named county's definition stays the city's (Lincoln, NE has no other home page)
    expect(cityUrlOwner("place:0117968")).toBe("place");
    expect(cityUrlOwner("place:3128000")).toBe("place");
    // in the data file: the village has no home page at the county's site; Jackson city keeps its .gov one
    expect(
      rows("SELECT url FROM resources WHERE jurisdiction_id = 'place:1738869' AND url LIKE '%countyofkane%'"),
    ).toEqual([]);
    expect(
      rows("SELECT url FROM resources WHERE jurisdiction_id = 'place:2935648' AND name LIKE '%official website'"),
    ).toEqual([{ url: "https://cityofjacksonmo.gov/" }]);
  });

  test("UScityURL: a village listed at its same-named town's registry domain: the town's host, not the village's", async () => {
    // "1600000US3633139,Hempstead,New York,1,https://hempsteadny.gov/": the registry's row is "hempsteadny.gov,City,
    // Town of Hempstead": the Town's; the Village of Hempstead is another government
    expect(ev.owners("hempsteadny.gov").has("cousub:3605934000")).toBe(true);
    expect(cityUrlOwner("place:3633139")).toEqual(["cousub:3605934000"]);
    // a place and a county subdivision of one name and kind stay one government (a Wisconsin city's site)
    expect(cityUrlOwner("place:5553000")).toBe("place");
    // the registry's domains are filed by the row's own words: the Town of Hempstead's is not the Village's, and
    // Franklin Township's (Somerset) is not Franklin borough's (Sussex); a New Jersey borough's domain stays with the
    // borough (place and county subdivision are one government), and so does a Massachusetts city's (Framingham
    // city, the Census's "Framingham town": one government in a state where a city is its own subdivision)
    const { anotherOfTheName } = await import("../../scripts/build/town-place");
    const j = (id: string) => js.get(id)!;
    expect(anotherOfTheName(j("place:3633139"), j("cousub:3605934000"))).toBe(true);
    expect(anotherOfTheName(j("place:3424930"), j("cousub:3403524900"))).toBe(true);
    expect(anotherOfTheName(j("place:3416660"), j("cousub:3402516660"))).toBe(false);
    expect(anotherOfTheName(j("place:2524960"), j("cousub:2501724925"))).toBe(false);
    // in the data file: the village has no home page at the Town's site (its own is villageofhempsteadny.gov)
    expect(
      rows(
        "SELECT url FROM resources WHERE jurisdiction_id = 'place:3633139' AND (url LIKE '%//hempsteadny.gov%' OR url LIKE '%.hempsteadny.gov%')",
      ),
    ).toEqual([]);
  });

  test("GSA local file: a bare name repeating its domain (accesskent.com) is the county of that name", () => {
    // "accesskent.com,,Local Government,Michigan,accepted term,"accesskent, mi -- Note added 9/2/15 19:54",..."
    expect(gsaOwner("accesskent.com")).toBe("county:26081");
    // "bleckley.org ... Bleckley, GA": no local government of that name, one county
    expect(gsaOwner("bleckley.org")).toBe("county:13023");
    // a web prefix taken off finds a local government first: gorockingham.com is Rockingham city, NC
    expect(gsaOwner("gorockingham.com")).toBe("place:3757260");
    // a bare name that the domain does not carry names no county (effga.com for "Effingham")
    expect(gsaOwner("effga.com")).toBe("unmatched: no_name_match");
    // in the data file: the Kent County records on accesskent.com (counties-091-120.yaml #33-35) are kept
    expect(
      rows("SELECT url FROM resources WHERE jurisdiction_id = 'county:26081' AND url LIKE '%accesskent.com%'").length,
    ).toBe(3);
  });

  test("GSA county file: an organisation misspelling the county its domain names is that county", () => {
    // "norfolkcounty.org,,County Government,Massachusetts,accepted term,"Northfolk County, Ma -- ...""
    expect(gsaOwner("norfolkcounty.org")).toBe("county:25021");
    expect(gsaOwner("niagaracounty.com")).toBe("county:36063"); // "County of Niagra"
    expect(gsaOwner("co.kenedy.tx.us")).toBe("county:48261"); // "Kennedy County"
    expect(gsaOwner("mccrearycounty.com")).toBe("county:21147"); // local file, "McCreaery"
    // an office or another body named after the county is not the county ("Henry County Auditor",
    // "bullit county Travel"), and a name far from the domain's county is no slip ("sag county", sagcounty.com)
    expect(gsaOwner("co.henry.oh.us")).toBe("unmatched: no_name_match");
    expect(gsaOwner("bullittcounty.org")).toBe("unmatched: no_name_match");
    expect(gsaOwner("sagcounty.com")).toBe("unmatched: no_name_match");
    // in the data file: Norfolk County's home page, and its records whose via page is on norfolkcounty.org
    // (counties-061-090.yaml #55, second-pass-2.yaml #4) are kept
    expect(
      rows("SELECT url FROM resources WHERE jurisdiction_id = 'county:25021' AND name LIKE '%official website'"),
    ).toEqual([{ url: "http://norfolkcounty.org/" }]);
    expect(
      rows("SELECT url FROM resources WHERE jurisdiction_id = 'county:25021' AND url LIKE '%norfolkdeeds.org%'").length,
    ).toBe(2);
  });

  test("registry and GSA local rows: an organisation misspelling the municipality its domain spells right is that municipality", () => {
    const registryOwner = (domain: string) =>
      [...reg.domains].find(([, list]) => list.includes(domain))?.[0] ??
      `unmatched: ${reg.unmatched.find((u) => u.row.domain === domain)?.reason}`;
    // "villageofhempsteadny.gov,City,Inc. Village of Hemsptead,,Hemsptead,NY": the Village of Hempstead
    expect(registryOwner("villageofhempsteadny.gov")).toBe("place:3633139");
    expect(registryOwner("smithfieldri.gov")).toBe("cousub:4400766200"); // "Town of Smithfeld"
    expect(registryOwner("radnortwpoh.gov")).toBe("cousub:3904165312"); // "Randor Township"
    // a word added to the name is no slip of the pen ("Borough of Emerson PD", "Kenedy 4B Corporation"), and a name
    // close to another place's that the domain does not spell (mableton.gov; Mapleton) moves nothing
    expect(registryOwner("emersonnjpd.gov")).toBe("unmatched: no_name_match");
    expect(registryOwner("kenedytxedc.gov")).toBe("unmatched: no_name_match");
    expect(registryOwner("mableton.gov")).toBe("unmatched: no_name_match");
    // the GSA local file's rows go through the same matcher
    expect(gsaOwner("bismarck.org")).toBe("place:3807200"); // "City of Bismark"
    expect(gsaOwner("ci.san-bernardino.ca.us")).toBe("place:0665000"); // "City of San Bernadino"
    expect(gsaOwner("cityofroxboro.com")).toBe("place:3758160"); // "city of foxboro", NC
    // in the data file: the village's home page is its registry domain
    expect(
      rows("SELECT url FROM resources WHERE jurisdiction_id = 'place:3633139' AND name LIKE '%official website'"),
    ).toEqual([{ url: "https://villageofhempsteadny.gov/" }]);
  });

  test("GSA county file: a county's row on a domain that names a town takes the row's Link, never the town's domain", () => {
    // "townofkershaw.net,,County Government,South Carolina,accepted term,"kershaw county, sc ...",http://www.kershaw.sc.gov/"
    const row = gsa.find((r) => r.domain === "townofkershaw.net")!;
    const m = matchGsaRow(idx, row);
    expect(m.ok && m.j.jurisdiction_id).toBe("county:45055");
    expect(m.row.domain).toBe("kershaw.sc.gov");
    expect(
      rows("SELECT url FROM resources WHERE jurisdiction_id = 'county:45055' AND name LIKE '%official website'"),
    ).toEqual([{ url: "http://www.kershaw.sc.gov/" }]);
  });

  test("a host two lists give to two governments: the name the host spells, then the registry, then the county of the place's name", () => {
    const registry = new OwnHosts();
    for (const [id, list] of reg.domains) for (const d of list) registry.add(id, d);
    const lose = (host: string, ...ids: string[]) =>
      losers(
        host,
        ids.map((id) => js.get(id)!),
        { jurisdictions: js, registry, twins: () => [] },
      ).sort();
    // the name: UScityURL lists League City's leaguecitytx.gov for New Home, TX; crossplains.org for Plains as well
    // as Cross Plains (the longer name spelt wins); the GSA county file files jeffersontownky.com under Jefferson
    // County, KY
    expect(lose("leaguecitytx.gov", "place:4841980", "place:4851012")).toEqual(["place:4851012"]);
    expect(lose("crossplains.org", "place:4817816", "place:4857968")).toEqual(["place:4857968"]);
    expect(lose("jeffersontownky.com", "county:21111", "place:2140222")).toEqual(["county:21111"]);
    // the registry: pbgfl.gov is the City of Palm Beach Gardens' (the GSA county row said Palm Beach County); qac.gov
    // is Queen Anne's County's (UScityURL gave qac.org to Queen Anne town)
    expect(lose("pbgfl.com", "county:12099", "place:1254075")).toEqual(["county:12099"]);
    expect(lose("qac.org", "county:24035", "place:2464500")).toEqual(["place:2464500"]);
    // Macon town, NC lies in Warren County: maconnc.org is Macon County's
    expect(lose("maconnc.org", "county:37113", "place:3740540")).toEqual(["place:3740540"]);
    // undecided: Minidoka city lies in Minidoka County; one government: a unified government named after its county;
    // a registry claim on the host itself stays (Louisville Jefferson County Metro Government)
    expect(lose("minidoka.id.us", "county:16067", "place:1653110")).toEqual([]);
    expect(lose("echolscountyga.com", "county:13101", "place:1326156")).toEqual([]);
    expect(lose("louisvilleky.gov", "place:2148000", "place:2148006")).toEqual([]);
    // and the built file: no home page on the host the government lost
    expect(
      rows("SELECT url FROM resources WHERE jurisdiction_id = 'county:21111' AND url LIKE '%jeffersontownky%'"),
    ).toEqual([]);
    expect(
      rows("SELECT url FROM resources WHERE jurisdiction_id = 'place:4851012' AND url LIKE '%leaguecitytx%'"),
    ).toEqual([]);
    expect(
      rows("SELECT url FROM resources WHERE jurisdiction_id = 'place:2140222' AND url LIKE '%jeffersontownky%'").length,
    ).toBeGreaterThan(0);
  });
});
