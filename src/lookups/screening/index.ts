// Screening: the ONE list of outside services (adding one = one definition file and one line in SERVICES), the
// facts derived from it (answer order, config blocks), and the composition of a Fact: the runner's reading +
// caveat + who decides (from the directory's FunctionEntry) + the directory resources under the fact's topic.
// Radon comes from the data file and never needs the network.
import type { TakeLookup } from "../charge";
import { flood } from "./flood";
import { wetlands } from "./wetlands";
import { soils } from "./soils";
import { elevation } from "./elevation";
import { shoreland } from "./shoreland";
import { radon, radonReading, type RadonRow } from "./radon";
import { ScreeningRunner, type Answer, type LayerSource } from "./runner";
import {
  appliesAt,
  serviceConfig,
  type FactDef,
  type Origin,
  type Reading,
  type ScreeningCommon,
  type ServiceDef,
  type Tone,
} from "./types";
import type { Feature } from "./geometry";
import type { Drawn } from "../../directory/screen-at";
import { LRUCache } from "lru-cache";
import { budgeted } from "../../domain/cache-budget";
import type { SourceOut } from "../../domain/source";
import { keep } from "../../domain/kept";

/** The outside screening services, in answer order: adding one is its definition file and one line here. */
export const SERVICES = [flood, wetlands, soils, elevation, shoreland] as const;

/** Radon's place among the facts of an answer: after the first four services (flood, wetlands, soils,
 * elevation), before the rest (shoreland). */
const RADON_AT = 4;
/** Every fact of an answer over `defs`, in answer order: the services, with radon at its place. */
export const factsOf = (defs: readonly ServiceDef[]): readonly FactDef[] => [
  ...defs.slice(0, RADON_AT),
  radon,
  ...defs.slice(RADON_AT),
];
/** Every fact of an answer, in answer order (the API schema lists these). */
export const FACTS = factsOf(SERVICES);

/** The services' config blocks (screening.<name>), each with its definition's defaults. */
type ServiceBlocks = { [D in (typeof SERVICES)[number] as D["name"]]: D["defaults"] };
/** The screening config block (screening.*): the shared settings and one block per service, whose keys and
 * defaults its definition gives. */
export type ScreeningConfig = ScreeningCommon & ServiceBlocks;
export const serviceDefaults = (defs: readonly ServiceDef[] = SERVICES): ServiceBlocks =>
  Object.fromEntries(defs.map((d) => [d.name, structuredClone(d.defaults)])) as ServiceBlocks;

/** A loaded layer drawn around the point: a service's own layer, or a layer that is only drawn. */
interface DrawnLayer {
  layerKind: string;
  drawn(f: Feature, origin: Origin): { label: string; tone: Tone } | null;
}
/** A local wetland survey (load-layer --kind local_wetlands): drawn under its publisher's name; it never answers
 * the wetlands fact, which is the national inventory's. */
const LOCAL_WETLANDS: DrawnLayer = {
  layerKind: "local_wetlands",
  drawn: (f, o) =>
    f.polygons
      ? { label: `Wetland mapped by ${o.publisher} (not the National Wetlands Inventory)`, tone: "wetland" }
      : null,
};
/** At most this many shapes are drawn around a point (a page stays small). */
const MAX_DRAWN = 200;

/** What the directory says about the point (built by src/directory/screening-place.ts). */
interface ScreeningPlace {
  /** Identifies the chain: the same key means the same deciders and resources. */
  key: string;
  state: string | null;
  stateName: string | null;
  countyName: string | null;
  jurisdictions: unknown[];
  /** FunctionEntry per function, as resolve gives it. */
  functions: Record<string, unknown>;
  radon: (RadonRow & { source: SourceOut | null }) | null;
  /** false when the data file holds no radon table (the fact is unknown then, never "not on the map") */
  radonLoaded?: boolean;
  resources(topic: string): { items: unknown[]; sources: SourceOut[]; notices: string[] };
  sources: SourceOut[];
  notices: string[];
}

