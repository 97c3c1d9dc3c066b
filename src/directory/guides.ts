import { BY_POSTAL, unknownState } from "../domain/states";
// GET /topics and GET /guides/{topic}: plain functions over Content.
import { DomainError } from "../domain/errors";
import type { PageLinks } from "../domain/page-links";
import { FUNCTION_TOPICS, TOPIC_ALIASES, TOPIC_FUNCTIONS, TOPICS, type Fn, type Topic } from "../domain/vocabulary";
import type { Content, RuleText, StateRulesText } from "./content";
import type { SourceOut } from "../domain/source";

const AUTHORED_PUBLISHER = "Property, Land and GIS Directory (authored)";

const authoredSource = (name: string, url: string): SourceOut => ({
  name,
  url,
  publisher: AUTHORED_PUBLISHER,
  official: false,
  retrieved_at: null,
  license_class: "open",
});

const isTopic = (t: string): t is Topic => (TOPICS as string[]).includes(t);

export function topicList(content: Content, links: PageLinks) {
  const byTopic = new Map(content.topics.map((t) => [t.topic, t]));
  const topics = TOPICS.map((topic) => {
    const t = byTopic.get(topic);
    return {
      topic,
      name: t?.name ?? topic,
      description: t?.description ?? "",
      functions: [...TOPIC_FUNCTIONS[topic]] as Fn[],
      page_url: links.topic(topic),
      guide_url: content.guides.has(topic) ? links.guide(topic) : null,
    };
  });
  return {
    data: { topics, functions: FUNCTION_TOPICS, aliases: TOPIC_ALIASES },
    sources: [authoredSource("Topic vocabulary and descriptions (authored)", links.site + "/topics")],
  };
}

/** The rule keys of StateRules that speak to a function. */
const RULE_OF: Partial<Record<Fn, "assessment" | "tax_collection" | "recording" | "zoning">> = {
  assessment: "assessment",
  tax_collection: "tax_collection",
  recording: "recording",
  zoning: "zoning",
};

function ruleOut(r: RuleText | null | undefined) {
  if (!r) return null;
  return { office: r.office ?? null, level: (r.level ?? null) as any, where: r.where ?? null, note: r.note ?? null };
}

function stateRulesOut(code: string, s: StateRulesText, links: PageLinks) {
  return {
    state: code,
    name: s.name,
    assessment: ruleOut(s.assessment)!,
    tax_collection: ruleOut(s.tax_collection)!,
    recording: ruleOut(s.recording)!,
    zoning: ruleOut(s.zoning),
    exemptions: ruleOut(s.exemptions),
    page_url: links.place(`state:${s.fips ?? ""}`),
  };
}

const JOB_WORDS: Record<string, string> = {
  assessment: "Property is assessed",
  tax_collection: "Property tax is collected",
  recording: "Deeds and land records are recorded",
  zoning: "Zoning is administered",
  exemptions: "Exemptions are handled",
};

function sentence(job: string, r: RuleText): string {
  const who = r.office ? `the ${r.office}` : "no single office";
  const where = r.where ? ` (${r.where})` : r.level ? ` (${r.level} level)` : "";
  const note = r.note ? ` ${r.note.trim().replace(/([^.])$/, "$1.")}` : "";
  return `${JOB_WORDS[job]} by ${who}${where}.${note}`;
}

/** Plain sentences on who does the topic's jobs in the state. */
function stateSummary(topic: Topic, s: StateRulesText): string | null {
  const jobs = new Set<string>();
  for (const f of TOPIC_FUNCTIONS[topic] as readonly Fn[]) {
    const r = RULE_OF[f];
    if (r) jobs.add(r);
  }
  if (topic === "assessor") jobs.add("exemptions");
  const parts = [...jobs]
    .map((j) => (s as any)[j] as RuleText | null)
    .map((r, i) => (r ? sentence([...jobs][i]!, r) : null))
    .filter(Boolean) as string[];
  if (!parts.length) return s.summary ? `In ${s.name}: ${s.summary}` : null;
  return `In ${s.name}: ${parts.join(" ")}`;
}

function ruleSources(code: string, s: StateRulesText): SourceOut[] {
  const urls = new Set<string>();
  for (const k of ["assessment", "tax_collection", "recording", "zoning", "exemptions"] as const) {
    const u = s[k]?.evidence_url;
    if (u) urls.add(u);
  }
  return [...urls].map((url) => ({
    name: `Evidence for the ${s.name} (${code}) state rules`,
    url,
    publisher: null,
    official: false,
    retrieved_at: null,
    license_class: "unknown" as const,
    verified_status: "not_yet_verified" as const,
    verified_at: null,
  }));
}

export function guide(content: Content, links: PageLinks, topicRaw: string, stateRaw: string | undefined) {
  const topic = (TOPIC_ALIASES[topicRaw] ?? topicRaw) as string;
  if (!isTopic(topic))
    throw new DomainError(
      "unknown-topic",
      `'${topicRaw.slice(0, 60)}' is not a topic; see /v1/topics for the vocabulary.`,
    );
  let code: string | null = null;
  let rules: StateRulesText | null = null;
  if (stateRaw !== undefined) {
    code = stateRaw.toUpperCase();
    rules = content.stateRules.get(code) ?? null;
    // a covered state or territory without documented rules (e.g. American Samoa) has state_rules null
    if (!rules && !BY_POSTAL.has(code)) throw unknownState(stateRaw);
  }
  const g = content.guides.get(topic);
  const t = content.topics.find((x) => x.topic === topic);
  const sources: SourceOut[] = [authoredSource("Plain-language guides (authored)", links.guide(topic))];
  if (rules && code) sources.push(...ruleSources(code, rules));
  return {
    data: {
      topic,
      state: code,
      title: g?.title ?? t?.name ?? topic,
      summary: g?.summary ?? t?.description ?? "",
      sections: g?.sections.map((s) => ({ heading: s.heading ?? null, text: s.text.trim() })) ?? [],
      page_url: links.guide(topic, code),
      state_rules: rules && code ? stateRulesOut(code, rules, links) : null,
      state_summary: rules ? stateSummary(topic, rules) : null,
      also: (g?.also ?? [])
        .filter((a) => isTopic(a) && a !== topic)
        .map((a) => ({
          title: content.guides.get(a)?.title ?? content.topics.find((x) => x.topic === a)?.name ?? a,
          page_url: links.guide(a, code),
        })),
    },
    sources,
  };
}
