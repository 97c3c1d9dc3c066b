// One record by its id, as the human pages show it: a resource, an office, a source, a jurisdiction's boundary.
// Built from the same pieces as the API answers (resourceOut, officeOut, jurisdictionOut, the SourceTrail of sources)
// and under the same provenance filter: an undocumented record, or one whose body is undocumented, is not found.
import type { Directory } from "./directory";
import { DomainError } from "../domain/errors";
import { SourceTrail, chainOf, jurisdictionOut, sourceOut } from "./jurisdictions";
import { resourceOut } from "./resources";
import { officeOut } from "./functions";
import { decodeSpatialiteBlob } from "./spatialite-blob";

const notFound = (what: string, id: string) =>
  new DomainError("not-found", `No ${what} has the id '${id.slice(0, 80)}'.`);

/** A documented resource with its body and chain, or not-found. */
export function resourceRecord(dir: Directory, id: string) {
  const r = dir.store.resourcesOfId(id);
  if (!r) throw notFound("resource", id);
  const body = dir.store.jurisdiction(r.jurisdiction_id)!;
  const trail = new SourceTrail(dir.store, dir.links).add(r.source_id).add(body.source_id);
  return {
    data: {
      resource: resourceOut(r, dir.links),
      jurisdiction: jurisdictionOut(body, dir.store, dir.links),
      chain: chainOf(dir.store, body.jurisdiction_id).map((j) => jurisdictionOut(j, dir.store, dir.links)),
    },
    sources: trail.sources(),
    notices: trail.notices(),
  };
}

/** A documented office with its body, the job it does there (when recorded) and the body's resources. */
export function officeRecord(dir: Directory, id: string) {
  const row = dir.store.officeBody(id);
  const body = row ? dir.store.jurisdiction(row.jurisdiction_id) : null;
  const o = body ? dir.store.officesOf(body.jurisdiction_id).items.find((x) => x.office_id === id) : undefined;
  if (!o || !body) throw notFound("office", id);
  const trail = new SourceTrail(dir.store, dir.links).add(o.source_id).add(body.source_id);
  return {
    data: {
      office: officeOut(o, dir.links),
      function: o.function,
      jurisdiction: jurisdictionOut(body, dir.store, dir.links),
      chain: chainOf(dir.store, body.jurisdiction_id).map((j) => jurisdictionOut(j, dir.store, dir.links)),
    },
    sources: trail.sources(),
    notices: trail.notices(),
  };
}

/** A documented source record (every input and authored file of the data file), or not-found. */
export function sourceRecord(dir: Directory, id: string) {
  const s = dir.store.source(id);
  const out = s ? sourceOut(dir.store, id, dir.links) : null;
  if (!s || !out) throw notFound("source", id);
  return {
    source: out,
    source_id: s.source_id,
    license: s.license,
    vintage: s.vintage,
    sha256: s.sha256,
    stored_path: /^https?:\/\//.test(s.url) ? null : s.url,
  };
}

export interface Boundary {
  /** polygons, each a list of rings [x0, y0, x1, y1, ...] in lon/lat (exterior ring first) */
  polygons: Float64Array[][];
  bbox: [number, number, number, number];
  precision: string | null;
  source: ReturnType<typeof sourceOut>;
}

/** The stored boundary of a documented jurisdiction (decoded from its SpatiaLite blob), or null where none is held. */
export function boundaryOf(dir: Directory, id: string): Boundary | null {
  if (!dir.store.jurisdiction(id)) return null;
  const row = dir.store.boundaryRow(id);
  if (!row?.geom) return null;
  const g = decodeSpatialiteBlob(row.geom);
  return {
    polygons: g.polygons.map((p) => p.rings),
    bbox: g.mbr,
    precision: row.boundary_precision,
    source: sourceOut(dir.store, row.boundary_source, dir.links),
  };
}