interface ScreeningOptions {
  /** The screening block, with a block for every service of `defs`. */
  config: ScreeningConfig;
  /** The timeout of a service whose block says timeout_ms 0 (timeouts.screening_ms). */
  timeoutMs?: number;
  layers?: LayerSource | null;
  takeLookup: TakeLookup;
  /** The outside services (default SERVICES). */
  defs?: readonly ServiceDef[];
}

export class Screening {
  readonly runner: ScreeningRunner;
  /** Its outside services (the page's headings come from these and radon). */
  readonly services: readonly ServiceDef[];
  private readonly factDefs: readonly FactDef[];
  private readonly layers: LayerSource | null;
  constructor(opts: ScreeningOptions) {
    this.services = opts.defs ?? SERVICES;
    this.factDefs = factsOf(this.services);
    this.layers = opts.layers ?? null;
    this.runner = new ScreeningRunner({
      config: withTimeouts(opts.config, this.services, opts.timeoutMs),
      defs: this.services,
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
    const drawnLayers: DrawnLayer[] = [
      ...this.services
        .filter((d) => d.layerKind && d.drawn && appliesAt(d, state))
        .map((d) => ({ layerKind: d.layerKind!, drawn: d.drawn! })),
      LOCAL_WETLANDS,
    ];
    for (const l of drawnLayers) {
      const hit = this.layers.query(l.layerKind, lon, lat, radiusM, state);
      if (!hit) continue;
      layers.push(hit.origin.dataset);
      for (const f of hit.features) {
        const look = l.drawn(f, hit.origin);
        if (look && shapes.length < MAX_DRAWN)
          shapes.push({ ...look, dataset: hit.origin.dataset, polygons: f.polygons, lines: f.lines });
      }
    }
    return { layers, shapes };
  }

  /** Every fact at the exact point. Throws DomainError busy / lookup-limit (nothing else: failures are unknown). */
  async facts(lon: number, lat: number, place: ScreeningPlace) {
    const defs = this.services.filter((d) => appliesAt(d, place.state));
    const answers = await this.runner.screen(lon, lat, place.state, defs);
    const sources: SourceOut[] = [...place.sources];
    const notices = [...place.notices];
    const radonRead = radonReading(place.radon, place.countyName, place.radonLoaded);
    const key = `${place.key}\u0000${JSON.stringify(defs.map((d) => answers.get(d.name)!.reading))}\u0000${JSON.stringify(radonRead)}`;
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
      const fact = (def: FactDef, r: Reading) => {
        const decider = def.decider(place);
        const office = decider.function ? (place.functions[decider.function] ?? null) : null;
        return {
          status: r.status,
          summary: r.summary,
          detail: r.detail,
          values: r.values,
          dataset: r.dataset,
          publisher: r.publisher,
          as_of: r.as_of,
          caveat: def.caveat,
          decided_by: { description: decider.description, function: decider.function, office },
          resources: def.topic ? place.resources(def.topic).items : [],
        };
      };
      facts = {};
      for (const def of this.factDefs)
        if (appliesAt(def, place.state))
          facts[def.name] = fact(def, def === radon ? radonRead : answers.get(def.name)!.reading);
      this.assembled.set(key, keep(facts));
    }
    return { facts, sources, notices, answers };
  }
}

function sourceOf(a: Answer): SourceOut {
  return {
    name: a.origin!.dataset,
    url: a.origin!.url,
    publisher: a.origin!.publisher,
    official: true,
    retrieved_at: a.at,
    license_class: "open",
  };
}

/** The screening block with every service's timeout resolved (timeout_ms 0 = `timeoutMs`); the block of each
 * service must be there. */
function withTimeouts(cfg: ScreeningConfig, defs: readonly ServiceDef[], timeoutMs?: number): ScreeningConfig {
  const s = structuredClone(cfg);
  for (const d of defs) {
    const block = serviceConfig(s, d);
    if (timeoutMs !== undefined && !(block.timeout_ms > 0)) block.timeout_ms = timeoutMs;
  }
  return s;
}
