// Checks the authored content in data/topics.yaml and data/guides/*.yaml against the topic vocabulary.
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "fs";
import { join } from "path";
import { parse } from "yaml";
import { TOPICS } from "../../src/domain/vocabulary";

const DATA = join(import.meta.dir, "../..", "data");
const HEADER = /^# Authored for this project, \d{4}-\d{2}-\d{2}; plain-language summary, not legal advice\.\s*$/;
const HTML_TAG = /<\s*\/?\s*[a-zA-Z!][^>]*>?/;
const URL_LIKE = /https?:|www\./i;
const PHONE = /(\+?1[\s.-]?)?\(?\b\d{3}\)?[\s.-]?\d{3}[\s.-]\d{4}\b/;

function load(path: string): { raw: string; doc: any } {
  const raw = readFileSync(path, "utf8");
  return { raw, doc: parse(raw) };
}

function checkText(label: string, s: unknown) {
  expect(typeof s, `${label} is a string`).toBe("string");
  const text = s as string;
  expect(text.trim().length, `${label} non-empty`).toBeGreaterThan(0);
  expect(HTML_TAG.test(text), `${label} has no HTML tag`).toBe(false);
  expect(text.includes("<"), `${label} has no "<"`).toBe(false);
  expect(URL_LIKE.test(text), `${label} has no URL`).toBe(false);
  expect(PHONE.test(text), `${label} has no phone number`).toBe(false);
}

describe("data/topics.yaml", () => {
  const { raw, doc } = load(join(DATA, "topics.yaml"));

  test("starts with the authorship comment", () => {
    expect(raw.split("\n")[0]).toMatch(HEADER);
  });

  test("lists exactly the vocabulary topics in order", () => {
    expect(Array.isArray(doc)).toBe(true);
    expect(doc.map((t: any) => t.topic)).toEqual(TOPICS);
  });

  test("every topic has a non-empty name and description", () => {
    for (const t of doc) {
      checkText(`${t.topic}.name`, t.name);
      checkText(`${t.topic}.description`, t.description);
    }
  });
});

describe("data/guides", () => {
  for (const topic of TOPICS) {
    test(`guide for ${topic}`, () => {
      const path = join(DATA, "guides", `${topic}.yaml`);
      expect(existsSync(path), `${path} exists`).toBe(true);
      const { raw, doc } = load(path);
      expect(raw.split("\n")[0]).toMatch(HEADER);
      expect(doc.topic).toBe(topic);
      checkText(`${topic}.title`, doc.title);
      checkText(`${topic}.summary`, doc.summary);

      expect(Array.isArray(doc.sections)).toBe(true);
      expect(doc.sections.length).toBeGreaterThan(0);
      doc.sections.forEach((s: any, i: number) => {
        expect(Object.keys(s).sort()).toEqual(["heading", "text"]);
        expect(s.heading === null || typeof s.heading === "string").toBe(true);
        if (s.heading !== null) checkText(`${topic}.sections[${i}].heading`, s.heading);
        checkText(`${topic}.sections[${i}].text`, s.text);
      });

      expect(Array.isArray(doc.also)).toBe(true);
      expect(doc.also.length).toBeLessThanOrEqual(3);
      expect(new Set(doc.also).size).toBe(doc.also.length);
      for (const a of doc.also) {
        expect(TOPICS as string[]).toContain(a);
        expect(a).not.toBe(topic);
      }
    });
  }

  test("phone-number pattern catches common forms", () => {
    for (const p of ["555-123-4567", "(555) 123-4567", "555.123.4567", "+1 555 123 4567"])
      expect(PHONE.test(p)).toBe(true);
    expect(PHONE.test("a one percent chance in 2026")).toBe(false);
  });
});
