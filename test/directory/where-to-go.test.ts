// Where to go (issue 18), on the real data file: the office's own page for each job, permit issuers from the
// Census permit survey, and search by office name.
import { beforeAll, describe, expect, test } from "bun:test";
import { fullDirectory } from "../helpers/directory-app";
import type { Directory } from "../../src/directory/directory";
import { ruleNames } from "../../src/directory/permit-survey";

let d: Directory;
beforeAll(async () => {
  d = (await fullDirectory()).directory;
}, 600_000);
const fns = (lon: number, lat: number) => d.resolvePoint(lon, lat).data.functions as any;

describe("the office's own page", () => {
  test("Chicago: the City's Department of Buildings under permits; the Treasurer's payment page first under tax_collection", () => {
    const f = fns(-87.63, 41.88);
    expect(f.permits.jurisdiction_id).toBe("place:1714000");
    expect(f.permits.office_name).toBe("Department of Buildings");
    expect(f.permits.resources[0]).toMatchObject({
      url: "https://chicago.gov/city/en/sites/guide-to-building-permits/home.html",
      topics: ["building_permits"],
      official: true,
      verified_status: "not_yet_verified",
    });
    expect(f.permits.basis).toContain("Building Permits Survey (2024) lists Chicago");
    expect(f.tax_collection.jurisdiction_id).toBe("county:17031");
    expect(f.tax_collection.resources[0].topics).toEqual(["property_tax_payment"]);
    expect(f.tax_collection.resources[0].url).toBe("https://www.cookcountytreasurer.com/");
    expect(f.tax_collection.office_name).toBe("Cook County Treasurer's Office");
    expect(f.zoning.resources[0].url).toBe("https://www.chicago.gov/city/en/depts/dcd/provdrs/admin.html");
  });
  test("the office's own page comes before GIS layers and copies under its function", () => {
    const f = fns(-87.63, 41.88);
    expect(f.assessment.resources[0].url).toBe("https://www.cookcountyil.gov/agency/assessor");
  });
});

describe("permit issuers from the Census permit survey", () => {
  test("an unincorporated point of a county the survey lists as a permit issuer gives that county", () => {
    const r = d.resolvePoint(-95.55, 29.93); // Harris County, TX, outside every incorporated place
    expect(r.data.jurisdictions.map((j) => j.jurisdiction_id)).toEqual(["state:48", "county:48201"]);
    const f = r.data.functions as any;
    expect(f.permits.jurisdiction_id).toBe("county:48201");
    expect(f.permits.basis).toContain("Harris County Unincorporated Area (the county, outside incorporated places)");
    expect(f.permits.basis).toContain("survey data, not law");
    expect(r.sources.some((s: any) => s.url === "https://www2.census.gov/econ/bps/Place/")).toBe(true);
    // Texas counties have no general zoning power: zoning does not follow the survey to the county
    expect(f.zoning.jurisdiction_id).toBeNull();
  });
});

describe("the survey against the state rules", () => {
  test("a New York village that issues permits zones inside its limits (the rule names the city, village or borough, else the town)", () => {
    const f = d.resolveId("place:3601088").data.functions as any; // Alden village, Erie County
    expect(f.permits.jurisdiction_id).toBe("place:3601088");
    expect(f.zoning.jurisdiction_id).toBe("place:3601088");
    expect(f.zoning.basis).toContain("Zoning is taken to follow permits here");
  });
  test("the predicate the build's comparison table and the answers share", () => {
    expect(ruleNames("place", { level: "city" })).toBe(true);
    expect(ruleNames("place", { level: "county" })).toBe(false); // Alaska: boroughs zone areawide
    expect(ruleNames("town", { level: "city" })).toBe(true);
    expect(ruleNames("county_unincorporated", { level: "city", else_level: "county" })).toBe(true);
    expect(ruleNames("county_unincorporated", { level: "city" })).toBe(false); // Texas: no county zoning power
  });
});

