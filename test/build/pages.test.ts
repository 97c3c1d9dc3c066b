// Office pages read by hand (data/pages): the quote check, the host check, and the committed records.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import {
  checkPageRecord,
  governmentOnly,
  readPageFiles,
  type CheckCtx,
  type PageRecord,
} from "../../scripts/build/pages";
import { OwnHosts } from "../../scripts/build/own-hosts";
import { addStateHosts } from "../../scripts/build/registry-hosts";

const own = new OwnHosts();
own.add("county:17031", "cookcountyil.gov");
own.add("place:1714000", "chicago.gov");
own.add("place:4260000", "phila.gov");
own.add("place:3651000", "nyc.gov");
const ctx: CheckCtx = {
  own,
  jurisdictions: new Map(
    ["county:17031", "place:1714000", "county:42101", "place:4260000", "county:36047", "place:3651000"].map((id) => [
      id,
      { jurisdiction_id: id, name: id, legal_type: null },
    ]),
  ),
  twins: (id) => (id === "county:42101" ? ["place:4260000"] : id === "place:4260000" ? ["county:42101"] : []),
  performer: (id, fn) => (id === "county:36047" && fn === "assessment" ? "place:3651000" : null),
};
const base: PageRecord = {
  jurisdiction_id: "county:17031",
  function: "tax_collection",
  topic: "tax_collector",
  office: "Cook County Treasurer's Office",
  name: "Treasurer's Office",
  url: "https://www.cookcountyil.gov/treasurers-office/",
  page: "https://www.cookcountyil.gov/treasurers-office/",
  read_at: "2026-11-23",
  quote: "Treasurer's Office Call 312-603-5105 or write to help@cookcountyil.gov at 118 N. Clark St.",
  via: null,
  provider: null,
  phone: null,
  email: null,
  address: null,
  search_url_template: null,
};
const check = (over: Partial<PageRecord>) => checkPageRecord({ ...base, ...over }, ctx);
const reasons = (over: Partial<PageRecord>) => {
  const c = check(over);
  return c.ok ? [] : c.reasons;
};

/** The own hosts addDelegatedHosts gives these governments (no registry rows). */
async function delegatedHosts(js: object[]): Promise<OwnHosts> {
  const { addDelegatedHosts } = await import("../../scripts/build/registry-hosts");
  const own = new OwnHosts();
  addDelegatedHosts(own, js as any[], null);
  return own;
}

describe("the quote check", () => {
  test("phone, e-mail and address are kept only when the quote shows them", () => {
    expect(check({ phone: "312-603-5105", email: "help@cookcountyil.gov", address: "118 N. Clark St." })).toEqual({
      ok: true,
      home: "county:17031",
    });
    expect(check({ phone: "(312) 603-5105" }).ok).toBe(true); // the same digits, other punctuation
    expect(reasons({ phone: "312-603-9999" })).toEqual(["phone 312-603-9999 is not in the quote"]);
    expect(reasons({ email: "treasurer@cookcountyil.gov" })).toEqual([
      "email treasurer@cookcountyil.gov is not in the quote",
    ]);
    expect(reasons({ address: "50 W. Washington St." })).toEqual(["address 50 W. Washington St. is not in the quote"]);
  });
  test("a quote is required and at most 300 characters", () => {
    expect(reasons({ quote: "" })).toContain("no quote");
    expect(reasons({ quote: "x".repeat(301) })).toContain("quote over 300 characters (301)");
    expect(check({ quote: "x".repeat(300) }).ok).toBe(true);
  });
  test("topic and function agree; a search template has a placeholder", () => {
    expect(reasons({ topic: "zoning" })).toEqual(["topic zoning is not a topic of tax_collection"]);
    expect(reasons({ search_url_template: "https://www.cookcountyil.gov/search?pin=1" })[0]).toContain("{pin}");
    expect(check({ search_url_template: "https://www.cookcountyil.gov/search?pin={pin}" }).ok).toBe(true);
  });
});

