// Where to go (issue 18), on the real data file: the office's own page for each job, permit issuers from the
// Census permit survey, and search by office name.
import { beforeAll, describe, expect, test } from "bun:test";
import { fullDirectory } from "../helpers/directory-app";
import type { Directory } from "../../src/directory/directory";

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

describe("search", () => {
  test("finds an office read on its own page by the office's name", () => {
    const r = d.searchNames("Department of Buildings", "IL", 10) as any;
    const urls = (r.data ?? r).resources.map((x: any) => x.url);
    expect(urls).toContain("https://chicago.gov/city/en/sites/guide-to-building-permits/home.html");
  });
});
