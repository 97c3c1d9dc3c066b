// Checks data/state-rules.yaml: per-state rules for who assesses, collects, records, zones and grants exemptions.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "fs";
import { join } from "path";
import { parse } from "yaml";

const FILE = join(import.meta.dir, "../..", "data", "state-rules.yaml");
const RAW = readFileSync(FILE, "utf8");
const DOC: Record<string, any> = parse(RAW);

const STATES = [
  "AL",
  "AK",
  "AZ",
  "AR",
  "CA",
  "CO",
  "CT",
  "DE",
  "FL",
  "GA",
  "HI",
  "ID",
  "IL",
  "IN",
  "IA",
  "KS",
  "KY",
  "LA",
  "ME",
  "MD",
  "MA",
  "MI",
  "MN",
  "MS",
  "MO",
  "MT",
  "NE",
  "NV",
  "NH",
  "NJ",
  "NM",
  "NY",
  "NC",
  "ND",
  "OH",
  "OK",
  "OR",
  "PA",
  "RI",
  "SC",
  "SD",
  "TN",
  "TX",
  "UT",
  "VT",
  "VA",
  "WA",
  "WV",
  "WI",
  "WY",
];
const REQUIRED = [...STATES, "DC", "PR"];
const OPTIONAL = ["AS", "GU", "MP", "VI"];
const LEVELS = ["state", "county", "town", "city"];
const RULE_KEYS = ["assessment", "tax_collection", "recording", "zoning", "exemptions"] as const;
const NULLABLE_RULES = new Set(["zoning", "exemptions"]);
const CHECKED = ["search", "known-root"];

function checkUrl(label: string, url: unknown) {
  expect(typeof url, `${label} is a string`).toBe("string");
  const s = url as string;
  expect(s.startsWith("https://") || s.startsWith("http://"), `${label} starts with http(s)://: ${s}`).toBe(true);
  expect(() => new URL(s), `${label} parses: ${s}`).not.toThrow();
}

describe("data/state-rules.yaml", () => {
  test("header names the date and that links are not yet verified", () => {
    const head = RAW.split("\n").slice(0, 12).join("\n");
    expect(head).toContain("2026-11-22");
    expect(head).toContain("not_yet_verified");
    expect(head.toLowerCase()).toContain("authored by the project");
  });

  test("all 50 states, DC and PR are present; nothing else but documented territories", () => {
    expect(REQUIRED.length).toBe(52);
    for (const code of REQUIRED) expect(DOC[code], `${code} present`).toBeDefined();
    for (const code of Object.keys(DOC)) {
      expect(code, "key is an uppercase two-letter code").toMatch(/^[A-Z]{2}$/);
      expect([...REQUIRED, ...OPTIONAL], `${code} is a state, DC or a covered territory`).toContain(code);
    }
  });

  test("each entry has a name, a two-digit fips code and a summary", () => {
    const seen = new Set<string>();
    for (const [code, e] of Object.entries(DOC)) {
      expect(typeof e.name, `${code}.name`).toBe("string");
      expect(e.name.length, `${code}.name not empty`).toBeGreaterThan(0);
      expect(typeof e.fips, `${code}.fips is a string`).toBe("string");
      expect(e.fips, `${code}.fips`).toMatch(/^\d{2}$/);
      expect(seen.has(e.fips), `${code}.fips unique`).toBe(false);
      seen.add(e.fips);
      expect(typeof e.summary, `${code}.summary`).toBe("string");
      expect(e.summary.length, `${code}.summary not empty`).toBeGreaterThan(20);
    }
  });

  test("every Rule has office, level and where, with level in the enum or null", () => {
    for (const [code, e] of Object.entries(DOC)) {
      for (const key of RULE_KEYS) {
        const rule = e[key];
        if (rule === null) {
          expect(NULLABLE_RULES.has(key), `${code}.${key} may be null`).toBe(true);
          continue;
        }
        expect(typeof rule, `${code}.${key} is an object`).toBe("object");
        for (const k of ["office", "level", "where"]) expect(k in rule, `${code}.${key}.${k} present`).toBe(true);
        expect(rule.office === null || typeof rule.office === "string", `${code}.${key}.office`).toBe(true);
        expect(rule.where === null || typeof rule.where === "string", `${code}.${key}.where`).toBe(true);
        expect(rule.level === null || LEVELS.includes(rule.level), `${code}.${key}.level ${rule.level}`).toBe(true);
        if ("note" in rule)
          expect(rule.note === null || typeof rule.note === "string", `${code}.${key}.note`).toBe(true);
        checkUrl(`${code}.${key}.evidence_url`, rule.evidence_url);
        expect(CHECKED, `${code}.${key}.evidence_checked`).toContain(rule.evidence_checked);
      }
    }
  });

  test("property_tax_page and gis_portal are null or {name, url} with a valid URL", () => {
    for (const [code, e] of Object.entries(DOC)) {
      for (const key of ["property_tax_page", "gis_portal"]) {
        expect(key in e, `${code}.${key} present`).toBe(true);
        const page = e[key];
        if (page === null) continue;
        expect(typeof page.name, `${code}.${key}.name`).toBe("string");
        expect(page.name.length, `${code}.${key}.name not empty`).toBeGreaterThan(0);
        checkUrl(`${code}.${key}.url`, page.url);
        expect(CHECKED, `${code}.${key}.evidence_checked`).toContain(page.evidence_checked);
      }
    }
  });

  test("known differences between states are kept", () => {
    expect(DOC.VT.assessment.level).toBe("town");
    for (const code of ["NJ", "WI", "MI"])
      expect(["city", "town"], `${code} assessment level`).toContain(DOC[code].assessment.level);
    expect(DOC.MN.assessment.level).toBe("county");
    expect(DOC.MD.assessment.level).toBe("state");
  });
});

describe("rule review of the town and township states (issue 20)", () => {
  test("each rule's evidence is the state's own statute or agency page, except three jobs with none stored", () => {
    const rules = DOC;
    const csv = readFileSync(join(import.meta.dir, "../../../shared/data/dotgov/current-full.csv"), "utf8").split("\n");
    const stateDomains = new Map<string, string[]>();
    for (const l of csv) {
      const c = l.split(",");
      if (!/^State or territory/.test(c[1] ?? "")) continue;
      const st = c[c.length - 2]!;
      (stateDomains.get(st) ?? stateDomains.set(st, []).get(st)!).push(c[0]!.toLowerCase());
    }
    // the legislatures' own statute sites that are not .gov domains
    const LEGISLATURES: Record<string, string> = { PA: "legis.state.pa.us", KS: "kslegislature.org" };
    const gaps: string[] = [];
    for (const s of ["NY", "MI", "WI", "PA", "IL", "IN", "OH", "KS", "MO", "NE", "ND", "SD", "IA"])
      for (const fn of ["assessment", "tax_collection", "recording", "zoning"]) {
        const h = new URL(rules[s][fn].evidence_url).hostname.replace(/^www\./, "");
        const own = [...(stateDomains.get(s) ?? []), LEGISLATURES[s] ?? ""].filter(Boolean);
        if (!own.some((x) => h === x || h.endsWith(`.${x}`))) gaps.push(`${s} ${fn}`);
      }
    expect(gaps).toEqual(["MI assessment", "KS recording", "ND recording"]);
  });
});
