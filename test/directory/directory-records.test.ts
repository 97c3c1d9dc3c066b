import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildDirectoryRecords } from "../../scripts/build/directory-records";
import { loadAuthoredRecords } from "../../scripts/build/records-authored";
import { matchRegistry, orgVariants, type DotgovRow } from "../../scripts/build/dotgov";
import type { JurisdictionIn } from "../../scripts/build/records-common";
import { jurisdictionIn } from "../helpers/jurisdiction-in";

const ROOT = join(import.meta.dir, "../..");
const SOURCES = join(ROOT, "..", "shared", "data");

const J = jurisdictionIn;

function jurisdictions(): Map<string, JurisdictionIn> {
  const list = [
    J("country:us", "country", "United States", null, null),
    J("state:27", "state", "Minnesota", null, "MN"),
    J("state:50", "state", "Vermont", null, "VT"),
    J("county:27053", "county", "Hennepin County", "county", "MN"),
    J("county:27123", "county", "Ramsey County", "county", "MN"),
    J("county:27055", "county", "Houston County", "county", "MN"),
    J("county:50007", "county", "Chittenden County", "county", "VT"),
    J("place:2743000", "place", "Minneapolis", "city", "MN", "county:27053"),
    J("cousub:2705343000", "cousub", "Minneapolis city", "city", "MN", "county:27053"),
    J("place:2706616", "place", "Bloomington", "city", "MN", "county:27053"),
    J("place:2733866", "place", "La Crescent", "city", "MN", "county:27055"),
    J("cousub:2705533884", "cousub", "La Crescent township", "township", "MN", "county:27055"),
    J("place:5010675", "place", "Burlington city", "city", "VT", "county:50007"),
  ];
  return new Map(list.map((j) => [j.jurisdiction_id, j]));
}

// Fixture state rules (the real data/state-rules.yaml is written elsewhere); URLs are the publishers' real pages.
const STATE_RULES = {
  MN: {
    name: "Minnesota",
    assessment: { office: "County Assessor", level: "county", where: "county" },
    property_tax_page: {
      name: "Minnesota Department of Revenue: Property Tax",
      url: "https://www.revenue.state.mn.us/property-tax",
    },
    gis_portal: { name: "Minnesota Geospatial Commons", url: "https://gisdata.mn.gov/" },
  },
};

const ctx = (sourcesDir: string | null) => ({
  sourcesDir,
  projectRoot: ROOT,
  jurisdictions: jurisdictions(),
  stateRules: STATE_RULES,
  log: () => {},
});

