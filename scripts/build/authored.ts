// Authored YAML in data/: topics, guides, state rules (missing files are tolerated), and their source rows.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import type { Stats } from "./model";

import type { SourceRow } from "../../src/directory/rows";
export type { SourceRow };

/** Source row of an authored file: publisher = the project, vintage = the date in its "Authored ..." header. */
export function authoredSource(projectRoot: string, rel: string, id: string, name: string): SourceRow {
  const text = readFileSync(join(projectRoot, rel), "utf8");
  const date = /^#.*\bauthored\b.*?(\d{4}-\d{2}-\d{2})/im.exec(text)?.[1] ?? null;
  return {
    source_id: id,
    name,
    url: rel,
    publisher: "Project authors",
    official: 0,
    retrieved_at: null,
    license_class: "open",
    license: null,
    vintage: date,
    sha256: new Bun.CryptoHasher("sha256").update(text).digest("hex"),
    documented: date ? 1 : 0,
  };
}

export function loadAuthored(projectRoot: string, stats: Stats) {
  const sources: SourceRow[] = [];
  const topics: { topic: string; json: string; source_id: string }[] = [];
  const guides: { topic: string; json: string; source_id: string }[] = [];
  const stateRules: { state: string; name: string; rules_json: string; source_id: string }[] = [];
  let rulesObj: Record<string, any> = {};

  const tp = "data/topics.yaml";
  if (existsSync(join(projectRoot, tp))) {
    const s = authoredSource(projectRoot, tp, "authored-topics", "Topic names and descriptions (data/topics.yaml)");
    sources.push(s);
    const st = stats.layer("authored topics");
    for (const t of parse(readFileSync(join(projectRoot, tp), "utf8")) ?? []) {
      st.read();
      if (!t?.topic) {
        st.reject("no topic key");
        continue;
      }
      topics.push({ topic: t.topic, json: JSON.stringify(t), source_id: s.source_id });
      st.kept();
    }
    st.done();
  } else stats.note("data/topics.yaml missing: topics table left empty");

  const gd = join(projectRoot, "data/guides");
  const files = existsSync(gd)
    ? readdirSync(gd)
        .filter((f) => /\.ya?ml$/.test(f))
        .sort()
    : [];
  const gs = stats.layer("authored guides");
  for (const f of files) {
    gs.read();
    const topic = f.replace(/\.ya?ml$/, "");
    try {
      const g = parse(readFileSync(join(gd, f), "utf8"));
      const s = authoredSource(
        projectRoot,
        `data/guides/${f}`,
        `authored-guide-${topic}`,
        `Guide: ${g?.title ?? topic} (data/guides/${f})`,
      );
      sources.push(s);
      guides.push({ topic: g?.topic ?? topic, json: JSON.stringify(g), source_id: s.source_id });
      gs.kept();
    } catch (e) {
      gs.reject(`unreadable YAML (${(e as Error).message.split("\n")[0]})`);
    }
  }
  gs.done();

  const sr = "data/state-rules.yaml";
  if (existsSync(join(projectRoot, sr))) {
    const st = stats.layer("authored state rules");
    try {
      rulesObj = parse(readFileSync(join(projectRoot, sr), "utf8")) ?? {};
      const s = authoredSource(
        projectRoot,
        sr,
        "authored-state-rules",
        "State property-tax and recording rules (data/state-rules.yaml)",
      );
      sources.push(s);
      for (const [state, obj] of Object.entries(rulesObj).sort(([a], [b]) => (a < b ? -1 : 1))) {
        st.read();
        if (!obj || typeof obj !== "object") {
          st.reject("not an object");
          continue;
        }
        stateRules.push({
          state,
          name: (obj as any).name ?? state,
          rules_json: JSON.stringify(obj),
          source_id: s.source_id,
        });
        st.kept();
      }
    } catch (e) {
      st.reject(`unreadable YAML (${(e as Error).message.split("\n")[0]})`);
      rulesObj = {};
    }
    st.done();
  } else stats.note("data/state-rules.yaml missing: state_rules table left empty");

  return { sources, topics, guides, stateRules, rulesObj };
}
