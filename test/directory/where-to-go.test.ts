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
