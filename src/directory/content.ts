// Topics, guides and state rules: read from the data file (tables topics, guides, state_rules) or, before a
// data file exists, from the authored YAML in data/. Plain data access; no HTTP here.
import type { Database } from "bun:sqlite";
import { readFileSync, existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";

interface TopicText {
  topic: string;
  name: string;
  description: string;
}
interface GuideText {
  topic: string;
  title: string;
  summary: string;
  sections: { heading: string | null; text: string }[];
  also?: string[];
}
interface AlsoRuleText {
  office: string | null;
  level: string | null;
  where: string | null;
  role: "secondary" | "delinquent";
  levy_scope?: string | null;
  title?: string | null;
}
export interface RuleText {
  office: string | null;
  level: string | null;
  where: string | null;
  note?: string | null;
  evidence_url?: string | null;
  /** the local government whose page evidence_url is (set by the build): evidence for that body only */
  evidence_government?: string | null;
  /** office title used in the state, put after the body's name ("Assessor" → "Cook County Assessor"); null where
   *  titles differ within the state */
  title?: string | null;
  /** who does the job where the level has no body in the chain (e.g. county for zoning outside city limits) */
  else_level?: string | null;
  else_where?: string | null;
  else_title?: string | null;
  /** the else_level holds only in a county that holds no town or township records (Illinois counties without
   *  township organization), not where towns exist but their boundaries are not held */
  else_only_without_towns?: boolean;
  also?: AlsoRuleText[]; // further bodies doing the same job (a second bill, a delinquent-tax collector)
}
export interface StateRulesText {
  name: string;
  fips?: string;
  summary?: string | null;
  assessment: RuleText;
  tax_collection: RuleText;
  recording: RuleText;
  zoning: RuleText | null;
  exemptions: RuleText | null;
  /** who keeps the local maps where it is not the county (states without county government) */
  gis?: RuleText | null;
  property_tax_page?: { name: string; url: string } | null;
  gis_portal?: { name: string; url: string } | null;
}

export interface Content {
  topics: TopicText[];
  guides: Map<string, GuideText>;
  stateRules: Map<string, StateRulesText>;
}

export function contentFromYaml(dataDir: string): Content {
  const read = (p: string) => parse(readFileSync(p, "utf8"));
  const topics = (read(join(dataDir, "topics.yaml")) ?? []) as TopicText[];
  const guides = new Map<string, GuideText>();
  const gdir = join(dataDir, "guides");
  if (existsSync(gdir))
    for (const f of readdirSync(gdir)
      .filter((f) => f.endsWith(".yaml"))
      .sort()) {
      const g = read(join(gdir, f)) as GuideText;
      guides.set(g.topic, g);
    }
  const rulesFile = join(dataDir, "state-rules.yaml");
  const raw = existsSync(rulesFile) ? ((read(rulesFile) ?? {}) as Record<string, StateRulesText>) : {};
  return { topics, guides, stateRules: new Map(Object.entries(raw).map(([k, v]) => [k.toUpperCase(), v])) };
}

export function contentFromStore(db: Database): Content {
  const topics = db
    .query<{ json: string }, []>("SELECT json FROM topics")
    .all()
    .map((r) => JSON.parse(r.json) as TopicText);
  const guides = new Map(
    db
      .query<{ topic: string; json: string }, []>("SELECT topic, json FROM guides")
      .all()
      .map((r) => [r.topic, JSON.parse(r.json) as GuideText]),
  );
  const stateRules = new Map(
    db
      .query<{ state: string; name: string; rules_json: string }, []>("SELECT state, name, rules_json FROM state_rules")
      .all()
      .map((r) => [r.state.toUpperCase(), { name: r.name, ...JSON.parse(r.rules_json) } as StateRulesText]),
  );
  return { topics, guides, stateRules };
}
