// GIS portals and parcel/address layers from OpenAddresses, and home pages outside .gov from the GSA list, on the
// real build (../shared/data): what the records hold, what the API answers, and the rules behind publisher,
// provider and official (scripts/build/oa-rules.ts) and the GSA name cleaning (scripts/build/gsa.ts).
import { beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { gunzipSync } from "bun";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Value } from "@sinclair/typebox/value";
import { call } from "../helpers/app";
import { Envelope } from "../../src/http/schemas/common";
import { ResourcePage } from "../../src/http/schemas/directory";
import { fullApp, fullDirectory } from "../helpers/directory-app";
import { SHARED_DATA } from "../helpers/data-file";
import type { App } from "../../src/http/app";
import {
  gisOfficeName,
  isCopyHost,
  isOwnHost,
  namesGovernment,
  providerOf,
  publisherOf,
  attributionOf,
} from "../../scripts/build/oa-rules";
import { cleanNote, homeUrl, readGsa } from "../../scripts/build/gsa";
import { jurisdictionIn } from "../helpers/jurisdiction-in";

let app: App, db: Database;
beforeAll(async () => {
  ({ app } = await fullApp());
  db = (await fullDirectory()).db;
}, 600_000);

const HENNEPIN_PARCELS = "https://gis.hennepin.us/arcgis/rest/services/HennepinData/LAND_PROPERTY/MapServer/1";
const rows = (sql: string, ...p: any[]) => db.query(sql).all(...p) as any[];
const NEW_KINDS = "('openaddresses-definition', 'gsa-govt-urls-list')";

