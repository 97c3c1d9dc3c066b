// THE refusal rule for questions about people (issue 19, item 10): one rule for the county-data question reader,
// the MCP server's fields and questions. A test per word class, each normalised form, and questions that are not
// about people.
import { describe, expect, test } from "bun:test";
import { asksAboutPeople, peopleReadings } from "../../src/parcels/people-words";
import { readQuestion } from "../../src/parcels/question";

const CLASSES: Record<string, string[]> = {
  owners: ["who owns the most land in King County, WA", "largest landowners", "ownership of parcel 123", "landlord"],
  taxpayers: ["taxpayer names in county:53033", "TaxpayerName", "tax payer of record"],
  "buyers and sellers": [
    "purchaser of the most expensive house in King County, WA",
    "buyers of the 10 priciest homes",
    "who sold the biggest lot",
    "seller of parcel 1020069017",
    "bought by whom",
  ],
  "grantees and grantors": ["grantee of the latest sale", "grantor", "GRANTEE_NAME"],
  mailing: ["mailing_address", "mailingAddress", "mail to address of the top parcel", "in care of"],
  "who and whose": ["who has the largest parcel", "whose house is the biggest", "belongs to"],
  "names of people": ["names of residents", "tenant list", "occupants of 1 Main St", "heirs"],
};

describe("every word class is refused", () => {
  for (const [cls, texts] of Object.entries(CLASSES))
    test(cls, () => {
      for (const t of texts) expect([t, asksAboutPeople(t)]).toEqual([t, true]);
    });
});

describe("normalised before the words are looked for", () => {
  test("case, camelCase and snake_case field names", () => {
    for (const t of ["OWNER", "ownerName", "owner_name", "OwnerName1", "PROPERTY-OWNER"])
      expect(asksAboutPeople(t)).toBe(true);
  });
  test("digits written for letters inside a word", () => {
    for (const t of ["0wner", "purchas3r", "se11er", "t4xp4yer", "1andowner", "gr4ntee"])
      expect([t, asksAboutPeople(t)]).toEqual([t, true]);
  });
  test("look-alike letters of other scripts and full-width forms", () => {
    for (const t of ["оwner" /* Cyrillic о */, "Ρurchaser" /* Greek Ρ */, "ｏｗｎｅｒ", "Оwnеr_name"])
      expect([t, asksAboutPeople(t)]).toEqual([t, true]);
    expect(peopleReadings("оwner")[0]).toBe(" owner ");
  });
});

describe("questions about parcels are not refused", () => {
  for (const q of [
    "biggest parcel in King County, WA",
    "most expensive house sold since 2015 in county:53033",
    "single-family homes built before 1950",
    "median value of parcels over 5 acres",
    "how many parcels sold in 2014",
    "newest building",
    "acres",
    "sale_price",
    "year_built",
  ])
    test(q, () => expect(asksAboutPeople(q)).toBe(false));
});

describe("the question reader uses the rule", () => {
  test("an owner-style ranking question is read as owners (refused), not as a plan", () => {
    expect(readQuestion("purchaser of the most expensive house in King County, WA").kind).toBe("owners");
    expect(readQuestion("0wner of the biggest parcel in King County, WA").kind).toBe("owners");
    expect(readQuestion("biggest parcel in King County, WA").kind).toBe("plan");
  });
});
