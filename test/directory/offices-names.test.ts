// Who does each job, by name: documented offices, titles from the state rules, local overrides, never a made-up
// or hedged name; the office-word table is the one place that knows what an office word means. Real data file.
import { beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fullDirectory } from "../helpers/directory-app";
import type { Directory } from "../../src/directory/directory";
import { OfficeWords } from "../../scripts/build/office-words";
import { FUNCTIONS } from "../../src/domain/vocabulary";
import { ROOT } from "../helpers/app";

let d: Directory;
let db: import("bun:sqlite").Database;
beforeAll(async () => {
  ({ directory: d, db } = await fullDirectory());
}, 600_000);

const fnsAt = (lon: number, lat: number) => d.resolvePoint(lon, lat).data.functions as Record<string, any>;

describe("named offices at well-known points", () => {
  test("Chicago: Cook County assesses (not a township), with the Cook County Assessor", () => {
    const f = fnsAt(-87.6298, 41.8781);
    expect(f.assessment.jurisdiction_id).toBe("county:17031");
    expect(f.assessment.office_name).toMatch(/^Cook County Assessor/);
    expect(f.assessment.office_name).not.toMatch(/Township/);
    expect(f.assessment.evidence_url).toMatch(/^https:\/\//);
  });
  test("Manhattan: New York City's Department of Finance assesses and collects", () => {
    const f = fnsAt(-73.9712, 40.7831);
    for (const fn of ["assessment", "tax_collection"]) {
      expect(f[fn].office_name).toMatch(/Department of Finance/);
      expect(f[fn].evidence_url).toMatch(/^https?:\/\//);
    }
    expect(f.assessment.office_name).not.toMatch(/ or /);
  });
  test("District of Columbia: permits are not the zoning office's", () => {
    const f = fnsAt(-77.0365, 38.8977);
    expect(f.permits.office_name ?? "").not.toMatch(/Zoning/);
    expect(f.permits.jurisdiction_id).not.toBeNull();
  });
  test("an office registered on .gov becomes the named office (Cook County Assessor's domain)", () => {
    const row = db
      .query<{ name: string; url: string; function: string }, []>(
        "SELECT name, url, function FROM offices WHERE url = 'https://cookcountyassessoril.gov/'",
      )
      .get();
    expect(row).not.toBeNull();
    expect(row!.function).toBe("assessment");
    expect(row!.name).toBe("Cook County Assessor");
  });
  test("search finds a registry office by its name", () => {
    const r = d.searchNames("Cook County Assessor", "IL", 10) as any;
    expect(r.data.resources.some((x: any) => x.url === "https://cookcountyassessoril.gov/")).toBe(true);
  });
});

describe("where the state rule does not hold", () => {
  test("a Maine unorganized territory has no town assessor: no body, and the basis says why", () => {
    const uts = db
      .query<{ id: string; x: number; y: number }, []>(
        `SELECT jurisdiction_id AS id, (min_x + max_x) / 2 AS x, (min_y + max_y) / 2 AS y
      FROM jurisdictions WHERE state = 'ME' AND legal_type = 'unorganized territory' AND min_x IS NOT NULL ORDER BY jurisdiction_id`,
      )
      .all();
    expect(uts.length).toBeGreaterThan(10);
    const inside = uts
      .map((u) => ({ u, r: d.resolvePoint(u.x, u.y) }))
      .find(({ u, r }) => r.data.jurisdictions.some((j: any) => j.jurisdiction_id === u.id))!;
    expect(inside).toBeDefined();
    const a = (inside.r.data.functions as any).assessment;
    expect(a.jurisdiction_id).toBeNull();
    expect(a.office_name).toBeNull();
    expect(a.basis).toMatch(/has no town government/);
  });
  test("Boston: the Census county subdivision is a fictitious twin of the city, so the City of Boston assesses", () => {
    const f = fnsAt(-71.0589, 42.3601);
    expect(f.assessment.jurisdiction_id).toBe("place:2507000");
    expect(f.assessment.office_name).toBe("Assessing Department"); // as the city's own page names it (data/pages)
    expect(f.recording.office_name).toBe("Suffolk County Registry of Deeds");
  });
  test("Seattle: King County records through its Recorder's Office (a documented exception to Washington's auditor rule)", () => {
    const f = fnsAt(-122.3321, 47.6062);
    expect(f.recording.jurisdiction_id).toBe("county:53033");
    expect(f.recording.office_name).toBe("King County Recorder's Office");
    expect(f.recording.evidence_url).toMatch(/kingcounty\.gov/);
  });
  test("an Illinois point outside Cook County names no township it cannot place", () => {
    const f = fnsAt(-89.6501, 39.7817); // Springfield, Sangamon County: township assessors; no township boundaries held
    expect(f.assessment.jurisdiction_id).toBeNull();
    expect(f.assessment.basis).toMatch(/township/i);
    expect(f.recording.jurisdiction_id).toBe("county:17167");
  });
});

describe("no invented or hedged names in 1,000 random points", () => {
  test("office names are documented or titled; every resource has a documented source", () => {
    let seed = 20261122;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const srcOf = db.query<{ documented: number; url: string }, [string]>(
      "SELECT s.documented AS documented, s.url AS url FROM resources r JOIN sources s ON s.source_id = r.source_id WHERE r.resource_id = ?",
    );
    let answered = 0,
      named = 0;
    for (let i = 0; answered < 1000 && i < 20000; i++) {
      const lon = -124.7 + rnd() * (124.7 - 66.9),
        lat = 24.5 + rnd() * (49.4 - 24.5);
      let r: any;
      try {
        r = d.resolvePoint(lon, lat);
      } catch {
        continue;
      } // outside coverage (sea, Canada, Mexico)
      answered++;
      const sourceUrls = new Set(r.sources.map((s: any) => s.url));
      const entries = Object.values(r.data.functions).flatMap((e: any) => (e ? [e, ...(e.also ?? [])] : []));
      for (const e of entries as any[]) {
        if (e.office_name !== null) {
          named++;
          // hedges ("X or Y") and empty words; a registered name may hold a slash ("Auditor-Controller/Treasurer")
          expect(e.office_name).not.toMatch(/ or |\bNone\b|\bnull\b|undefined|^\s|\s$/);
          expect(e.jurisdiction_id).not.toBeNull();
        }
        if (e.jurisdiction_id === null) expect(e.basis).toBeTruthy();
        for (const res of e.resources) {
          const s = srcOf.get(res.resource_id);
          expect(s?.documented).toBe(1);
          expect(sourceUrls.has(s!.url)).toBe(true);
        }
      }
    }
    expect(answered).toBe(1000);
    expect(named).toBeGreaterThan(2000);
  });
});

describe("the office-word table", () => {
  const words = OfficeWords.load(join(ROOT, "data/office-words.yaml"));
  test("says what an auditor is, state by state (Ohio assesses, Washington records)", () => {
    expect(words.functionsOf("Franklin County Auditor", "OH")).toContain("assessment");
    expect(words.functionsOf("King County Auditor", "WA")).toContain("recording");
    expect(words.functionsOf("Pike County Clerk", "KY")).toContain("recording");
    expect(words.functionsOf("Travis Central Appraisal District", "TX")).toContain("assessment");
    expect(words.functionsOf("Cheatham County Trustee", "TN")).toContain("tax_collection");
    for (const r of words.all()) expect(r.evidence_url).toMatch(/^https?:\/\//);
  });
  test("no other code knows what an office word means", () => {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const p = join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (p.endsWith(".ts")) files.push(p);
      }
    };
    walk(join(ROOT, "src"));
    walk(join(ROOT, "scripts"));
    const knows = files.filter((f) => !f.endsWith("office-words.ts") && /\bauditor\b/i.test(readFileSync(f, "utf8")));
    expect(knows.map((f) => f.slice(ROOT.length + 1))).toEqual([]);
  });
});

describe("functions name a body everywhere in a county", () => {
  test("every county-level (and state-level) job names its body in every county, unless a documented exception says no body exists", () => {
    const counties = db
      .query<{ id: string; st: string }, []>(
        "SELECT jurisdiction_id AS id, state AS st FROM jurisdictions WHERE type = 'county' AND CAST(substr(jurisdiction_id, 8, 2) AS INTEGER) <= 56",
      )
      .all();
    expect(counties.length).toBe(3144);
    const RULE: Record<string, string> = {
      assessment: "assessment",
      tax_collection: "tax_collection",
      recording: "recording",
      zoning: "zoning",
      permits: "zoning",
    };
    const missing: string[] = [];
    let noBody = 0;
    for (const { id, st } of counties) {
      const rules = d.content.stateRules.get(st) as any;
      const f = d.resolveId(id).data.functions as Record<string, any>;
      for (const fn of FUNCTIONS) {
        // gis: the county, unless the state has a gis rule (no county government keeps maps there)
        const rule = fn === "gis" ? (rules?.gis ?? { level: "county" }) : rules?.[RULE[fn]!];
        const level = rule?.level;
        // a fallback that holds only in counties without townships is not owed by every county
        const elseLevel = rule?.else_only_without_towns ? null : rule?.else_level;
        if (level !== "county" && level !== "state" && elseLevel !== "county") continue;
        if (f[fn].jurisdiction_id) continue;
        if (/unorganized borough/i.test(f[fn].basis ?? "")) {
          noBody++;
          continue;
        }
        missing.push(`${id} ${fn}`);
      }
    }
    expect(missing).toEqual([]);
    expect(noBody).toBeGreaterThan(0); // Alaska's census areas: documented, with a basis
  });
});
