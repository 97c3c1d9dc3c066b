// The authored local overrides in data/resources/overrides-*.yaml, loaded as the build loads them.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { loadAuthoredRecords } from "../../scripts/build/records-authored";
import type { JurisdictionIn } from "../../scripts/build/records-common";

const DIR = join(import.meta.dir, "../..", "data", "resources");
const J = (jurisdiction_id: string, type: string, name: string): JurisdictionIn => ({
  jurisdiction_id,
  type,
  name,
  legal_type: null,
  state: null,
  state_fips: jurisdiction_id.match(/:(\d{2})/)?.[1] ?? null,
  county_id: null,
});

// Every jurisdiction the override files name (a fixture map: the real build takes them from Census files).
const IDS = [
  "state:11",
  "county:17031",
  "place:3651000",
  "county:36005",
  "county:36047",
  "county:36061",
  "county:36081",
  "county:36085",
  "county:08031",
  "county:06075",
  "county:42101",
  "county:47037",
  "county:12031",
  "county:15003",
  "county:02020",
  "county:24510",
  "county:29510",
  "county:22071",
  "place:2255000",
  "county:02050",
  "county:51760",
  "county:51610",
];
const jurisdictions = new Map(IDS.map((id) => [id, J(id, id.split(":")[0]!, id)]));
const { rec, counts } = loadAuthoredRecords(DIR, { jurisdictions, log: () => {} });
const ov = (j: string, f: string) => rec.overrides.get(`${j}|${f}|primary`);
const office = (id: string | null | undefined) => (id ? rec.offices.get(id) : undefined);

describe("authored local overrides", () => {
  test("Cook County: the Cook County Assessor's Office assesses", () => {
    const o = ov("county:17031", "assessment")!;
    expect(o.performer_id).toBe("county:17031");
    expect(office(o.office_id)?.name).toBe("Cook County Assessor's Office");
  });

  test("New York City: DOF assesses and collects in every borough; the City Register records except on Staten Island", () => {
    for (const c of ["36005", "36047", "36061", "36081", "36085"]) {
      for (const f of ["assessment", "tax_collection"]) {
        const o = ov(`county:${c}`, f)!;
        expect(o.performer_id).toBe("place:3651000");
        expect(office(o.office_id)?.name).toBe("NYC Department of Finance");
      }
    }
    for (const c of ["36005", "36047", "36061", "36081"])
      expect(ov(`county:${c}`, "recording")!.performer_id).toBe("place:3651000");
    const si = ov("county:36085", "recording")!;
    expect(si.performer_id).toBe("county:36085");
    expect(office(si.office_id)?.name).toBe("Richmond County Clerk's Office");
    expect(ov("place:3651000", "recording")).toBeUndefined(); // would reach Staten Island too
  });

  test("DC: permits by the Department of Buildings", () => {
    const o = ov("state:11", "permits")!;
    expect(office(o.office_id)?.name).toBe("DC Department of Buildings");
    expect(o.evidence_url).toStartWith("https://dob.dc.gov/");
  });

  test("Alaska census areas: no body assesses or collects (performer NULL, with a basis)", () => {
    for (const f of ["assessment", "tax_collection"]) {
      const o = ov("county:02050", f)!;
      expect(o.performer_id).toBeNull();
      expect(o.office_id).toBeNull();
      expect(o.basis).toContain("unorganized borough");
    }
    expect(counts.authored_no_body).toBeGreaterThanOrEqual(2);
  });

  test("Orleans Parish is collected by the City of New Orleans, not the sheriff", () => {
    expect(ov("county:22071", "tax_collection")!.performer_id).toBe("place:2255000");
  });

  test("every override has an http(s) evidence page and a documented source", () => {
    expect(rec.overrides.size).toBeGreaterThan(20);
    for (const o of rec.overrides.values()) {
      expect(o.evidence_url).toMatch(/^https?:\/\//);
      expect(rec.sources.get(o.source_id)?.documented).toBe(1);
    }
  });
});
