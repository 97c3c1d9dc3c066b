import { describe, expect, test } from "bun:test";
import { parsePlaceQuery, splitName, tokens } from "../../src/directory/names";

describe("place names", () => {
  test("case, punctuation and Saint/St. alike", () => {
    expect(tokens("Saint Paul")).toEqual(tokens("st. paul"));
    expect(tokens("ST.-PAUL")).toEqual(["st", "paul"]);
    expect(tokens("Ste. Genevieve")).toEqual(tokens("Sainte Genevieve"));
  });
  test("legal words are split off", () => {
    expect(splitName("Lake Township")).toEqual({ base: "lake", legal: "township" });
    expect(splitName("Hennepin County")).toEqual({ base: "hennepin", legal: "county" });
    expect(splitName("Springfield charter township")).toEqual({ base: "springfield", legal: "charter township" });
    expect(splitName("City of Minneapolis")).toEqual({ base: "minneapolis", legal: "city" });
    expect(splitName("Minneapolis")).toEqual({ base: "minneapolis", legal: null });
  });
  test("a county may follow after a comma; the value may end in the state", () => {
    const isState = (c: string) => ["MN", "IL", "VT"].includes(c);
    expect(parsePlaceQuery("Lake Township, Roseau County", isState)).toEqual({
      name: "Lake Township",
      county: "Roseau County",
      state: null,
    });
    expect(parsePlaceQuery("Springfield, IL", isState)).toEqual({ name: "Springfield", county: null, state: "IL" });
    expect(parsePlaceQuery("Lake Township, Roseau County, MN", isState)).toEqual({
      name: "Lake Township",
      county: "Roseau County",
      state: "MN",
    });
    expect(parsePlaceQuery("Burlington VT", isState)).toEqual({ name: "Burlington", county: null, state: "VT" });
    expect(parsePlaceQuery("Ely", isState)).toEqual({ name: "Ely", county: null, state: null });
  });
});
