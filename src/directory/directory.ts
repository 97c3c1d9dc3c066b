// The directory: the data file opened once (store, boundary index, names, search) and the answers built on it.
import type { Database } from "bun:sqlite";
import { DomainError } from "../domain/errors";
import { keep, keepAll } from "../domain/kept";
import type { PageLinks } from "../domain/page-links";
import { unknownState } from "../domain/states";
import type { Content } from "./content";
import { BoundaryIndex, type PointChain } from "./boundaries";
import { Store, type JurisdictionRow } from "./store";
import { PlaceNames } from "./places";
import { NameSearch } from "./search";
import { SourceTrail, chainFromIds, chainOf, jurisdictionOut } from "./jurisdictions";
import { functionsFor, officeOut } from "./functions";
import { page, rankedResources, requireJurisdiction, resourceOut } from "./resources";
import { LRUCache } from "lru-cache";
import { budgeted, estimateBytes } from "../domain/cache-budget";
import { POINT_MATCH, answer, type ChainAnswer, type Match } from "./resolve";
import { Browse, type BrowseList } from "./browse";
import { townLevelState, townRow, townSource, type TownLocator } from "./town-at-point";

/** The resources shown under one screening fact (screening-place.ts). */
interface ScreeningResources {
  items: unknown[];
  sources: any[];
  notices: string[];
}

export class Directory {
  readonly store: Store;
  readonly index: BoundaryIndex;
  readonly names: PlaceNames;
  readonly search: NameSearch;
  private readonly lists: Browse;

  constructor(
    db: Database,
    readonly content: Content,
    readonly links: PageLinks,
  ) {
    this.store = new Store(db);
    this.index = BoundaryIndex.fromDatabase(db);
    this.names = new PlaceNames(this.store);
    this.search = new NameSearch(db, this.store);
    this.lists = new Browse(db, this.store);
  }

  /** The counties of a state, or the cities and towns of a county, by name, one page of them (src/directory/browse.ts). */
  browse(id: string, offset: number, size: number): BrowseList {
    return this.lists.under(requireJurisdiction(this.store, id), offset, size);
  }

  /** A state code must name a state, DC or territory in the data file; otherwise unknown-state. */
  requireState(code: string | undefined): void {
    if (code !== undefined && !this.names.isState(code)) throw unknownState(code);
  }

  /** Chain answers are the same for every point of a chain: kept in an LRU (the data file is read-only), bounded
   * by its budget (src/domain/cache-budget.ts; ~20 KB a chain), so that traffic over the whole country cannot
   * grow it to 20,000 x 20 KB. */
  private readonly chainAnswers = new LRUCache<number | string, ChainAnswer>(
    budgeted<ChainAnswer>("chain_answers", 20_000, (c) => estimateBytes([c.jurisdictions, c.functions, c.sources])),
  );
  /** The resources under each screening fact, per chain and topic (screening-place.ts), under their budget. */
  readonly screeningResources = new LRUCache<string, ScreeningResources>(
    budgeted<ScreeningResources>("screening_resources", 20_000),
  );
  /** The link results the memo was built with: new results change answers, so the memo starts again. */
  private chainAnswersVersion = 0;

  /** The chain answer kept under `key` (a locate() code, or a code with the town found for it), made once; the memo
   * starts again when the link results change. */
  private memoChain(key: number | string, make: () => ChainAnswer): ChainAnswer {
    const version = this.links.results?.version ?? 0;
    if (version !== this.chainAnswersVersion) {
      this.chainAnswers.clear();
      this.screeningResources.clear();
      this.chainAnswersVersion = version;
    }
    let c = this.chainAnswers.get(key);
    if (!c) {
      c = make();
      keepAll(c.jurisdictions, c.functions, c.sources, c.notices);
      this.chainAnswers.set(key, keep(c));
    }
    return c;
  }

  /** The chain-only part of the answer at a point (memoised by the index's locate() code), or outside-coverage. */
  chainAnswerAt(lon: number, lat: number): ChainAnswer {
    const code = this.index.locate(lon, lat);
    return this.memoChain(code, () =>
      this.chainAnswer(this.chainAtPoint(lon, lat, this.index.chainOfCode(code)), true),
    );
  }

  resolvePoint(lon: number, lat: number, match: Match = POINT_MATCH) {
    return answer(this.chainAnswerAt(lon, lat), match, { lon, lat });
  }

  /** Where town boundaries come from outside the data file (src/lookups/towns), set by the composition. */
  towns: TownLocator | null = null;

