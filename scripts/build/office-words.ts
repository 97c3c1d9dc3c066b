// What an office word means, by state: data/office-words.yaml is THE table ("an Ohio county auditor assesses; a
// Washington county auditor records"). This module is the only code that reads it. The build uses it to classify
// the offices named in the .gov registry, and the tests use it to check that every state rule's office title means
// the job the rule gives it in that state.
import { existsSync, readFileSync } from "node:fs";
import { parse } from "yaml";
import { FUNCTIONS, type Fn } from "../../src/domain/vocabulary";

/** The six functions of a FunctionEntry, and exemptions (the state rules have an exemptions rule too). */
export type WordFn = Fn | "exemptions";
const WORD_FNS: WordFn[] = [...FUNCTIONS, "exemptions"];

export interface WordRow {
  word: string;
  state: string;
  functions: WordFn[];
  level: string | null;
  evidence_url: string;
  note?: string | null;
}

const FN = new Set<string>(WORD_FNS);

/** Lower-case word tokens ("Assessor's Office" → assessor office; "Clerk & Recorder" → clerk and recorder). */
export const wordTokens = (s: string): string[] =>
  s
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/&/g, " and ")
    .replace(/['’`]s\b/g, "")
    .replace(/[^a-z0-9]+/g, " ")
    .trim()
    .split(" ")
    .filter(Boolean);

export interface WordHit {
  row: WordRow;
  start: number;
  end: number;
}

export class OfficeWords {
  private readonly rows = new Map<string, WordRow>(); // `${word}|${state}`
  private readonly phrases: string[][]; // every word, longest first
  constructor(rows: WordRow[]) {
    for (const r of rows) {
      const key = `${r.word}|${r.state}`;
      if (this.rows.has(key)) throw new Error(`office-words: duplicate row ${key}`);
      this.rows.set(key, r);
    }
    const words = [...new Set(rows.map((r) => r.word))].map((w) => wordTokens(w));
    this.phrases = words.sort((a, b) => b.length - a.length || a.join(" ").localeCompare(b.join(" ")));
  }

  static load(path: string): OfficeWords {
    if (!existsSync(path)) return new OfficeWords([]);
    const doc = parse(readFileSync(path, "utf8")) ?? {};
    const rows: WordRow[] = (doc.words ?? []).map((r: any, i: number) => {
      const where = `${path} words[${i}]`;
      if (typeof r.word !== "string" || !r.word.trim()) throw new Error(`${where}: word is required`);
      if (typeof r.state !== "string" || !/^(\*|[A-Z]{2})$/.test(r.state))
        throw new Error(`${where}: state is "*" or a postal code`);
      const fns = r.functions ?? [];
      if (!Array.isArray(fns) || fns.some((f: string) => !FN.has(f)))
        throw new Error(`${where}: functions must be a list of ${WORD_FNS.join(", ")}`);
      if (typeof r.evidence_url !== "string" || !/^https?:\/\//.test(r.evidence_url))
        throw new Error(`${where}: evidence_url is required`);
      return {
        word: wordTokens(r.word).join(" "),
        state: r.state,
        functions: fns,
        level: r.level ?? null,
        evidence_url: r.evidence_url,
        note: r.note ?? null,
      };
    });
    return new OfficeWords(rows);
  }

  get size(): number {
    return this.rows.size;
  }
  all(): WordRow[] {
    return [...this.rows.values()];
  }

  /** The meaning of one word in a state: the state's own row, else the "*" row, else null (unknown word). */
  meaning(word: string, state: string): WordRow | null {
    const w = wordTokens(word).join(" ");
    return this.rows.get(`${w}|${state}`) ?? this.rows.get(`${w}|*`) ?? null;
  }

  /** Office words found in a name, longest phrase first, never overlapping. */
  hits(name: string, state: string): WordHit[] {
    const t = wordTokens(name);
    const used = new Array<boolean>(t.length).fill(false);
    const out: WordHit[] = [];
    for (const p of this.phrases) {
      for (let i = 0; i + p.length <= t.length; i++) {
        if (used.slice(i, i + p.length).some(Boolean) || !p.every((w, k) => t[i + k] === w)) continue;
        const row = this.meaning(p.join(" "), state);
        if (!row) continue;
        for (let k = i; k < i + p.length; k++) used[k] = true;
        out.push({ row, start: i, end: i + p.length });
      }
    }
    return out.sort((a, b) => a.start - b.start);
  }

  /** The property functions an office of this name performs in this state (union over its words). */
  functionsOf(name: string, state: string): WordFn[] {
    const set = new Set<WordFn>();
    for (const h of this.hits(name, state)) for (const f of h.row.functions) set.add(f);
    return WORD_FNS.filter((f) => set.has(f));
  }
}
