// Screening: the list of outside services (adding one = one definition file and one line here) and the
// composition of a Fact: the runner's reading + caveat + who decides (from the directory's FunctionEntry) + the
// directory resources under the fact's topic. Radon comes from the data file and never needs the network.
import type { ScreeningConfig } from "../../config/config";
import { flood } from "./flood";
import { wetlands } from "./wetlands";
import { soils } from "./soils";
import { elevation } from "./elevation";
import { shoreland } from "./shoreland";
import { RADON_CAVEAT, RADON_DECIDER, radonReading, type RadonRow } from "./radon";
import { ScreeningRunner, type Answer, type LayerSource } from "./runner";
import type { Reading, ServiceDef, Tone } from "./types";
import { LRUCache } from "lru-cache";
import { budgeted } from "../../domain/cache-budget";

export const SERVICES: ServiceDef[] = [flood, wetlands, soils, elevation, shoreland];
/** A loaded layer's shape near the point, for a drawing (rings and paths as in Feature, degrees). */
export interface Drawn {
  label: string;
  tone: Tone;
  dataset: string;
  polygons?: Float64Array[][];
  lines?: Float64Array[];
}
/** At most this many shapes are drawn around a point (a page stays small). */
const MAX_DRAWN = 200;

/** What the directory says about the point (built by src/directory/screening-place.ts). */
export interface ScreeningPlace {
  /** Identifies the chain: the same key means the same deciders and resources. */
  key: string;
  state: string | null;
  stateName: string | null;
  countyName: string | null;
  jurisdictions: unknown[];
  /** FunctionEntry per function, as resolve gives it. */
  functions: Record<string, unknown>;
  radon: (RadonRow & { source: SourceLike | null }) | null;
  /** false when the data file holds no radon table (the fact is unknown then, never "not on the map") */
  radonLoaded?: boolean;
  resources(topic: string): { items: unknown[]; sources: SourceLike[]; notices: string[] };
  sources: SourceLike[];
  notices: string[];
}
export interface SourceLike {
  name: string;
  url: string;
  publisher: string | null;
  official: boolean;
  retrieved_at: string | null;
  license_class: string;
}

export interface ScreeningOptions {
  config: ScreeningConfig;
  layers?: LayerSource | null;
  takeLookup: () => { ok: boolean; retryAfter: number; headers?: Record<string, string> };
  defs?: ServiceDef[];
}

export class Screening {
  readonly runner: ScreeningRunner;
  private readonly defs: ServiceDef[];
  private readonly layers: LayerSource | null;
  constructor(opts: ScreeningOptions) {
    this.defs = opts.defs ?? SERVICES;
    this.layers = opts.layers ?? null;
    this.runner = new ScreeningRunner({
      config: opts.config,
      defs: this.defs,
      layers: opts.layers,
      takeLookup: opts.takeLookup,
    });
  }

  /** Assembled facts by chain and readings: the same readings in the same chain give the very same object, so
   * the edge serialises it once (a cached point answers without building its facts again). */
  private readonly assembled = new LRUCache<string, Record<string, unknown>>(
    budgeted<Record<string, unknown>>("screening_facts", 5_000),
  );

  /** Shapes of the loaded layers within `radiusM` of the point, for a drawing (never an outside call). `layers`
   * names each loaded dataset that covers the point, even where it holds no shape that near. */
  near(lon: number, lat: number, state: string | null, radiusM: number) {
    const layers: string[] = [];
    const shapes: Drawn[] = [];
    if (!this.layers) return { layers, shapes };
    for (const def of this.defs.filter((d) => d.layerKind && d.drawn && (d.name !== "shoreland" || state === "MN"))) {
      const hit = this.layers.query(def.layerKind!, lon, lat, radiusM, state);
      if (!hit) continue;
      layers.push(hit.origin.dataset);
      for (const f of hit.features) {
        const look = def.drawn!(f);
        if (look && shapes.length < MAX_DRAWN)
          shapes.push({ ...look, dataset: hit.origin.dataset, polygons: f.polygons, lines: f.lines });
      }
    }
    return { layers, shapes };
  }

  /** Every fact at the exact point. Throws DomainError busy / lookup-limit (nothing else: failures are unknown). */
  async facts(lon: number, lat: number, place: ScreeningPlace) {
    const defs = this.defs.filter((d) => d.name !== "shoreland" || place.state === "MN");
    const answers = await this.runner.screen(lon, lat, place.state, defs);
    const sources: SourceLike[] = [...place.sources];
    const notices = [...place.notices];
    const radon = radonReading(place.radon, place.countyName, place.radonLoaded);
    const key = `${place.key}\u0000${JSON.stringify(defs.map((d) => answers.get(d.name)!.reading))}\u0000${JSON.stringify(radon)}`;
    const topics = [...defs.map((d) => d.topic)];
    for (const t of topics) {
      const res = place.resources(t);
      sources.push(...res.sources);
      for (const n of res.notices) if (!notices.includes(n)) notices.push(n);
    }
    for (const def of defs) {
      const a = answers.get(def.name)!;
      if (a.origin && a.reading.status !== "unknown") sources.push(sourceOf(a));
    }
    if (place.radon?.source) sources.push(place.radon.source);
    let facts = this.assembled.get(key);
    if (!facts) {
      const fact = (
        r: Reading,
        caveat: string,
        decider: { description: string; function: string | null },
        topic: string | null,
      ) => {
        const office = decider.function ? (place.functions[decider.function] ?? null) : null;
        return {
          status: r.status,
          summary: r.summary,
          detail: r.detail,
          values: r.values,
          dataset: r.dataset,
          publisher: r.publisher,
          as_of: r.as_of,
          caveat,
          decided_by: { description: decider.description, function: decider.function, office },
          resources: topic ? place.resources(topic).items : [],
        };
      };
      const all: Record<string, unknown> = {};
      for (const def of defs)
        all[def.name] = fact(answers.get(def.name)!.reading, def.caveat, def.decider(place), def.topic);
      all.radon = fact(radon, RADON_CAVEAT, RADON_DECIDER, null);
      facts = {};
      for (const k of ["flood", "wetlands", "soils", "elevation", "radon", "shoreland"]) if (all[k]) facts[k] = all[k];
      this.assembled.set(key, facts);
    }
    return { facts, sources, notices, answers };
  }
}

function sourceOf(a: Answer): SourceLike {
  return {
    name: a.origin!.dataset,
    url: a.origin!.url,
    publisher: a.origin!.publisher,
    official: true,
    retrieved_at: a.at,
    license_class: "open",
  };
}