describe("OpenAddresses layers on the real build", () => {
  test("Hennepin County has its parcel layer: parcel_map, on the county's own .us host, official, no vendor", () => {
    const r = rows("SELECT * FROM resources WHERE jurisdiction_id = 'county:27053' AND url = ?", HENNEPIN_PARCELS);
    expect(r).toHaveLength(1);
    expect(r[0].name).toBe("Hennepin County parcels (ArcGIS REST layer)");
    expect(JSON.parse(r[0].topics)).toEqual(["parcel_map"]);
    expect(r[0].official).toBe(1);
    expect(r[0].publisher).toBe("Hennepin County");
    expect(r[0].provider).toBeNull();
    expect(r[0].source_id).toBe("oa-mn-hennepin");
    // the hub portal is on Esri's host: provider set; it documents the county's own endpoint, so it is official
    const portal = rows(
      "SELECT * FROM resources WHERE jurisdiction_id = 'county:27053' AND url = 'https://gis.hennepin.opendata.arcgis.com'",
    );
    expect(portal[0].provider).toBe("Esri (ArcGIS Online)");
    expect(portal[0].name).toBe("Hennepin County GIS portal");
    expect(portal[0].official).toBe(1);
    expect(portal[0].publisher).toBe("Hennepin County");
  });

  test("GET /v1/resources?jurisdiction_id=county:27053&topic=parcel_map returns it, with its source trail", async () => {
    const r = await call(app, "/v1/resources?jurisdiction_id=county:27053&topic=parcel_map");
    expect(r.status).toBe(200);
    const own = r.json.data.resources.filter((x: any) => x.jurisdiction_id === "county:27053");
    const p = own.find((x: any) => x.url === HENNEPIN_PARCELS);
    expect(p).toBeDefined();
    expect(p.official).toBe(true);
    expect(p.provider).toBeNull();
    expect(p.topics).toContain("parcel_map");
    expect(p.source_kind).toBe("openaddresses-definition");
    const src = r.json.sources.find((s: any) => s.url.endsWith("/sources/us/mn/hennepin.json"));
    expect(src).toBeDefined();
    expect(src.url).toContain("github.com/openaddresses/openaddresses/blob/2793c54eb59ba9bdff98fb882349ebb1b21675d3/");
    expect(src.license_class).toBe("open");
  });

  test("Hennepin County's gis entry carries its parcel layer", async () => {
    const r = await call(app, "/v1/jurisdictions/resolve?jurisdiction_id=county:27053");
    expect(r.status).toBe(200);
    const gis = r.json.data.functions.gis;
    expect(gis.jurisdiction_id).toBe("county:27053");
    expect(gis.resources.map((x: any) => x.url)).toContain(HENNEPIN_PARCELS);
  });

  test("an ArcGIS Online layer whose attribution names the county: vendor provider and official", () => {
    const r = rows(
      "SELECT * FROM resources WHERE jurisdiction_id = 'county:06035' AND source_kind = 'openaddresses-definition' AND url LIKE 'https://services.arcgis.com/%'",
    );
    expect(r.length).toBeGreaterThan(0);
    for (const x of r) {
      expect(x.provider).toBe("Esri (ArcGIS Online)");
      expect(x.publisher).toBe("Lassen County");
      expect(x.official).toBe(1);
    }
  });

  test("a county GIS office is stored only where the attribution names it", async () => {
    const o = rows("SELECT * FROM offices WHERE source_kind = 'openaddresses-attribution'");
    expect(o.length).toBeGreaterThan(0);
    for (const x of o) {
      expect(x.function).toBe("gis");
      expect(x.documented).toBe(1);
      expect(x.phone).toBeNull();
    }
    expect(o.map((x) => x.name)).toContain("Wasco County GIS");
    const r = await call(app, "/v1/jurisdictions/resolve?jurisdiction_id=county:41065");
    expect(r.json.data.functions.gis.office_name).toBe("Wasco County GIS");
    // Hennepin's layers carry no attribution: no office from OpenAddresses (the Minnesota county office stays)
    expect(
      rows(
        "SELECT * FROM offices WHERE jurisdiction_id = 'county:27053' AND source_kind = 'openaddresses-attribution'",
      ),
    ).toHaveLength(0);
  });

  test("skip:true layers are left out; copies kept by OpenAddresses are never official", () => {
    const defs = new TextDecoder()
      .decode(gunzipSync(readFileSync(join(SHARED_DATA, "openaddresses/us_sources.jsonl.gz"))))
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    const skipped = new Set<string>(),
      kept = new Set<string>();
    for (const d of defs)
      for (const k of ["parcels", "addresses"])
        for (const l of d.source.layers?.[k] ?? []) (l.skip === true ? skipped : kept).add(l.data);
    const only = [...skipped].filter((u) => !kept.has(u));
    expect(only.length).toBeGreaterThan(20);
    const urls = new Set(
      rows(`SELECT url FROM resources WHERE source_kind = 'openaddresses-definition'`).map((x) => x.url),
    );
    for (const u of only) expect(urls.has(u)).toBe(false);
    expect(
      urls.has("https://elb2.39dn.com/arcgis/rest/services/eGISDynamicServices/BartholomewINDynamic/MapServer/0"),
    ).toBe(false);
    const copies = rows("SELECT * FROM resources WHERE url LIKE 'https://data.openaddresses.io/%'");
    expect(copies.length).toBeGreaterThan(0);
    for (const c of copies) {
      expect(c.official).toBe(0);
      expect(c.provider).toBe("OpenAddresses");
      expect(c.name).toContain("copy kept by OpenAddresses");
    }
  });

  test("FTP endpoints and copies are schema-valid resources in the API (Kossuth County, IA)", async () => {
    const r = await call(app, "/v1/resources?jurisdiction_id=county:19109&topic=county_gis");
    expect(r.status).toBe(200);
    expect(Value.Check(Envelope(ResourcePage), r.json)).toBe(true);
    const ftp = r.json.data.resources.find((x: any) => x.url.startsWith("ftp://"));
    expect(ftp.name).toBe("Kossuth County address points (FTP file download)");
  });

  test("coverage: a GIS or parcel-map link for at least 1,500 of the 3,144 counties", () => {
    const n =
      rows(`SELECT count(DISTINCT r.jurisdiction_id) AS n FROM resources r JOIN jurisdictions j USING (jurisdiction_id)
      WHERE r.source_kind = 'openaddresses-definition' AND j.type = 'county' AND CAST(j.state_fips AS INTEGER) <= 56`)[0]
        .n;
    expect(n).toBeGreaterThanOrEqual(1500);
  });
});