  /** The answer at a point, with its town or township where the data file holds no town boundaries for the state
   *  and a job falls to towns there: asked of `towns` (kept polygons, a loaded file, or the Census service). Without
   *  one, or when it cannot say, the answer is resolvePoint's, with a notice saying why. */
  async resolvePointTowns(lon: number, lat: number, match: Match = POINT_MATCH) {
    const code = this.index.locate(lon, lat);
    const hit = this.index.chainOfCode(code);
    const chain = this.chainAtPoint(lon, lat, hit);
    const base = this.memoChain(code, () => this.chainAnswer(chain, true));
    const out = (c: ChainAnswer, notice?: string) =>
      answer(notice ? { ...c, notices: [...c.notices, notice] } : c, match, { lon, lat });
    const state = chain.find((j) => j.type === "state")!;
    if (!this.towns || !this.townNotice(chain) || !townLevelState(this.content, state.state ?? "")) return out(base);
    const found = await this.towns.find(lon, lat, state.state_fips!);
    if ("miss" in found) return out(base, `The town or township at this point could not be found: ${found.detail}.`);
    const row = this.store.jurisdiction(`cousub:${found.hit.geoid}`);
    if (!row)
      return out(
        base,
        `The Census Bureau places this point in county subdivision ${found.hit.geoid} (${found.hit.name}), which this directory holds no record of.`,
      );
    const town = townRow(row, found.hit);
    const c = this.memoChain(`${code}|${town.jurisdiction_id}|${town.funcstat ?? ""}`, () => {
      const ids = [hit!.state, row.county_id ?? hit!.county, town.jurisdiction_id, hit!.place];
      const withTown = ids
        .map((id) => (id === town.jurisdiction_id ? town : id ? this.store.jurisdiction(id) : null))
        .filter((x): x is JurisdictionRow => !!x);
      return this.chainAnswer(withTown, false);
    });
    return out({ ...c, sources: [...c.sources, townSource(found.hit)] });
  }
  resolveId(id: string) {
    const j = requireJurisdiction(this.store, id);
    return answer(
      this.chainAnswer(chainOf(this.store, j.jurisdiction_id), false, j),
      { by: "jurisdiction_id", label: j.name, approximate: false },
      null,
    );
  }
  resolvePlace(place: string, state?: string) {
    const j = this.names.resolve(place, state, this.links);
    return answer(
      this.chainAnswer(chainOf(this.store, j.jurisdiction_id), false, j),
      { by: "place", label: this.names.label(j), approximate: false },
      null,
    );
  }

  /** Chain of the point (largest first) or outside-coverage. */
  private chainAtPoint(
    lon: number,
    lat: number,
    hit: PointChain | null = this.index.lookup(lon, lat),
  ): JurisdictionRow[] {
    const chain = hit ? chainFromIds(this.store, [hit.state, hit.county, hit.cousub, hit.place]) : [];
    if (!chain.length)
      throw new DomainError(
        "outside-coverage",
        `The point (${lat}, ${lon}) is not inside a state or territory covered by this service.`,
      );
    return chain;
  }

  /** States with county subdivision records but no county subdivision boundary in the index (e.g. New York,
   * Pennsylvania, Wisconsin today): a point there cannot be placed in its town or township. Worked out once. */
  private townless: Set<string> | null = null;
  private townlessStates(): Set<string> {
    if (!this.townless) {
      const have = this.index.cousubStates();
      this.townless = new Set([...this.store.cousubRecordStates()].filter((fips) => !have.has(fips)));
    }
    return this.townless;
  }

  /** The caveat of a point chain without a county subdivision in a state whose town boundaries are not held. */
  private townNotice(chain: JurisdictionRow[]): string | null {
    const state = chain.find((j) => j.type === "state");
    if (!state?.state_fips || chain.some((j) => j.type === "cousub") || !this.townlessStates().has(state.state_fips))
      return null;
    return `County subdivision (town, township) boundaries for ${state.name} are not held in this directory, so the chain has no county subdivision at this point; a function the state gives to towns or townships names no body here.`;
  }