describe("a city's own server filed under the county", () => {
  test("its publisher is the host's government and it is not official for the county", () => {
    const list = d.resources({ jurisdictionId: "county:12057" }, null, 0, 200).data.resources as any[];
    const tampa = list.find((x: any) => x.url.startsWith("https://arcgis.tampagov.net/"));
    expect(tampa).toMatchObject({ publisher: "City of Tampa", official: false });
  });
});

describe("search", () => {
  test("finds an office read on its own page by the office's name", () => {
    const r = d.searchNames("Department of Buildings", "IL", 10) as any;
    const urls = (r.data ?? r).resources.map((x: any) => x.url);
    expect(urls).toContain("https://chicago.gov/city/en/sites/guide-to-building-permits/home.html");
  });
});

describe("wrong answers fixed at their root (one test per class)", () => {
  const byId = (id: string) => d.resolveId(id).data.functions as any;
  test("Texas appraisal districts are not named from the county; a page read names one", () => {
    const f = byId("county:48381"); // Randall County: no page read for its district
    expect(f.assessment.jurisdiction_id).toBe("county:48381");
    expect(f.assessment.office_name).toBeNull();
    expect(f.assessment.basis).toContain("appraisal district");
  });
  test("a state rule's evidence from one county's page is shown for that county only", () => {
    const jimWells = "http://www.co.jim-wells.tx.us/default.aspx?name=co.county.taxassessor";
    expect(byId("county:48249").assessment.evidence_url).toBe(jimWells); // Jim Wells County itself
    expect(byId("county:48381").assessment.evidence_url).not.toBe(jimWells);
    expect(byId("county:48381").tax_collection.evidence_url).not.toBe(jimWells);
  });
  test("Illinois counties without townships: the county supervisor of assessments assesses", () => {
    const f = fns(-89.82, 38.05); // Randolph County, IL
    expect(f.assessment.jurisdiction_id).toBe("county:17157");
    expect(f.assessment.office_name).toBe("Randolph County Supervisor of Assessments");
    expect(f.assessment.basis).toContain("without townships");
    expect(f.assessment.evidence_url).toContain("ilga.gov");
  });
  test("GIS where no county government keeps maps: New York City for a borough, the city or town in Massachusetts", () => {
    const brooklyn = fns(-73.9442, 40.6782);
    expect(brooklyn.gis.jurisdiction_id).toBe("place:3651000");
    expect(brooklyn.gis.office_name).toBe("NYC Department of City Planning");
    expect(brooklyn.gis.evidence_url).toBe("http://www.nyc.gov/html/dcp/html/bytes/mapplutoguide.shtml");
    const boston = fns(-71.0589, 42.3601);
    expect(boston.gis.jurisdiction_id).not.toBe("county:25025");
    expect(["place:2507000", "cousub:2502507000"]).toContain(boston.gis.jurisdiction_id);
    expect(boston.gis.evidence_url).toBe(
      "https://docs.digital.mass.gov/dataset/massgis-data-standardized-assessors-parcels",
    );
  });
  test("a city that sends its own tax bill beside the county's: an also entry with its own office and page", () => {
    const f = fns(-90.049, 35.1495); // Memphis
    expect(f.tax_collection.jurisdiction_id).toBe("county:47157");
    const also = f.tax_collection.also.find((a: any) => a.jurisdiction_id === "place:4748000");
    expect(also).toMatchObject({ role: "secondary", levy_scope: "municipal", office_name: "City of Memphis Treasury" });
    expect(also.resources[0]).toMatchObject({
      url: "https://www.memphistn.gov/tax-information",
      topics: ["property_tax_payment", "tax_collector"],
      verified_status: "not_yet_verified",
    });
  });
  test("a collector's page that is also its payment page is one link with both topics, first (Maricopa County, AZ)", () => {
    const f = fns(-112.074, 33.4484); // Phoenix: the county treasurer collects
    expect(f.tax_collection.jurisdiction_id).toBe("county:04013");
    const first = f.tax_collection.resources[0];
    expect(first.url).toBe("https://treasurer.maricopa.gov/Pages/LoadPage?page=PaymentGuide");
    expect([...first.topics].sort()).toEqual(["property_tax_payment", "tax_collector"]);
    expect(f.tax_collection.resources.filter((r: any) => r.url === first.url)).toHaveLength(1);
  });
  test("a town that is also a city is one government: its page on the city's host is the town's own (Newark, NJ)", () => {
    const f = fns(-74.1724, 40.7357); // Newark: the Census county subdivision and the place are one city
    expect(f.assessment.jurisdiction_id).toBe("cousub:3401351000");
    expect(f.assessment.office_name).toBe("Department of Finance - Assessments");
    expect(f.assessment.resources[0].url).toMatch(/^https:\/\/newarknj\.gov\//);
  });
  test("a county that assesses every parcel where the state rule names the towns (Nassau County, NY)", () => {
    const f = d.resolveId("cousub:3605934000").data.functions as any; // the Town of Hempstead
    expect(f.assessment.jurisdiction_id).toBe("county:36059");
    expect(f.assessment.office_name).toBe("Nassau County Department of Assessment");
    expect(f.assessment.basis).toContain("The Nassau County Department of Assessment assesses each parcel.");
    expect(f.tax_collection.jurisdiction_id).toBe("cousub:3605934000"); // the town's receiver of taxes still collects
    expect(f.tax_collection.office_name).toBe("Town of Hempstead Receiver of Taxes");
    expect(fns(-73.6187, 40.7062).assessment.jurisdiction_id).toBe("county:36059"); // a point in Hempstead village
  });
  test("a state body's own page on the state's host (Maryland's Department of Assessments and Taxation)", () => {
    const f = fns(-76.6122, 39.2904); // Baltimore
    expect(f.assessment.jurisdiction_id).toBe("state:24");
    expect(f.assessment.resources[0].url).toMatch(/^https:\/\/dat\.maryland\.gov\//);
  });
  test("a charter county's replaced office is named as its page shows it (Cuyahoga's fiscal officer records)", () => {
    const f = fns(-81.6944, 41.4993); // Cleveland
    expect(f.recording.jurisdiction_id).toBe("county:39035");
    expect(f.recording.office_name).toContain("Fiscal Officer");
    expect(f.recording.office_name).not.toBe("Cuyahoga County Recorder");
  });
  test("an office that collects for another government: the City of El Paso's Consolidated Tax Office for El Paso County", () => {
    const f = byId("county:48141"); // the state rule names the county tax assessor-collector
    expect(f.tax_collection.jurisdiction_id).toBe("place:4824000");
    expect(f.tax_collection.office_name).toBe("El Paso Consolidated Tax Office");
    expect(f.tax_collection.basis).toContain(
      "on behalf of all the units of government that levy a tax within El Paso County",
    );
    expect(f.tax_collection.resources[0]).toMatchObject({
      url: "https://www.elpasotexas.gov/tax-office/pay-your-taxes",
      topics: ["property_tax_payment"],
    });
    expect(fns(-106.15, 31.65).tax_collection.jurisdiction_id).toBe("place:4824000"); // a point in the county, outside the city
  });
  test("a parcel file kept on a code-hosting site is never official and never among a function's links", () => {
    const f = byId("county:19015"); // Boone County, IA: its parcels only as a GitHub attachment
    expect(f.gis.resources.some((r: any) => r.url.startsWith("https://github.com/"))).toBe(false);
    const all = d.resources({ jurisdictionId: "county:19015" }, null, 0, 200).data.resources as any[];
    const copy = all.find((r: any) => r.url === "https://github.com/user-attachments/files/16608292/parcels.zip");
    expect(copy).toMatchObject({ official: false, provider: "GitHub" }); // still listed for the county, as a copy
  });
});