describe("directory records", async () => {
  const a = await buildDirectoryRecords(ctx(SOURCES));
  const b = await buildDirectoryRecords(ctx(SOURCES));
  const res = (jid: string) => a.resources.filter((r) => r.jurisdiction_id === jid);

  test("Hennepin County and Minneapolis get their .gov home pages", () => {
    const hen = res("county:27053").find((r) => r.source_kind === "cisa-dotgov-registry")!;
    expect(hen.url).toBe("https://hennepincounty.gov/");
    expect(hen.name).toBe("Hennepin County official website");
    expect(hen.publisher).toBe("Hennepin County");
    expect(hen.official).toBe(1);
    expect(JSON.parse(hen.topics)).toEqual(["property_records_general"]);
    const mpls = res("place:2743000").find((r) => r.source_kind === "cisa-dotgov-registry")!;
    expect(mpls.url).toBe("https://minneapolismn.gov/");
    expect(mpls.name).toBe("City of Minneapolis official website");
    // the Minneapolis county subdivision is the same government as the place: no second record
    expect(res("cousub:2705343000")).toHaveLength(0);
    expect(res("county:27123").map((r) => r.url)).toContain("https://ramseycountymn.gov/");
    expect(res("place:5010675").map((r) => r.url)).toContain("https://burlingtonvt.gov/");
  });

  test("city and township of the same name are told apart", () => {
    expect(res("place:2733866").map((r) => r.url)).toEqual(["https://cityoflacrescent-mn.gov/"]);
    expect(res("cousub:2705533884").map((r) => r.url)).toEqual(["https://lacrescenttownshipmn.gov/"]);
  });

  test("no made-up county office names: offices come from records (the registry, authored files, pages read) only", () => {
    // Hennepin registered no office domain: its offices are those its own pages name (data/pages); its tax pages
    // name only "Hennepin County", so no tax office is made from them (the entry takes the state rule's title).
    const hennepin = a.offices.filter((o) => o.jurisdiction_id === "county:27053");
    expect(hennepin.map((o) => o.function).sort()).toEqual(["assessment"]);
    for (const o of hennepin) expect(o.source_kind).toBe("hand-added");
    const quoteOf = new Map(a.sources.map((s) => [s.source_id, s.quote ?? ""]));
    for (const o of a.offices) {
      expect(o.documented).toBe(1);
      expect(["cisa-dotgov-registry", "hand-added"]).toContain(o.source_kind);
      // contact data only where the page read shows it (the record's quote)
      for (const v of [o.phone, o.email, o.address]) if (v) expect(quoteOf.get(o.source_id!) ?? "").toContain(v);
    }
  });

  test("ids are stable across runs and opaque", () => {
    expect(b.resources.map((r) => r.resource_id)).toEqual(a.resources.map((r) => r.resource_id));
    expect(b.offices.map((o) => o.office_id)).toEqual(a.offices.map((o) => o.office_id));
    expect(JSON.stringify(b)).toBe(JSON.stringify(a));
    for (const r of a.resources) expect(r.resource_id).toMatch(/^res_[0-9a-f]{16}$/);
    for (const o of a.offices) expect(o.office_id).toMatch(/^off_[0-9a-f]{16}$/);
    expect(new Set(a.resources.map((r) => r.resource_id)).size).toBe(a.resources.length);
  });

  test("every record's source is returned; documented only with url, publisher and date", () => {
    const ids = new Map(a.sources.map((s) => [s.source_id, s]));
    for (const r of [...a.resources, ...a.offices]) {
      expect(r.source_id).not.toBeNull();
      expect(ids.has(r.source_id!)).toBe(true);
      expect(r.documented).toBe(ids.get(r.source_id!)!.documented);
    }
    for (const o of a.function_overrides) expect(ids.has(o.source_id)).toBe(true);
    for (const s of a.sources) {
      expect(s.url).toMatch(/^https?:\/\//);
      expect(s.documented).toBe(s.url && s.publisher && (s.vintage || s.retrieved_at) ? 1 : 0);
    }
    const cisa = ids.get("cisa-dotgov")!;
    expect(cisa.license_class).toBe("open");
    expect(cisa.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(cisa.documented).toBe(1);
  });

  test("an e-mail address only on an office read on its own page, inside that page's quote; nowhere else", () => {
    const quote = new Map(a.sources.map((s: any) => [s.source_id, s.quote ?? ""]));
    for (const o of a.offices)
      if (o.email) {
        expect(o.source_kind).toBe("hand-added");
        expect(String(quote.get(o.source_id)).toLowerCase()).toContain(o.email.toLowerCase());
      }
    // elsewhere an address appears only inside a page's quote (a hand-read page's resource description quotes it)
    const quotes = [...quote.values()].join("\n").toLowerCase();
    const text = JSON.stringify([a.resources, a.offices, a.function_overrides]);
    for (const m of text.matchAll(/[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g))
      expect(quotes).toContain(m[0].toLowerCase());
  });

  test("national resources on country:us, in a fixed order", () => {
    const nat = res("country:us").sort((x, y) => x.sort_key - y.sort_key);
    expect(nat.map((r) => r.url)).toEqual([
      "https://msc.fema.gov/portal/home",
      "https://www.fws.gov/program/national-wetlands-inventory/wetlands-mapper",
      "https://websoilsurvey.nrcs.usda.gov/app/",
      "https://apps.nationalmap.gov/viewer/",
      "https://www.epa.gov/radon",
      "https://glorecords.blm.gov/",
      "https://tigerweb.geo.census.gov/tigerwebmain/TIGERweb_main.html",
    ]);
    for (const r of nat) {
      expect(r.official).toBe(1);
      expect(r.source_kind).toBe("hand-added");
      expect(r.verified_status).toBe("not_yet_verified");
      expect(r.verified_at).toBeNull();
      expect(r.documented).toBe(1);
    }
  });

  test("state property tax page and GIS portal on state:27", () => {
    const st = res("state:27").sort((x, y) => x.sort_key - y.sort_key);
    expect(st.map((r) => [r.url, r.sort_key])).toEqual([
      ["https://www.revenue.state.mn.us/property-tax", 10],
      ["https://gisdata.mn.gov/", 20],
    ]);
    expect(st.every((r) => r.source_kind === "state-rules-yaml" && r.documented === 1)).toBe(true);
    expect(res("state:50")).toHaveLength(0); // no Vermont entry in the fixture rules: tolerated
  });

  test("Minneapolis assesses its own property (function override with evidence)", () => {
    const o = a.function_overrides.find((x) => x.jurisdiction_id === "place:2743000")!;
    expect(o.function).toBe("assessment");
    expect(o.evidence_url).toMatch(/^https:\/\/www2\.minneapolismn\.gov\//);
    expect(a.offices.find((x) => x.office_id === o.office_id)!.name).toBe("Minneapolis City Assessor's Office");
  });

  test("summary reports registry matching", () => {
    expect(Number(a.summary.dotgov_county_read)).toBeGreaterThan(2000);
    expect(Number(a.summary.dotgov_city_read)).toBeGreaterThan(8000);
    expect(Number(a.summary.dotgov_county_matched) + Number(a.summary.dotgov_county_unmatched)).toBe(
      Number(a.summary.dotgov_county_read),
    );
    expect(typeof a.summary.unmatched_examples).toBe("string");
  });
});

describe("atlas-only build (no sources folder)", async () => {
  const r = await buildDirectoryRecords(ctx(null));
  test("national and state records, no registry, no registry offices", () => {
    expect(r.resources.filter((x) => x.jurisdiction_id === "country:us")).toHaveLength(7);
    expect(r.resources.filter((x) => x.jurisdiction_id === "state:27")).toHaveLength(2);
    expect(r.resources.some((x) => x.source_kind === "cisa-dotgov-registry")).toBe(false);
    expect(r.sources.some((s) => s.source_id === "cisa-dotgov")).toBe(false);
    expect(r.offices.filter((o) => o.jurisdiction_id === "county:27053")).toHaveLength(0);
    expect(r.offices.some((o) => o.source_kind === "cisa-dotgov-registry")).toBe(false);
  });
});

describe("undocumented authored record", () => {
  test("source: null gives documented 0 and source_kind unknown", () => {
    const dir = mkdtempSync(join(tmpdir(), "dirrec-"));
    try {
      writeFileSync(
        join(dir, "fixture.yaml"),
        [
          "resources:",
          "  - name: A page of unknown origin",
          "    url: https://example.gov/page",
          "    jurisdiction_id: state:27",
          "    topics: [zoning]",
          "    source: null",
          "  - name: A documented page",
          "    url: https://www.revenue.state.mn.us/property-tax",
          "    jurisdiction_id: state:27",
          "    topics: [assessor]",
          "    publisher: Minnesota Department of Revenue",
          "    source: self",
          "source_defaults:",
          "  vintage: '2026-11-22'",
          "  license_class: open",
        ].join("\n"),
      );
      const { rec } = loadAuthoredRecords(dir, { jurisdictions: jurisdictions(), log: () => {} });
      const rows = [...rec.resources.values()];
      const u = rows.find((x) => x.name === "A page of unknown origin")!;
      expect(u.documented).toBe(0);
      expect(u.source_kind).toBe("unknown");
      expect(u.source_id).toBeNull();
      const d = rows.find((x) => x.name === "A documented page")!;
      expect(d.documented).toBe(1);
      expect(rec.sources.get(d.source_id!)!.documented).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("an unknown topic is refused", () => {
    const dir = mkdtempSync(join(tmpdir(), "dirrec-"));
    try {
      writeFileSync(
        join(dir, "bad.yaml"),
        "resources:\n  - {name: X, url: 'https://x.gov/', jurisdiction_id: state:27, topics: [radon], source: null}\n",
      );
      expect(() => loadAuthoredRecords(dir, { jurisdictions: jurisdictions(), log: () => {} })).toThrow(
        /unknown topic/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("registry name matching", () => {
  const row = (org: string, type: "County" | "City", state: string, domain = "x.gov"): DotgovRow => ({
    domain,
    type,
    org,
    city: "",
    state,
  });
  test("organization name variants", () => {
    expect(orgVariants("County of Los Angeles", "County", "CA").map((v) => v.key)).toContain("losangeles");
    expect(orgVariants("Davis County Iowa", "County", "IA").map((v) => v.key)).toContain("davis");
    expect(orgVariants("Lorain County Board of Commissioners", "County", "OH").map((v) => v.key)).toContain("lorain");
    expect(orgVariants("City of Belle Isle, Florida", "City", "FL").map((v) => v.key)).toContain("belleisle");
    expect(orgVariants("EAGLE RIVER, CITY OF", "City", "WI").at(-1)).toEqual({ key: "eagleriver", hint: "city" });
  });
  test("departments, townships and ambiguous names are not matched", () => {
    const js = [
      J("county:39099", "county", "Mahoning County", "county", "OH"),
      J("place:3963954", "place", "Poland village", "village", "OH"),
      J("place:4861000", "place", "Reno city", "city", "TX", "county:48277"),
      J("place:4861016", "place", "Reno city", "city", "TX", "county:48367"),
    ];
    const m = matchRegistry(
      [
        row("Mahoning County Sheriff's Office", "County", "OH", "mahoningsheriff.gov"),
        row("Poland Township", "City", "OH", "polandtownship.gov"),
        row("City of Reno", "City", "TX", "renotx.gov"),
        row("Village of Poland", "City", "OH", "polandvillage.gov"),
        row("Village of Poland Police Department", "City", "OH", "polandpd.gov"),
      ],
      js,
    );
    expect([...m.homes.keys()]).toEqual(["place:3963954"]);
    expect(m.homes.get("place:3963954")!.row.domain).toBe("polandvillage.gov");
    expect(m.unmatched.map((u) => u.reason).sort()).toEqual([
      "ambiguous",
      "department_or_agency",
      "department_or_agency",
      "town_or_township_without_cousub_data",
    ]);
  });
  test("a name with a qualifier: the name before it, when the qualifier only says where the government is or names its site's office", () => {
    const js = [
      J("county:34019", "county", "Hunterdon County", "county", "NJ"),
      J("county:34039", "county", "Union County", "county", "NJ"),
      J("county:53033", "county", "King County", "county", "WA"),
      J("cousub:3401974420", "cousub", "Union township", "township", "NJ", "county:34019"),
      J("cousub:3403974480", "cousub", "Union township", "township", "NJ", "county:34039"),
      J("cousub:3610361984", "cousub", "Riverhead town", "town", "NY"),
      J("place:0647710", "place", "Mill Valley city", "city", "CA"),
    ];
    const m = matchRegistry(
      [
        row("Town of Riverhead - IT Dept.", "City", "NY", "townofriverheadny.gov"),
        row("Township of Union, Hunterdon County", "City", "NJ", "uniontwp-hcnj.gov"),
        row("City of Mill Valley - Mill Valley Community Center", "City", "CA", "millvalleyrecreation.gov"),
        row("King County, WA Combined Federal Campaign", "County", "WA", "kingcountycfc.gov"),
      ],
      js,
    );
    expect([...m.homes.keys()].sort()).toEqual(["cousub:3401974420", "cousub:3610361984"]);
    expect(m.unmatched.map((u) => u.row.domain).sort()).toEqual(["kingcountycfc.gov", "millvalleyrecreation.gov"]);
  });
  test("a Massachusetts town with a city form of government ('Braintree Town city') is 'Town of Braintree'", () => {
    const js = [
      J("place:2507740", "place", "Braintree Town city", "city", "MA"),
      J("cousub:2501501325", "cousub", "Amherst town", "town", "MA"),
      J("cousub:2501501370", "cousub", "Amherst Town city", "city", "MA"),
    ];
    const m = matchRegistry(
      [
        row("Town of Braintree MA", "City", "MA", "braintreema.gov"),
        row("Town of Amherst", "City", "MA", "amherstma.gov"),
      ],
      js,
    );
    expect(m.homes.get("place:2507740")?.row.domain).toBe("braintreema.gov");
    // a town of the state already bears the name: it keeps it
    expect(m.homes.get("cousub:2501501325")?.row.domain).toBe("amherstma.gov");
  });
  test("several domains of one government: general before department-like, then shortest", () => {
    const js = [J("place:2743000", "place", "Minneapolis", "city", "MN")];
    const m = matchRegistry(
      [
        row("City of Minneapolis", "City", "MN", "mplspd.gov"),
        row("City of Minneapolis", "City", "MN", "minneapolismn.gov"),
        row("City of Minneapolis", "City", "MN", "cityofminneapolismn.gov"),
      ],
      js,
    );
    expect(m.homes.get("place:2743000")!.row.domain).toBe("minneapolismn.gov");
    expect(m.counts.city_extra_domains_ignored).toBe(2);
  });
  test("a government with only a department-like domain gets no home page", () => {
    const js = [J("cousub:3909576025", "cousub", "Sylvania township", "township", "OH")];
    const m = matchRegistry([row("Sylvania Township", "City", "OH", "stfd-oh.gov")], js);
    expect(m.counts.city_matched).toBe(1);
    expect(m.homes.size).toBe(0);
    expect(m.counts.city_department_domain_only).toBe(1);
  });
});