  /** The part of an answer that depends on the chain only. `atPoint`: the chain came from a point (or address): the
   * sources then also cite the boundaries that placed the point (e.g. a town layer under ODbL), and townNotice()
   * adds its caveat. `about`: the answer is about that one place (resolve by id or name), so the words speak of its
   * area, never of "this point". */
  private chainAnswer(chain: JurisdictionRow[], atPoint = false, about?: JurisdictionRow): ChainAnswer {
    const trail = new SourceTrail(this.store, this.links);
    trail.addAll(chain);
    if (atPoint) for (const j of chain) trail.add(j.boundary_source);
    const functions = functionsFor(
      { store: this.store, content: this.content, links: this.links, trail, about },
      chain,
    );
    const notice = atPoint ? this.townNotice(chain) : null;
    return {
      jurisdictions: chain.map((j) => jurisdictionOut(j, this.store, this.links)),
      functions,
      sources: trail.sources(),
      notices: [...trail.notices(), ...(notice ? [notice] : [])],
    };
  }

  /** The place or point whose resources are listed, with its chain. */
  private target(sel: { jurisdictionId?: string; point?: { lon: number; lat: number } }): {
    place: JurisdictionRow;
    chain: JurisdictionRow[];
  } {
    if (sel.jurisdictionId) {
      const place = requireJurisdiction(this.store, sel.jurisdictionId);
      return { place, chain: chainOf(this.store, place.jurisdiction_id) };
    }
    const chain = this.chainAtPoint(sel.point!.lon, sel.point!.lat);
    return { place: chain[chain.length - 1]!, chain };
  }

  resources(
    sel: { jurisdictionId?: string; point?: { lon: number; lat: number } },
    topic: string | null,
    offset: number,
    size: number,
  ) {
    const { place, chain } = this.target(sel);
    const trail = new SourceTrail(this.store, this.links).add(place.source_id);
    const all = rankedResources(this.store, trail, topic === null ? [place] : chain, topic);
    const p = page(all, offset, size);
    trail.addAll(p.items);
    return {
      data: {
        jurisdiction: jurisdictionOut(place, this.store, this.links),
        point: sel.point ? { type: "Point" as const, coordinates: [sel.point.lon, sel.point.lat] } : null,
        topic,
        resources: p.items.map((r) => resourceOut(r, this.links)),
      },
      nextOffset: p.nextOffset,
      sources: trail.sources(),
      notices: trail.notices(),
    };
  }

  place(id: string, offset: number, size: number) {
    const j = requireJurisdiction(this.store, id);
    const chain = chainOf(this.store, j.jurisdiction_id);
    const trail = new SourceTrail(this.store, this.links).addAll(chain);
    const offices = this.store.officesOf(j.jurisdiction_id);
    trail.leftOut += offices.leftOut;
    trail.addAll(offices.items);
    const all = rankedResources(this.store, trail, [j], null);
    const p = page(all, offset, size);
    trail.addAll(p.items);
    const functions = functionsFor(
      { store: this.store, content: this.content, links: this.links, trail, about: j },
      chain,
    );
    return {
      data: {
        jurisdiction: jurisdictionOut(j, this.store, this.links),
        chain: chain.map((c) => jurisdictionOut(c, this.store, this.links)),
        offices: offices.items.map((o) => officeOut(o, this.links)),
        resources: p.items.map((r) => resourceOut(r, this.links)),
        functions,
      },
      nextOffset: p.nextOffset,
      sources: trail.sources(),
      notices: trail.notices(),
    };
  }

  searchNames(q: string, state: string | null, limit: number) {
    const trail = new SourceTrail(this.store, this.links);
    // places: same-government twins (a Minnesota city as place and county subdivision) are one hit, the place
    const seen = new Set<string>();
    const places: JurisdictionRow[] = [];
    for (const h of this.search.search(q, state, "place", limit * 3)) {
      let j = this.store.jurisdiction(h.ref);
      if (!j) continue;
      const twin = (this.store.sameAs.get(j.jurisdiction_id) ?? [])
        .map((x) => this.store.jurisdiction(x))
        .find((x) => x?.type === "place");
      if (twin) j = twin;
      if (seen.has(j.jurisdiction_id)) continue;
      seen.add(j.jurisdiction_id);
      places.push(j);
      if (places.length >= limit) break;
    }
    trail.addAll(places);
    const resources = [];
    for (const h of this.search.search(q, state, "resource", limit * 2)) {
      const row = this.store.resourcesOfId(h.ref);
      if (!row) {
        trail.leftOut++;
        continue;
      }
      resources.push(row);
      if (resources.length >= limit) break;
    }
    trail.addAll(resources);
    return {
      data: {
        places: places.map((j) => jurisdictionOut(j, this.store, this.links)),
        resources: resources.map((r) => resourceOut(r, this.links)),
      },
      sources: trail.sources(),
      notices: trail.notices(),
    };
  }
}