describe("GSA home pages on the real build", () => {
  test("a county known only to the GSA list gets its home page with the GSA source (Barnes County, ND)", async () => {
    const r = await call(app, "/v1/resources?jurisdiction_id=county:38003&topic=property_records_general");
    expect(r.status).toBe(200);
    const own = r.json.data.resources.filter((x: any) => x.jurisdiction_id === "county:38003");
    expect(own.map((x: any) => x.source_kind)).not.toContain("cisa-dotgov-registry");
    const home = own.find((x: any) => x.source_kind === "gsa-govt-urls-list");
    expect(home.url).toBe("http://www.co.barnes.nd.us/");
    expect(home.name).toBe("Barnes County official website");
    expect(home.official).toBe(true);
    expect(home.publisher).toBe("Barnes County");
    const src = r.json.sources.find((s: any) => s.url.endsWith("/5_govt_urls_county_only.csv"));
    expect(src.name).toContain("GSA govt-urls list, 2023: older vintage, may have moved");
  });

  test("the .gov home page is preferred where both exist (Hennepin County: no GSA page)", () => {
    const r = rows(
      "SELECT source_kind FROM resources WHERE jurisdiction_id = 'county:27053' AND topics LIKE '%property_records_general%' AND sort_key = 30",
    );
    expect(r.map((x) => x.source_kind)).toEqual(["cisa-dotgov-registry"]);
  });

  test("coverage: an official home page for at least 2,200 counties, .gov and GSA together", () => {
    const n =
      rows(`SELECT count(DISTINCT r.jurisdiction_id) AS n FROM resources r JOIN jurisdictions j USING (jurisdiction_id)
      WHERE r.source_kind IN ('cisa-dotgov-registry', 'gsa-govt-urls-list') AND r.official = 1 AND j.type = 'county' AND CAST(j.state_fips AS INTEGER) <= 56`)[0]
        .n;
    expect(n).toBeGreaterThanOrEqual(2200);
  });
});