describe("the host check", () => {
  test("the government's own host (and hosts under it) pass", () => {
    expect(check({ url: "https://assessor.cookcountyil.gov/x", page: "https://assessor.cookcountyil.gov/x" }).ok).toBe(
      true,
    );
  });
  test("another government's host is refused: a city's domain is never the county's office page", () => {
    expect(reasons({ url: "https://www.chicago.gov/tax", page: "https://www.chicago.gov/tax" })).toEqual([
      "host www.chicago.gov belongs to place:1714000, not county:17031",
    ]);
  });
  test("an unknown host is refused unless an own page names it in its quote (via); a vendor host sets provider", () => {
    const vendor = { url: "https://pay.example-payments.com/cook", page: "https://pay.example-payments.com/cook" };
    expect(reasons(vendor)[0]).toContain("is not a known own host of county:17031");
    const via = {
      page: "https://www.cookcountyil.gov/treasurers-office/",
      quote: "Pay online at pay.example-payments.com",
    };
    expect(check({ ...vendor, provider: "Example Payments", via })).toEqual({ ok: true, home: "county:17031" });
    expect(reasons({ ...vendor, via: { ...via, quote: "Pay online" } })).toEqual([
      "via quote does not name pay.example-payments.com",
    ]);
    expect(reasons({ ...vendor, via: { ...via, page: "https://www.chicago.gov/x" } })[0]).toContain(
      "is not on the government's own host",
    );
  });
  test("a state body's page is on its state's registry host; a state host is never a county's own", () => {
    const own2 = new OwnHosts();
    own2.add("county:24031", "montgomerycountymd.gov");
    const csv = [
      "Domain name,Domain type,Organization name,Suborganization name,City,State,Security contact email",
      "maryland.gov,State or territory,Department of Information Technology,,Crownsville,MD,(blank)",
      "texas.gov,State or territory,Texas Department of Information Resources,,Austin,TX,(blank)",
      "mdelections.gov,State or territory - Election,State Board of Elections,,Annapolis,MD,(blank)",
    ].join("\n");
    const js = new Map(
      [
        { jurisdiction_id: "state:24", type: "state", state: "MD", name: "Maryland", legal_type: "state" },
        {
          jurisdiction_id: "county:24031",
          type: "county",
          state: "MD",
          name: "Montgomery County",
          legal_type: "county",
        },
      ].map((j) => [j.jurisdiction_id, j as any]),
    );
    expect(addStateHosts(own2, csv, js)).toBe(1); // Texas has no state jurisdiction here; election rows are not taken
    const ctx2: CheckCtx = { ...ctx, own: own2, jurisdictions: js };
    const sdat = {
      ...base,
      jurisdiction_id: "state:24",
      function: "assessment",
      topic: "assessor",
      office: "Department of Assessments and Taxation",
      url: "https://dat.maryland.gov/Pages/default.aspx",
      page: "https://dat.maryland.gov/Pages/default.aspx",
    };
    expect(checkPageRecord(sdat, ctx2)).toEqual({ ok: true, home: "state:24" });
    const county = { ...sdat, jurisdiction_id: "county:24031" };
    expect(checkPageRecord(county, ctx2)).toEqual({
      ok: false,
      reasons: ["host dat.maryland.gov belongs to state:24, not county:24031"],
    });
  });
  test("a state's own directory page naming the county and the host proves the host; another state's never", () => {
    const own3 = new OwnHosts();
    own3.add("state:13", "georgia.gov");
    own3.add("state:48", "texas.gov");
    own3.add("county:13121", "fultoncountyga.gov");
    const js = new Map(
      [
        ["county:13077", "Coweta County"],
        ["county:13121", "Fulton County"],
      ].map(([id, name]) => [id!, { jurisdiction_id: id!, name: name!, legal_type: "county" }]),
    );
    const ctx3: CheckCtx = { ...ctx, own: own3, jurisdictions: js };
    const coweta: PageRecord = {
      ...base,
      jurisdiction_id: "county:13077",
      office: "Tax Commissioner's Office",
      topic: "property_tax_payment",
      url: "http://www.cowetataxcom.com/taxes#/",
      page: "https://dor.georgia.gov/county-property-tax-facts-coweta",
      quote: "Website: www.cowetataxcom.com Pay Tax Online: http://www.cowetataxcom.com/taxes#/",
      via: {
        page: "https://dor.georgia.gov/county-property-tax-facts-coweta",
        quote: "Website: www.cowetataxcom.com Pay Tax Online",
      },
    };
    // the county is named in the state page's address; the quote names the host
    expect(checkPageRecord(coweta, ctx3)).toEqual({ ok: true, home: "county:13077" });
    // named in the quote instead
    const listed = { page: "https://dor.georgia.gov/tax-commissioners", quote: "Coweta County: www.cowetataxcom.com" };
    expect(checkPageRecord({ ...coweta, page: listed.page, via: listed }, ctx3).ok).toBe(true);
    // a state page that names neither this county (another county's facts page) nor, then, proves anything
    const other = { ...coweta.via!, page: "https://dor.georgia.gov/county-property-tax-facts-fulton" };
    expect(checkPageRecord({ ...coweta, page: other.page, via: other }, ctx3)).toEqual({
      ok: false,
      reasons: [
        "via page https://dor.georgia.gov/county-property-tax-facts-fulton is not on the government's own host (nor its state's page naming Coweta County, nor a page of a government lying in it)",
      ],
    });
    // another state's page never counts
    const texas = { page: "https://comptroller.texas.gov/coweta", quote: "Coweta County: www.cowetataxcom.com" };
    expect(checkPageRecord({ ...coweta, page: texas.page, via: texas }, ctx3).ok).toBe(false);
    // another county's own page is not the state's: Fulton's site naming Coweta's host proves nothing for Coweta
    const fulton = { page: "https://www.fultoncountyga.gov/coweta", quote: "Coweta County: www.cowetataxcom.com" };
    expect(checkPageRecord({ ...coweta, page: fulton.page, via: fulton }, ctx3).ok).toBe(false);
  });
  test("a city's own page sending its residents to their county's office proves that office's host for the county", () => {
    const own4 = new OwnHosts();
    own4.add("county:48141", "epcounty.gov");
    own4.add("place:4824000", "elpasotexas.gov"); // the City of El Paso, in El Paso County
    own4.add("place:4803000", "amarillo.gov"); // a city of another county
    own4.add("county:48061", "cameroncountytx.gov"); // a neighbouring county
    const js = new Map(
      [
        {
          jurisdiction_id: "county:48141",
          type: "county",
          name: "El Paso County",
          legal_type: "county",
          county_id: null,
        },
        {
          jurisdiction_id: "place:4824000",
          type: "place",
          name: "El Paso city",
          legal_type: "city",
          county_id: "county:48141",
        },
        {
          jurisdiction_id: "place:4803000",
          type: "place",
          name: "Amarillo city",
          legal_type: "city",
          county_id: "county:48375",
        },
        {
          jurisdiction_id: "county:48061",
          type: "county",
          name: "Cameron County",
          legal_type: "county",
          county_id: null,
        },
      ].map((j) => [j.jurisdiction_id, j]),
    );
    const ctx4: CheckCtx = { ...ctx, own: own4, jurisdictions: js };
    const cad: PageRecord = {
      ...base,
      jurisdiction_id: "county:48141",
      function: "assessment",
      topic: "assessor",
      office: "El Paso Central Appraisal District",
      url: "http://www.epcad.org/FAQ.htm",
      page: "http://www.epcad.org/FAQ.htm",
      quote: "El Paso Central Appraisal District frequently asked questions",
      via: {
        page: "https://www.elpasotexas.gov/tax-office/services-and-faqs/",
        quote: "Please contact the El Paso Central Appraisal District at (915) 780-2131 or at www.epcad.org.",
      },
    };
    expect(checkPageRecord(cad, ctx4)).toEqual({ ok: true, home: "county:48141" });
    const passes = (via: { page: string; quote: string }, over: Partial<PageRecord> = {}) =>
      checkPageRecord({ ...cad, via, ...over }, ctx4).ok;
    // the quote must name the county
    expect(passes({ ...cad.via!, quote: "Please contact the appraisal district at www.epcad.org." })).toBe(false);
    // a city of another county, or a neighbouring county, proves nothing
    expect(passes({ ...cad.via!, page: "https://www.amarillo.gov/taxes" })).toBe(false);
    expect(passes({ ...cad.via!, page: "https://www.cameroncountytx.gov/taxes" })).toBe(false);
    // a host some list gives to a government (here the city's own) never becomes the county's this way
    const cityHost = {
      url: "https://www.elpasotexas.gov/tax-office/",
      page: "https://www.elpasotexas.gov/tax-office/",
    };
    const viaCity = { ...cad.via!, quote: "El Paso Central Appraisal District: www.elpasotexas.gov/tax-office" };
    expect(passes(viaCity, cityHost)).toBe(false);
    // and a county's page never proves a host for a city this way
    const city = { ...cad, jurisdiction_id: "place:4824000" };
    const viaCounty = { page: "https://www.epcounty.gov/x", quote: "El Paso: www.epcad.org" };
    expect(checkPageRecord({ ...city, via: viaCounty }, ctx4).ok).toBe(false);
  });
  test("a consolidated city-county's twin host is the same government; an override's body takes the record", () => {
    const phila = {
      jurisdiction_id: "county:42101",
      url: "https://www.phila.gov/opa",
      page: "https://www.phila.gov/opa",
    };
    expect(check({ ...phila, function: "assessment", topic: "assessor" })).toEqual({ ok: true, home: "county:42101" });
    const nyc = {
      jurisdiction_id: "county:36047",
      url: "https://www.nyc.gov/finance",
      page: "https://www.nyc.gov/finance",
    };
    expect(check({ ...nyc, function: "assessment", topic: "assessor" })).toEqual({ ok: true, home: "place:3651000" });
    expect(check({ ...nyc, function: "recording", topic: "recorder_deeds" }).ok).toBe(false);
  });
  test("a government's bare name is no office name", () => {
    expect(governmentOnly("Hennepin County", "Hennepin County", "county")).toBe(true);
    expect(governmentOnly("County of Hennepin", "Hennepin County", "county")).toBe(true);
    expect(governmentOnly("City of Tampa", "Tampa city", "city")).toBe(true);
    expect(governmentOnly("Hennepin County Assessor's Office", "Hennepin County", "county")).toBe(false);
    expect(governmentOnly("Town of Davie Building Division", "Davie town", "town")).toBe(false);
  });
});

