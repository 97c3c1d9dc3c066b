import { describe, expect, test } from "bun:test";
import { Value } from "@sinclair/typebox/value";
import { call, yamlApp, PROBLEMS, BASE } from "../helpers/app";
import { Envelope } from "../../src/http/schemas/common";
import { Guide, TopicList } from "../../src/http/schemas/guides";
import { TOPICS, FUNCTIONS } from "../../src/domain/vocabulary";

describe("GET /v1/topics", () => {
  test("all 17 topics with name, description, functions, page_url and guide_url; functions map; aliases", async () => {
    const { app } = yamlApp();
    const r = await call(app, "/v1/topics");
    expect(Value.Check(Envelope(TopicList), r.json)).toBe(true);
    const d = r.json.data;
    expect(d.topics.map((t: any) => t.topic)).toEqual(TOPICS);
    expect(d.topics.length).toBe(17);
    for (const t of d.topics) {
      expect(t.name.length).toBeGreaterThan(2);
      expect(t.description.length).toBeGreaterThan(20);
      expect(t.page_url).toBe(`${BASE.replace(/\/v1$/, "")}/topics/${t.topic}`);
      expect(t.guide_url).toBe(`${BASE.replace(/\/v1$/, "")}/guides/${t.topic}`);
    }
    expect(Object.keys(d.functions).sort()).toEqual([...FUNCTIONS].sort());
    expect(d.functions.tax_collection[0]).toBe("property_tax_payment");
    for (const [fn, topics] of Object.entries(d.functions) as [string, string[]][]) {
      for (const t of topics) expect(d.topics.find((x: any) => x.topic === t).functions).toContain(fn);
    }
    expect(d.aliases).toEqual({});
  });
});

describe("GET /v1/guides/{topic}", () => {
  test("every topic has a plain-text guide (no HTML), state fields null without a state", async () => {
    const { app, deps } = yamlApp();
    const { key } = deps.keys.create("standard", "guides");
    for (const t of TOPICS) {
      const r = await call(app, `/v1/guides/${t}`, { headers: { Authorization: `Bearer ${key}` } });
      expect(r.status).toBe(200);
      expect(Value.Check(Envelope(Guide), r.json)).toBe(true);
      const g = r.json.data;
      expect(g.topic).toBe(t);
      expect(g.sections.length).toBeGreaterThan(2);
      for (const s of g.sections) expect(s.text).not.toMatch(/<[a-z/]/i);
      expect(g.state).toBeNull();
      expect(g.state_rules).toBeNull();
      expect(g.state_summary).toBeNull();
      for (const a of g.also) expect(a.page_url).toContain("/guides/");
    }
  });
  test("with a state: state_rules from the state rules table, and a plain state_summary", async () => {
    const { app } = yamlApp();
    const vt = (await call(app, "/v1/guides/assessor?state=vt")).json.data;
    expect(vt.state).toBe("VT");
    expect(vt.state_rules.state).toBe("VT");
    expect(vt.state_rules.assessment.level).toBe("town");
    expect(vt.state_summary).toContain("Vermont");
    const mn = (await call(app, "/v1/guides/recorder_deeds?state=MN")).json.data;
    expect(mn.state_rules.recording.level).toBe("county");
    expect(mn.state_summary).toMatch(/recorded/i);
    const as = (await call(app, "/v1/guides/assessor?state=AS")).json.data; // covered, no documented rules
    expect(as.state).toBe("AS");
    expect(as.state_rules).toBeNull();
    expect(as.state_summary).toBeNull();
    const r = await call(app, "/v1/guides/assessor?state=MD");
    expect(r.json.data.state_rules.assessment.level).toBe("state");
    expect(r.json.sources.some((s: any) => s.name.includes("Maryland"))).toBe(true);
  });
  test("unknown topic → 404 unknown-topic; bad state → 400 unknown-state", async () => {
    const { app } = yamlApp();
    for (const p of ["/v1/guides/nope", "/v1/guides/ASSESSOR", "/v1/guides/%3Cscript%3E"]) {
      const r = await call(app, p);
      expect(r.status).toBe(404);
      expect(r.json.type).toBe(`${PROBLEMS}/unknown-topic`);
    }
    for (const s of ["ZZ", "M", "MNN", "1A"]) {
      const r = await call(app, `/v1/guides/assessor?state=${s}`);
      expect(r.status).toBe(400);
      expect(r.json.type).toBe(`${PROBLEMS}/unknown-state`);
    }
  });
});
