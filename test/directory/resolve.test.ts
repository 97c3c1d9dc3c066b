// Domain tests on the real data file (../shared/data).
import { beforeAll, describe, expect, test } from "bun:test";
import { fullDirectory } from "../helpers/directory-app";
import { Directory } from "../../src/directory/directory";
import { contentFromStore } from "../../src/directory/content";
import { pageLinksFor } from "../../src/domain/page-links";
import { testConfig } from "../helpers/app";
import { DomainError } from "../../src/domain/errors";

let d: Directory;
beforeAll(async () => {
  d = (await fullDirectory()).directory;
}, 600_000);

const ids = (r: { data: { jurisdictions: { jurisdiction_id: string }[] } }) =>
  r.data.jurisdictions.map((j) => j.jurisdiction_id);
const fails = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    if (e instanceof DomainError) return e;
    throw e;
  }
  throw new Error("did not fail");
};

describe("resolve by point", () => {
  test("downtown Minneapolis: state:27 → county:27053 → cousub:2705343000 → place:2743000", () => {
    const r = d.resolvePoint(-93.265, 44.9778);
    expect(ids(r)).toEqual(["state:27", "county:27053", "cousub:2705343000", "place:2743000"]);
    expect(r.data.match).toEqual({ by: "point", label: null, approximate: false });
    expect(r.data.point).toEqual({ type: "Point", coordinates: [-93.265, 44.9778] });
  });
  test("Minneapolis: the city's own assessor (local override) performs assessment; recording is the county's", () => {
    const f = d.resolvePoint(-93.265, 44.9778).data.functions as any;
    expect(f.assessment.jurisdiction_id).toBe("place:2743000");
    expect(f.assessment.evidence_url).toMatch(/^https:\/\//);
    expect(f.recording.jurisdiction_id).toBe("county:27053");
    expect(f.recording.office_name).toBe("Hennepin County Recorder");
    expect(f.tax_collection.jurisdiction_id).toBe("county:27053");
    for (const fn of ["assessment", "tax_collection", "recording", "zoning", "permits", "gis"])
      expect(f[fn].function).toBe(fn);
  });
  test("a point in a Vermont town gives the town as county subdivision, and town-level assessment", () => {
    // Middlebury, VT (town hall area)
    const r = d.resolvePoint(-73.1673, 44.0153);
    const chain = ids(r);
    expect(chain[0]).toBe("state:50");
    expect(chain[1]).toBe("county:50001");
    expect(chain[2]).toMatch(/^cousub:50001/);
    const town = r.data.jurisdictions[2]!;
    expect(town.name).toMatch(/^Middlebury town/);
    const a = (r.data.functions as any).assessment;
    expect(a.jurisdiction_id).toBe(town.jurisdiction_id);
    expect(a.basis).toContain("Vermont");
  });
  test("a point outside every covered state → outside-coverage", () => {
    expect(fails(() => d.resolvePoint(-30, 30)).suffix).toBe("outside-coverage");
    expect(fails(() => d.resolvePoint(0, 0)).suffix).toBe("outside-coverage");
  });
  test("the same point always resolves the same way: a fresh directory over the same file gives the same answer", async () => {
    // a second call on `d` would return the kept chain answer; a new instance builds it again from the rows
    const { db } = await fullDirectory();
    const fresh = new Directory(db, contentFromStore(db), pageLinksFor(testConfig().base_url));
    for (const [lon, lat] of [
      [-93.265, 44.9778],
      [-72.58, 44.26],
      [-87.6298, 41.8781],
    ] as const) {
      const a = JSON.stringify(d.resolvePoint(lon, lat));
      expect(JSON.stringify(fresh.resolvePoint(lon, lat))).toBe(a);
      expect(JSON.stringify(d.resolvePoint(lon, lat))).toBe(a);
    }
  });
  test("sources list the trail of what the answer holds; notices are an array", () => {
    const r = d.resolvePoint(-93.265, 44.9778);
    const names = r.sources.map((s) => s.name).join(" | ");
    expect(names).toContain("Open Civic Data");
    expect(names).toContain("Atlas");
    for (const s of r.sources) expect(() => new URL(s.url)).not.toThrow();
    expect(Array.isArray(r.notices)).toBe(true);
  });
});

describe("resolve by place", () => {
  test("Springfield across states → ambiguous with choices (jurisdiction_id, label, page_url)", () => {
    const e = fails(() => d.resolvePlace("Springfield"));
    expect(e.suffix).toBe("ambiguous");
    const states = new Set(e.extra.choices!.map((c) => c.label.slice(-2)));
    expect(states.size).toBeGreaterThan(5);
    for (const c of e.extra.choices!) {
      expect(c.jurisdiction_id).toMatch(/^(place|cousub|county):/);
      expect(c.page_url).toContain(c.jurisdiction_id!);
    }
  });
  test("a Minnesota city that is both place and county subdivision is one answer", () => {
    const r = d.resolvePlace("Minneapolis", "MN");
    expect(r.data.match.by).toBe("place");
    expect(r.data.point).toBeNull();
    expect(ids(r)).toEqual(["state:27", "county:27053", "cousub:2705343000", "place:2743000"]);
  });
  test("Saint/St., case and punctuation; trailing state; county after a comma", () => {
    expect(ids(d.resolvePlace("saint paul, mn")).at(-1)).toBe("place:2758000");
    expect(ids(d.resolvePlace("ST. PAUL", "MN")).at(-1)).toBe("place:2758000");
    expect(ids(d.resolvePlace("Lake Township, Roseau County"))).toEqual([
      "state:27",
      "county:27135",
      "cousub:2713534010",
    ]);
    expect(ids(d.resolvePlace("Hennepin County", "MN"))).toEqual(["state:27", "county:27053"]);
  });
  test("none → place-not-found; unknown state → unknown-state", () => {
    expect(fails(() => d.resolvePlace("Nowheresville Xyzzy", "MN")).suffix).toBe("place-not-found");
    expect(fails(() => d.resolvePlace("Springfield", "ZZ")).suffix).toBe("unknown-state");
  });
});

describe("resolve by jurisdiction_id", () => {
  test("a county subdivision's county is its GEOID's county; same_as both ways", () => {
    const r = d.resolveId("cousub:2705343000");
    expect(ids(r)).toEqual(["state:27", "county:27053", "cousub:2705343000", "place:2743000"]);
    const place = r.data.jurisdictions[3]!;
    expect(place.same_as).toContain("cousub:2705343000");
    expect(r.data.jurisdictions[2]!.same_as).toContain("place:2743000");
  });
  test("unknown id → unknown-jurisdiction", () => {
    expect(fails(() => d.resolveId("county:99999")).suffix).toBe("unknown-jurisdiction");
  });
});

describe("further bodies for the same job (also)", () => {
  test("Madison, WI: the city treasurer collects, the county treasurer takes delinquent taxes", () => {
    const r = d.resolvePoint(-89.4012, 43.0731);
    const tc = (r.data.functions as any).tax_collection;
    expect(tc.jurisdiction_id).toBe("place:5548000");
    expect(tc.role).toBe("primary");
    expect(tc.office_name).toBe("City of Madison Treasurer's Office"); // as its own page names it (data/pages)
    expect(tc.also).toHaveLength(1);
    expect(tc.also[0]).toMatchObject({
      jurisdiction_id: "county:55025",
      role: "delinquent",
      office_name: "Dane County Treasurer's Office", // as its own page names it (data/pages)
    });
    expect(tc.also[0].evidence_url).toBe(tc.evidence_url);
    expect((r.data.functions as any).recording.also).toBeUndefined();
  });
});

describe("functions where no body in the chain performs the job", () => {
  test("jurisdiction_id null with a basis", () => {
    // a county alone: a town-level assessment state (Vermont) has no town in the chain
    const f = d.resolveId("county:50001").data.functions as any;
    expect(f.assessment.jurisdiction_id).toBeNull();
    expect(f.assessment.basis).toMatch(/Vermont/);
    expect(f.assessment.resources).toEqual([]);
  });
});