describe("the committed records (data/pages)", () => {
  const all = readPageFiles(join(import.meta.dir, "../..", "data", "pages"));
  test("hundreds of records, each with a page, a read date and a quote of at most 300 characters", () => {
    expect(all.length).toBeGreaterThan(600);
    for (const { file, index, record: r } of all) {
      const where = `${file}#${index}`;
      expect(r.quote.length, where).toBeLessThanOrEqual(300);
      expect(r.read_at, where).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(r.page, where).toMatch(/^https?:\/\//);
    }
  });
  test("no committed record fails the quote checks (the host check alone may refuse a record the build cannot prove)", () => {
    const loose: CheckCtx = { ...ctx, jurisdictions: new Map(all.map((x) => [x.record.jurisdiction_id, {} as any])) };
    for (const { file, index, record } of all) {
      const c = checkPageRecord(record, loose);
      const bad = c.ok ? [] : c.reasons.filter((r) => !/host|via/.test(r));
      expect(bad, `${file}#${index}`).toEqual([]);
    }
  });
});

describe("own hosts named by the .gov registry (registry-hosts.ts)", () => {
  const registry = (...rows: string[]) =>
    ["Domain name,Domain type,Organization name,Suborganization name,City,State,Security contact email", ...rows].join(
      "\n",
    );
  test("a row whose contact is at a government's domain is that government's, unless the row is a council of governments", async () => {
    const { addContactEmailHosts } = await import("../../scripts/build/registry-hosts");
    const own8 = new OwnHosts();
    own8.add("cousub:3904950064", "mifflin-oh.gov");
    const js = new Map([
      [
        "cousub:3904950064",
        { jurisdiction_id: "cousub:3904950064", type: "cousub", state: "OH", name: "Mifflin township" },
      ],
    ]) as any;
    const csv = registry(
      "mifflin-oh.gov,City,Mifflin Township,,Gahanna,OH,mainc@mifflin-oh.gov",
      "mifflintwppd-oh.gov,City,Mifflin Township Police,,Gahanna,OH,mainc@mifflin-oh.gov",
      "meccrcog-oh.gov,City,Regional Council of Governments,,Gahanna,OH,mainc@mifflin-oh.gov",
    );
    addContactEmailHosts(own8, csv, js);
    expect([...own8.owners("mifflintwppd-oh.gov")]).toEqual(["cousub:3904950064"]);
    expect(own8.owners("meccrcog-oh.gov").size).toBe(0);
  });
  test("a County row naming 'X Co.' is county X's own host; a special district named after the county is not", async () => {
    const { addNamedRegistryHosts } = await import("../../scripts/build/registry-hosts");
    const own4 = new OwnHosts();
    const csv = registry(
      "dutchessny.gov,County,Dutchess Co. Office of Computer Information Services,,Poughkeepsie,NY,(blank)",
      "dutchesswater.gov,County,Dutchess County Water Authority,,Poughkeepsie,NY,(blank)",
      "ulsterco.gov,City,Ulster Co Example,,Kingston,NY,(blank)",
    );
    const js = [
      { jurisdiction_id: "county:36027", type: "county", state: "NY", name: "Dutchess County", legal_type: "county" },
      { jurisdiction_id: "county:36111", type: "county", state: "NY", name: "Ulster County", legal_type: "county" },
    ] as any[];
    expect(addNamedRegistryHosts(own4, csv, js)).toEqual({ counties: 1, places: 0 });
    expect(own4.isOwn("www.dutchessny.gov", "county:36027")).toBe(true);
    expect(own4.isOwn("dutchesswater.gov", "county:36027")).toBe(false);
    expect(own4.isOwn("ulsterco.gov", "county:36111")).toBe(false); // a City row is never a county's by "Co"
  });
  test("delegated names under a state's domains: <st>.gov, and <statename>.gov only where the registry lists it", async () => {
    const { addDelegatedHosts } = await import("../../scripts/build/registry-hosts");
    const own5 = new OwnHosts();
    const csv = registry(
      "iowa.gov,State or territory,State of Iowa - OCIO,,Des Moines,IA,(blank)",
      "ri.gov,State or territory,State of Rhode Island,,Providence,RI,(blank)",
    );
    const js = [
      { jurisdiction_id: "state:19", type: "state", state: "IA", name: "Iowa" },
      { jurisdiction_id: "state:44", type: "state", state: "RI", name: "Rhode Island" },
      { jurisdiction_id: "state:08", type: "state", state: "CO", name: "Colorado" },
      { jurisdiction_id: "county:19013", type: "county", state: "IA", name: "Black Hawk County", legal_type: "county" },
      { jurisdiction_id: "county:08003", type: "county", state: "CO", name: "Alamosa County", legal_type: "county" },
      { jurisdiction_id: "place:0801090", type: "place", state: "CO", name: "Alamosa city", legal_type: "city" },
      { jurisdiction_id: "place:1917220", type: "place", state: "IA", name: "Commerce city", legal_type: "city" },
      {
        jurisdiction_id: "cousub:4400105140",
        type: "cousub",
        state: "RI",
        name: "Barrington town",
        legal_type: "town",
      },
    ] as any[];
    expect(addDelegatedHosts(own5, js, csv)).toEqual({ counties: 2, locals: 3 });
    expect(own5.isOwn("www.blackhawkcounty.iowa.gov", "county:19013")).toBe(true);
    expect(own5.isOwn("blackhawkcounty.ia.gov", "county:19013")).toBe(true);
    expect(own5.isOwn("www.co.black-hawk.ia.us", "county:19013")).toBe(true);
    // colorado.gov is not in this registry: no delegated name under it
    expect(own5.isOwn("alamosacounty.colorado.gov", "county:08003")).toBe(false);
    expect(own5.isOwn("alamosacounty.co.gov", "county:08003")).toBe(true);
    // Alamosa is the name of a county and a city: the bare name is nobody's, the prefixed one the city's
    expect(own5.owners("alamosa.co.gov").size).toBe(0);
    expect(own5.isOwn("cityofalamosa.co.gov", "place:0801090")).toBe(true);
    // a New England town by its bare name; a city only with a prefix (a state's agencies use bare words)
    expect(own5.isOwn("barrington.ri.gov", "cousub:4400105140")).toBe(true);
    expect(own5.owners("commerce.iowa.gov").size).toBe(0);
    expect(own5.isOwn("cityofcommerce.iowa.gov", "place:1917220")).toBe(true);
  });
  test("a delegated name's prefix says the kind: the City and the Town of Cedarburg are two governments", async () => {
    const own6 = await delegatedHosts([
      { jurisdiction_id: "state:55", type: "state", state: "WI", name: "Wisconsin" },
      { jurisdiction_id: "place:5513375", type: "place", state: "WI", name: "Cedarburg city", legal_type: "city" },
      { jurisdiction_id: "cousub:5508913350", type: "cousub", state: "WI", name: "Cedarburg city", legal_type: "city" },
      { jurisdiction_id: "cousub:5508913375", type: "cousub", state: "WI", name: "Cedarburg town", legal_type: "town" },
    ]);
    expect([...own6.owners("cityofcedarburg.wi.gov")]).toEqual(["place:5513375"]);
    expect([...own6.owners("townofcedarburg.wi.gov")]).toEqual(["cousub:5508913375"]);
    expect(own6.owners("cedarburg.wi.gov").size).toBe(0);
    // the .us locality name of a city (RFC 1480 "CI"): the City's, never the Town's
    expect([...own6.owners("www.ci.cedarburg.wi.us")]).toEqual(["place:5513375"]);
  });
  test("a city's .us locality name: ci.<name>.<st>.us, hyphenated for several words; none where two cities share the name", async () => {
    const own7 = await delegatedHosts([
      { jurisdiction_id: "state:31", type: "state", state: "NE", name: "Nebraska" },
      { jurisdiction_id: "place:3137000", type: "place", state: "NE", name: "Omaha city", legal_type: "city" },
      { jurisdiction_id: "place:5585350", type: "place", state: "WI", name: "West Bend city", legal_type: "city" },
      { jurisdiction_id: "place:3100001", type: "place", state: "NE", name: "Twin city", legal_type: "city" },
      { jurisdiction_id: "place:3100002", type: "place", state: "NE", name: "Twin city", legal_type: "city" },
      { jurisdiction_id: "place:3100003", type: "place", state: "NE", name: "Hamlet village", legal_type: "village" },
    ]);
    expect([...own7.owners("www.ci.omaha.ne.us")]).toEqual(["place:3137000"]);
    expect([...own7.owners("ci.west-bend.wi.us")]).toEqual(["place:5585350"]);
    expect([...own7.owners("ci.westbend.wi.us")]).toEqual(["place:5585350"]);
    expect(own7.owners("ci.twin.ne.us").size).toBe(0);
    expect(own7.owners("ci.hamlet.ne.us").size).toBe(0);
  });
});
