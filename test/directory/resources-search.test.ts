import { beforeAll, describe, expect, test } from "bun:test";
import { fullDirectory } from "../helpers/directory-app";
import type { Directory } from "../../src/directory/directory";

let d: Directory;
beforeAll(async () => {
  d = (await fullDirectory()).directory;
}, 600_000);

describe("resources ranking", () => {
  test("with a topic: the place's own first, then up the chain to the state and country:us", () => {
    const r = d.resources({ jurisdictionId: "place:2743000" }, "property_records_general", 0, 100);
    const owners = r.data.resources.map((x) => x.jurisdiction_id);
    const order = ["place:2743000", "cousub:2705343000", "county:27053", "state:27", "country:us"];
    const ranks = owners.map((o) => order.indexOf(o!));
    expect(ranks.every((x) => x >= 0)).toBe(true);
    expect([...ranks].sort((a, b) => a - b)).toEqual(ranks);
    expect(owners[0]).toBe("place:2743000");
    expect(owners).toContain("country:us");
  });
  test("without a topic: only the place's own", () => {
    const r = d.resources({ jurisdictionId: "county:27053" }, null, 0, 100);
    expect(r.data.resources.length).toBeGreaterThan(0);
    for (const x of r.data.resources) expect(x.jurisdiction_id).toBe("county:27053");
  });
  test("a point with a topic uses the point's chain", () => {
    const r = d.resources({ point: { lon: -93.265, lat: 44.9778 } }, "floodplain", 0, 50);
    expect(r.data.jurisdiction.jurisdiction_id).toBe("place:2743000");
    expect(r.data.resources.some((x) => x.name.includes("FEMA"))).toBe(true);
  });
  test("paging is a stable slice of one order", () => {
    const all = d
      .resources({ jurisdictionId: "place:2743000" }, "property_records_general", 0, 100)
      .data.resources.map((x) => x.resource_id);
    const p1 = d.resources({ jurisdictionId: "place:2743000" }, "property_records_general", 0, 2);
    const p2 = d.resources({ jurisdictionId: "place:2743000" }, "property_records_general", 2, 2);
    expect([...p1.data.resources, ...p2.data.resources].map((x) => x.resource_id)).toEqual(all.slice(0, 4));
    expect(p1.nextOffset).toBe(all.length > 2 ? 2 : null);
  });
});

describe("search", () => {
  test("prefix match over place names, best first, twins collapsed", () => {
    const r = d.searchNames("minneap", null, 10);
    expect(r.data.places[0]!.jurisdiction_id).toBe("place:2743000");
    expect(r.data.places.map((p) => p.jurisdiction_id)).not.toContain("cousub:2705343000");
  });
  test("state filter and resource names", () => {
    const r = d.searchNames("hennepin", "MN", 10);
    expect(r.data.places[0]!.jurisdiction_id).toBe("county:27053");
    expect(r.data.places.every((p) => p.state === "MN")).toBe(true);
    expect(r.data.resources.some((x) => x.name.includes("Hennepin"))).toBe(true);
  });
  test("limit is honoured; FTS syntax in the query is inert", () => {
    expect(d.searchNames("springfield", null, 3).data.places.length).toBe(3);
    expect(() => d.searchNames('NEAR("x" OR *) "', null, 5)).not.toThrow();
  });
});