describe("source trail and search", () => {
  test("every new resource and office has a documented source with url, publisher and vintage", () => {
    const bad = rows(`SELECT r.resource_id FROM resources r LEFT JOIN sources s USING (source_id)
      WHERE r.source_kind IN ${NEW_KINDS} AND (r.documented <> 1 OR s.documented IS NOT 1 OR s.url = '' OR s.publisher IS NULL OR s.vintage IS NULL)`);
    expect(bad).toHaveLength(0);
    expect(rows(`SELECT count(*) AS n FROM resources WHERE source_kind IN ${NEW_KINDS}`)[0].n).toBeGreaterThan(5000);
    const text = JSON.stringify(rows(`SELECT * FROM resources WHERE source_kind IN ${NEW_KINDS}`));
    expect(text).not.toMatch(/[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/);
  });

  test("GET /v1/search finds the new resources by name", async () => {
    const a = await call(app, "/v1/search?q=Hennepin%20County%20parcels&state=MN");
    expect(a.status).toBe(200);
    expect(a.json.data.resources.map((x: any) => x.url)).toContain(HENNEPIN_PARCELS);
    const b = await call(app, "/v1/search?q=Barnes%20County%20official%20website&state=ND");
    expect(b.json.data.resources.map((x: any) => x.url)).toContain("http://www.co.barnes.nd.us/");
    expect(a.json.sources.length).toBeGreaterThan(0);
  });
});

const J = jurisdictionIn;
const HEN = J("county:27053", "county", "Hennepin County", "county", "MN");
const WASH = J("place:1150000", "place", "Washington", "city", "DC");
const AITKIN = J("county:27001", "county", "Aitkin County", "county", "MN");

describe("rules (oa-rules.ts, gsa.ts)", () => {
  test("attribution names the government: a county needs its legal word, a city must not be a county's name", () => {
    expect(namesGovernment("Hennepin County", HEN)).toBe(true);
    expect(namesGovernment("County of Hennepin, Minnesota", HEN)).toBe(true);
    expect(namesGovernment("Hennepin Technical College", HEN)).toBe(false);
    expect(namesGovernment("City of Washington", WASH)).toBe(true);
    expect(namesGovernment("Washington County GIS", WASH)).toBe(false);
  });
  test("own host: the name under .gov/.us, or the home page's host; never a vendor or another name", () => {
    expect(isOwnHost("gis.hennepin.us", HEN, [])).toBe(true);
    expect(isOwnHost("gis.co.aitkin.mn.us", AITKIN, [])).toBe(true);
    expect(isOwnHost("maps.hennepincountymn.gov", HEN, [])).toBe(true);
    expect(isOwnHost("services.arcgis.com", HEN, [])).toBe(false);
    expect(isOwnHost("gis.dakota.mn.us", HEN, [])).toBe(false);
    expect(isOwnHost("gis.example.org", HEN, ["example.org"])).toBe(true);
    expect(publisherOf(null, "services.arcgis.com", HEN, [])).toEqual({ publisher: null, official: false });
    expect(publisherOf("MetroGIS", "gis.hennepin.us", HEN, [])).toEqual({ publisher: "MetroGIS", official: false });
  });
  test("vendor table: provider by host suffix; copies recognised", () => {
    expect(providerOf("services2.arcgis.com")).toBe("Esri (ArcGIS Online)");
    expect(providerOf("hennepin.maps.arcgis.com")).toBe("Esri (ArcGIS Online)");
    expect(providerOf("gis.hennepin.us")).toBeNull();
    expect(isCopyHost("data.openaddresses.io")).toBe(true);
    expect(isCopyHost("services.arcgis.com")).toBe(false);
  });
  test("a GIS office only when the attribution names both the county and an office; e-mails never kept", () => {
    expect(gisOfficeName("Wasco County GIS", J("county:41065", "county", "Wasco County", "county", "OR"))).toBe(
      "Wasco County GIS",
    );
    expect(gisOfficeName("Hennepin County", HEN)).toBeNull();
    expect(gisOfficeName("Arkansas Geographic Information Office", HEN)).toBeNull();
    expect(attributionOf({ attribution: "Hennepin County GIS gis@example.gov" })).toBe("Hennepin County GIS");
    expect(attributionOf({ license: { "attribution name": "Vernon County, Wisconsin" } })).toBe(
      "Vernon County, Wisconsin",
    );
  });
  test("GSA notes: stamp, asides and stray state codes removed; Link used only on the listed domain", () => {
    expect(cleanNote("Anne Arundel County, MD -- Note added 4/21/14 14:52")).toBe("Anne Arundel County");
    expect(cleanNote("Cass County, MN n*must use 'www' for URL to resolve -- Note added 1/1/15 1:00")).toBe(
      "Cass County",
    );
    expect(cleanNote("County:  Cole County, MO. n  -- Note added 10/1/15 19:22")).toBe("Cole County");
    expect(cleanNote("County of Delaware -- Note added 6/29/15 14:10")).toBe("County of Delaware");
    expect(cleanNote("Pittsburg¬†County, OK")).toBe("Pittsburg County");
    expect(homeUrl("http://co.fulton.ga.us/", "co.dekalb.ga.us")).toBe("http://co.dekalb.ga.us/");
    expect(homeUrl("http://www.aacounty.org/", "aacounty.org")).toBe("http://www.aacounty.org/");
    expect(homeUrl("#N/A", "hamiltoncountytx.org")).toBe("http://hamiltoncountytx.org/");
    expect(homeUrl("http://townofhopemills.com/", "174.132.145.94/~hope")).toBe("http://townofhopemills.com/");
    expect(homeUrl("#N/A", "174.132.145.94/~hope")).toBeNull();
  });
  test("GSA files: the byte-order mark does not hide the Domain column; state names become postal codes", () => {
    const csv =
      "\ufeffDomain,Federal Agency,Level of Government,Location,Status,Note,Link,Date Added\r\n" +
      'co.barnes.nd.us,,County Government,North Dakota,accepted term,"Barnes County, ND -- Note added 7/18/14 5:38",http://www.co.barnes.nd.us/,6/6/13 18:08\r\n';
    expect(readGsa(csv, "County")).toEqual([
      {
        domain: "co.barnes.nd.us",
        note: "Barnes County, ND -- Note added 7/18/14 5:38",
        org: "Barnes County",
        state: "ND",
        link: "http://www.co.barnes.nd.us/",
        listedLink: "http://www.co.barnes.nd.us/",
        status: "accepted term",
        type: "County",
      },
    ]);
  });
});
