import { unknownState } from "../domain/states";
// Resolve a place name to one jurisdiction: an in-memory index of base names over documented counties, county
// subdivisions and incorporated places. Same-government twins (same_as) are one answer: the place is kept.
import { DomainError, type Choice } from "../domain/errors";
import type { PageLinks } from "../domain/page-links";
import type { JurisdictionRow, Store } from "./store";
import { splitName, parsePlaceQuery } from "./names";
import { TYPE_ORDER } from "./jurisdictions";

export class PlaceNames {
  private byBaseIndex: Map<string, JurisdictionRow[]> | null = null;
  private states: Map<string, JurisdictionRow> | null = null;

  constructor(private readonly store: Store) {}

  /** Documented states by postal code (read on first use). */
  get stateByCode(): Map<string, JurisdictionRow> {
    if (!this.states) {
      this.states = new Map();
      for (const j of this.store.states()) if (j.state) this.states.set(j.state.toUpperCase(), j);
    }
    return this.states;
  }

  /** Base name → candidates, built on the first place-name question (not at start: ~40k names to split). */
  private get byBase(): Map<string, JurisdictionRow[]> {
    if (this.byBaseIndex) return this.byBaseIndex;
    const m = new Map<string, JurisdictionRow[]>();
    for (const j of this.store.jurisdictions.values()) {
      if (!j.documented) continue;
      if (j.type !== "county" && j.type !== "cousub" && j.type !== "place") continue;
      if (j.type === "place" && j.incorporated === 0) continue;
      const { base } = splitName(j.name);
      const l = m.get(base);
      if (l) l.push(j);
      else m.set(base, [j]);
    }
    return (this.byBaseIndex = m);
  }

  isState = (code: string) => this.stateByCode.has(code.toUpperCase());

  private countyName(id: string | null): string | null {
    return id ? (this.store.jurisdiction(id)?.name ?? null) : null;
  }

  private countiesOf(j: JurisdictionRow): string[] {
    const ids = new Set<string>();
    if (j.county_id) ids.add(j.county_id);
    for (const s of this.store.sameAs.get(j.jurisdiction_id) ?? []) {
      const t = this.store.jurisdiction(s);
      if (t?.type === "cousub" && t.county_id) ids.add(t.county_id);
    }
    return [...ids];
  }

  /** Documented candidates for a query, twins collapsed, in a fixed order (state, type, id). */
  candidates(text: string, stateParam: string | undefined): { list: JurisdictionRow[]; state: string | null } {
    const q = parsePlaceQuery(text, this.isState);
    if (stateParam && q.state && stateParam.toUpperCase() !== q.state) {
      throw new DomainError(
        "bad-parameter",
        `The place ends in ${q.state} but state is ${stateParam.toUpperCase()}; give one state.`,
      );
    }
    const state = (stateParam ?? q.state)?.toUpperCase() ?? null;
    if (state && !this.isState(state)) throw unknownState(state);
    const { base, legal } = splitName(q.name);
    if (!base)
      throw new DomainError("bad-parameter", "The place name is empty once punctuation and legal words are removed.");
    let list = (this.byBase.get(base) ?? []).filter((j) => !state || j.state === state);
    if (legal)
      list = list.filter((j) => (j.legal_type ?? "").toLowerCase() === legal || splitName(j.name).legal === legal);
    if (q.county) {
      const c = splitName(q.county).base;
      list = list.filter(
        (j) => j.type !== "county" && this.countiesOf(j).some((id) => splitName(this.countyName(id) ?? "").base === c),
      );
    }
    // collapse same_as twins: keep the place, else the county, else the first cousub
    const keep = new Map<string, JurisdictionRow>();
    const rankOf = (j: JurisdictionRow) => (j.type === "place" ? 0 : j.type === "county" ? 1 : 2);
    for (const j of list) {
      const group = [j.jurisdiction_id, ...(this.store.sameAs.get(j.jurisdiction_id) ?? [])].sort();
      const placeTwin = group.map((id) => this.store.jurisdiction(id)).find((x) => x?.type === "place");
      const key = placeTwin?.jurisdiction_id ?? group[0]!;
      const have = keep.get(key);
      const cand = placeTwin && rankOf(j) !== 0 ? placeTwin : j;
      if (!have || rankOf(cand) < rankOf(have)) keep.set(key, cand);
    }
    const out = [...keep.values()].sort(
      (a, b) =>
        (a.state ?? "").localeCompare(b.state ?? "") ||
        TYPE_ORDER[a.type]! - TYPE_ORDER[b.type]! ||
        (a.jurisdiction_id < b.jurisdiction_id ? -1 : 1),
    );
    return { list: out, state };
  }

  label(j: JurisdictionRow): string {
    const county = j.type === "county" ? null : this.countyName(j.county_id);
    return [j.name, county, j.state].filter(Boolean).join(", ");
  }

  /** Exactly one jurisdiction, or place-not-found / ambiguous (with choices). */
  resolve(text: string, stateParam: string | undefined, links: PageLinks): JurisdictionRow {
    const { list, state } = this.candidates(text, stateParam);
    if (list.length === 0) {
      throw new DomainError(
        "place-not-found",
        `No county, city, town or township named '${text.slice(0, 100)}'${state ? ` in ${state}` : ""}.`,
      );
    }
    if (list.length > 1) {
      const choices: Choice[] = list.slice(0, 100).map((j) => ({
        label: this.label(j),
        jurisdiction_id: j.jurisdiction_id,
        page_url: links.place(j.jurisdiction_id),
      }));
      throw new DomainError(
        "ambiguous",
        `${list.length} places match '${text.slice(0, 100)}'${list.length > 100 ? " (the first 100 are listed)" : ""}; resolve again with one jurisdiction_id.`,
        { choices },
      );
    }
    return list[0]!;
  }
}
