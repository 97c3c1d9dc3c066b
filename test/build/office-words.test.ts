// Checks data/office-words.yaml (what an office word means, by state) and that every state rule's title agrees with it.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "fs";
import { join } from "path";
import { parse } from "yaml";
import { OfficeWords } from "../../scripts/build/office-words";

const DATA = join(import.meta.dir, "../..", "data");
const WORDS: any[] = parse(readFileSync(join(DATA, "office-words.yaml"), "utf8")).words;
const RULES: Record<string, any> = parse(readFileSync(join(DATA, "state-rules.yaml"), "utf8"));
const FUNCTIONS = ["assessment", "tax_collection", "recording", "zoning", "permits", "gis", "exemptions"];
const RULE_KEYS = ["assessment", "tax_collection", "recording", "zoning", "exemptions"] as const;

/** What the name means in the state, through the one implementation of the table (scripts/build/office-words.ts). */
const TABLE = OfficeWords.load(join(DATA, "office-words.yaml"));
function meaning(name: string, state: string) {
  return TABLE.hits(name, state).length ? { functions: TABLE.functionsOf(name, state) } : null;
}

describe("data/office-words.yaml", () => {
  test("every row is well formed, with an evidence page", () => {
    expect(WORDS.length).toBeGreaterThan(50);
    const seen = new Set<string>();
    for (const w of WORDS) {
      const id = `${w.word}|${w.state}`;
      expect(seen.has(id), `${id} is listed once`).toBe(false);
      seen.add(id);
      expect(w.word, id).toBe(w.word.toLowerCase());
      expect(w.state === "*" || /^[A-Z]{2}$/.test(w.state), `${id} state`).toBe(true);
      expect(Array.isArray(w.functions), `${id} functions`).toBe(true);
      for (const f of w.functions) expect(FUNCTIONS, `${id} function ${f}`).toContain(f);
      expect(["county", "town", "city", "state"], `${id} level`).toContain(w.level);
      expect(() => new URL(w.evidence_url), `${id} evidence_url`).not.toThrow();
      expect(w.evidence_checked, id).toBe("search");
      expect(typeof w.note, `${id} note`).toBe("string");
    }
  });

  test("the words differ by state as the evidence says", () => {
    expect(meaning("Lucas County Auditor's Office", "OH")?.functions).toContain("assessment");
    expect(meaning("Thurston County Auditor", "WA")?.functions).toEqual(["recording"]);
    expect(meaning("Jones County Auditor", "IA")?.functions).toEqual([]);
    expect(meaning("Fayette County Clerk", "KY")?.functions).toEqual(["recording"]);
    expect(meaning("Cheatham County Clerk", "TN")?.functions).toEqual([]);
    expect(meaning("Sullivan County Trustee", "TN")?.functions).toContain("tax_collection");
    expect(meaning("Calumet Township Trustee Office", "IN")?.functions).toEqual([]);
    expect(meaning("Harris County Appraisal District", "TX")?.functions).toContain("assessment");
    expect(meaning("Harris County Tax Assessor-Collector", "TX")?.functions).toEqual(["tax_collection"]);
    expect(meaning("Calcasieu Parish Sheriff", "LA")?.functions).toEqual(["tax_collection"]);
    expect(meaning("Rockland County Sheriff's Office", "NY")?.functions).toEqual([]);
    expect(meaning("Nampa Auditorium District", "ID")).toBeNull();
    expect(meaning("Tampa Bay Regional Planning Council", "FL")?.functions).toEqual([]);
    expect(meaning("Orange County Clerk-Recorder", "CA")?.functions).toEqual(["recording"]);
  });

  test("every state rule's title means that rule's function in that state", () => {
    let checked = 0;
    for (const [code, e] of Object.entries(RULES)) {
      for (const key of RULE_KEYS) {
        const r = e[key];
        for (const [title, level] of [[r?.title, r?.level], ...(r?.also ?? []).map((a: any) => [a.title, a.level])]) {
          if (title == null) continue;
          expect(title, `${code}.${key} title is not a hedge`).not.toMatch(/ or |\//);
          const body =
            level === "town"
              ? "Town of Sample"
              : level === "city"
                ? "City of Sample"
                : level === "state"
                  ? e.name
                  : "Sample County";
          const w = meaning(`${body} ${title}`, code);
          expect(w?.functions ?? [], `${code}.${key}: "${body} ${title}"`).toContain(key);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(150);
  });

  test("every rule has a title key, and no rule's office text is a hedge", () => {
    for (const [code, e] of Object.entries(RULES)) {
      for (const key of RULE_KEYS) {
        expect("title" in e[key], `${code}.${key}.title present`).toBe(true);
        expect(e[key].office, `${code}.${key}.office`).not.toMatch(/ or | \/ /);
      }
    }
  });
});
