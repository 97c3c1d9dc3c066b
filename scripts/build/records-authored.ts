// Authored directory records: data/resources/*.yaml (hand-added resources, offices and function overrides).
// File shape: source_defaults (license_class, license, vintage, retrieved_at), defaults (any entry field), and the
// lists resources, offices, function_overrides and no_body (functions no body performs here). An entry's `source` is
//   self (or omitted)  the publisher's page is the origin: url + publisher of the entry, dates from source_defaults;
//   a mapping          an explicit source (source_id, name, url, publisher, official, ...);
//   null               origin not documented: the record is kept with documented 0 and source_kind 'unknown'.
import { readdirSync, readFileSync, existsSync } from "node:fs";
import { basename, join } from "node:path";
import { parse } from "yaml";
import { FUNCTIONS } from "../../src/domain/vocabulary";
import {
  type JurisdictionIn,
  Records,
  checkTopics,
  isHttpUrl,
  officeId,
  resourceRow,
  sourceRow,
} from "./records-common";

const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .slice(0, 60);
const FN = new Set<string>(FUNCTIONS);

interface Ctx {
  jurisdictions: Map<string, JurisdictionIn>;
  log: (s: string) => void;
}

/** Resolve an entry's source into a source row id (or null when undocumented). */
function entrySource(rec: Records, e: any, file: string, defaults: any, where: string): string | null {
  const s = e.source === undefined ? "self" : e.source;
  if (s === null) return null;
  if (s === "self") {
    if (!isHttpUrl(e.url) || !e.publisher) throw new Error(`${where}: source self needs url and publisher`);
    return rec.addSource(
      sourceRow({
        source_id: `${file}:${slug(e.name)}`,
        name: `${e.name} (publisher's page)`,
        url: e.url,
        publisher: e.publisher,
        official: e.official === false ? 0 : 1,
        retrieved_at: defaults.retrieved_at ?? null,
        license_class: defaults.license_class ?? "unknown",
        license: defaults.license ?? null,
        vintage: defaults.vintage ?? null,
      }),
    );
  }
  if (typeof s !== "object" || !s.source_id || !isHttpUrl(s.url))
    throw new Error(`${where}: source needs source_id and an http(s) url`);
  return rec.addSource(
    sourceRow({
      source_id: s.source_id,
      name: s.name ?? s.source_id,
      url: s.url,
      publisher: s.publisher ?? null,
      official: s.official ? 1 : 0,
      retrieved_at: s.retrieved_at ?? defaults.retrieved_at ?? null,
      license_class: s.license_class ?? defaults.license_class ?? "unknown",
      license: s.license ?? defaults.license ?? null,
      vintage: s.vintage ?? defaults.vintage ?? null,
      sha256: s.sha256 ?? null,
      quote: s.quote ?? null,
    }),
  );
}

/** Load one authored YAML file into rec. Records on jurisdictions not in ctx are skipped (counted). */
export function loadAuthoredFile(path: string, ctx: Ctx, rec: Records, counts: Record<string, number>): void {
  const doc = parse(readFileSync(path, "utf8")) ?? {};
  const file = basename(path).replace(/\.ya?ml$/, "");
  const sdef = doc.source_defaults ?? {};
  const inc = (k: string) => {
    counts[k] = (counts[k] ?? 0) + 1;
  };
  const known = (id: string) => id === "country:us" || ctx.jurisdictions.has(id);
  const docOf = (sid: string | null) => (sid ? rec.sources.get(sid)!.documented : 0);

  (doc.resources ?? []).forEach((raw: any, i: number) => {
    const e = { ...(doc.defaults ?? {}), ...raw };
    const where = `${path} resources[${i}]`;
    if (!e.name || !isHttpUrl(e.url) || !e.jurisdiction_id)
      throw new Error(`${where}: name, http(s) url and jurisdiction_id are required`);
    const topics = checkTopics(e.topics, where);
    if (!known(e.jurisdiction_id)) {
      inc("authored_skipped_unknown_jurisdiction");
      return;
    }
    const sid = entrySource(rec, e, file, sdef, where);
    rec.addResource(
      resourceRow({
        jurisdiction_id: e.jurisdiction_id,
        name: e.name,
        url: e.url,
        topics,
        sort_key: Number(e.sort_key ?? 100),
        source_kind: sid ? (e.source_kind ?? "hand-added") : "unknown",
        source_id: sid,
        documented: docOf(sid),
        publisher: e.publisher ?? null,
        official: e.official === true,
        description: e.description ?? null,
        search_url_template: e.search_url_template ?? null,
        provider: e.provider ?? null,
      }),
    );
    inc(sid && docOf(sid) ? "authored_resources" : "authored_resources_undocumented");
  });

  const officeByFn = new Map<string, { office_id: string; source_id: string | null; publisher: string | null }>();
  (doc.offices ?? []).forEach((raw: any, i: number) => {
    const e = { ...(doc.defaults ?? {}), ...raw };
    const where = `${path} offices[${i}]`;
    if (!e.name || !e.jurisdiction_id) throw new Error(`${where}: name and jurisdiction_id are required`);
    if (e.function != null && !FN.has(e.function)) throw new Error(`${where}: unknown function ${e.function}`);
    if (e.url != null && !isHttpUrl(e.url)) throw new Error(`${where}: url must be http(s)`);
    if (e.email != null || e.phone != null || e.person != null)
      throw new Error(`${where}: contact data and persons are not taken from authored files`);
    if (!known(e.jurisdiction_id)) {
      inc("authored_skipped_unknown_jurisdiction");
      return;
    }
    const sid = entrySource(rec, e, file, sdef, where);
    const id = officeId(e.jurisdiction_id, e.function ?? slug(e.name));
    rec.addOffice({
      office_id: id,
      jurisdiction_id: e.jurisdiction_id,
      name: e.name,
      kind: e.kind ?? e.function ?? null,
      function: e.function ?? null,
      phone: null,
      email: null,
      address: null,
      url: e.url ?? null,
      verified_status: "not_yet_verified",
      verified_at: null,
      source_kind: sid ? (e.source_kind ?? "hand-added") : "unknown",
      source_id: sid,
      documented: docOf(sid),
    });
    if (e.function)
      officeByFn.set(`${e.jurisdiction_id}|${e.function}`, {
        office_id: id,
        source_id: sid,
        publisher: e.publisher ?? null,
      });
    inc(sid && docOf(sid) ? "authored_offices" : "authored_offices_undocumented");
  });

  (doc.function_overrides ?? []).forEach((raw: any, i: number) => {
    const e = { ...raw };
    const where = `${path} function_overrides[${i}]`;
    if (!e.jurisdiction_id || !FN.has(e.function))
      throw new Error(`${where}: jurisdiction_id and a known function are required`);
    if (!isHttpUrl(e.evidence_url)) throw new Error(`${where}: evidence_url (http/https) is required`);
    if (!known(e.jurisdiction_id) || (e.performer_id && !known(e.performer_id))) {
      inc("authored_skipped_unknown_jurisdiction");
      return;
    }
    // the office of the performing body (e.g. New York City's Department of Finance for a borough county), else the listed one
    const office =
      officeByFn.get(`${e.performer_id ?? e.jurisdiction_id}|${e.function}`) ??
      officeByFn.get(`${e.jurisdiction_id}|${e.function}`);
    let sid: string | null;
    if (e.source === undefined || e.source === "self") {
      sid =
        office?.source_id ??
        entrySource(
          rec,
          {
            name: `${e.jurisdiction_id} ${e.function}`,
            url: e.evidence_url,
            publisher: e.publisher ?? office?.publisher,
          },
          file,
          sdef,
          where,
        );
    } else sid = entrySource(rec, e, file, sdef, where);
    // function_overrides.source_id is NOT NULL: an override without a documented origin is not stored.
    if (!sid) {
      inc("authored_overrides_dropped_no_source");
      ctx.log(`  ${where}: override without a source, dropped`);
      return;
    }
    rec.addOverride({
      jurisdiction_id: e.jurisdiction_id,
      function: e.function,
      performer_id: e.performer_id ?? e.jurisdiction_id,
      office_id: office?.office_id ?? null,
      role: e.role ?? "primary",
      levy_scope: e.levy_scope ?? null,
      basis: e.basis ?? null,
      evidence_url: e.evidence_url,
      source_id: sid,
    });
    inc("authored_function_overrides");
  });

  loadNoBody(rec, doc, file, sdef, path, ctx, counts, known);
}

/** no_body entries: no body in the chain performs these functions here (e.g. an Alaska census area of the unorganized
 *  borough, where no borough government exists). Stored as function_overrides with performer_id NULL and office_id NULL;
 *  a NULL performer means "nobody here", with the basis saying who does, where known. */
function loadNoBody(
  rec: Records,
  doc: any,
  file: string,
  sdef: any,
  path: string,
  ctx: Ctx,
  counts: Record<string, number>,
  known: (id: string) => boolean,
) {
  (doc.no_body ?? []).forEach((e: any, i: number) => {
    const where = `${path} no_body[${i}]`;
    const fns: string[] = Array.isArray(e.functions) ? e.functions : [];
    if (!e.jurisdiction_id || !fns.length || fns.some((f) => !FN.has(f)))
      throw new Error(`${where}: jurisdiction_id and known functions are required`);
    if (!isHttpUrl(e.evidence_url) || !e.basis)
      throw new Error(`${where}: basis and evidence_url (http/https) are required`);
    if (!known(e.jurisdiction_id)) {
      counts.authored_skipped_unknown_jurisdiction = (counts.authored_skipped_unknown_jurisdiction ?? 0) + 1;
      return;
    }
    const sid =
      e.source === undefined || e.source === "self"
        ? entrySource(
            rec,
            { name: `${e.jurisdiction_id} no body`, url: e.evidence_url, publisher: e.publisher },
            file,
            sdef,
            where,
          )
        : entrySource(rec, e, file, sdef, where);
    if (!sid) {
      ctx.log(`  ${where}: no_body without a source, dropped`);
      return;
    }
    for (const f of fns) {
      rec.addOverride({
        jurisdiction_id: e.jurisdiction_id,
        function: f,
        performer_id: null,
        office_id: null,
        role: "primary",
        levy_scope: null,
        basis: e.basis,
        evidence_url: e.evidence_url,
        source_id: sid,
      });
      counts.authored_no_body = (counts.authored_no_body ?? 0) + 1;
    }
  });
}

/** Load every *.yaml of a folder (sorted by name) into a fresh or given Records sink. */
export function loadAuthoredRecords(dir: string, ctx: Ctx, rec = new Records(), counts: Record<string, number> = {}) {
  if (!existsSync(dir)) return { rec, counts };
  for (const f of readdirSync(dir)
    .filter((f) => /\.ya?ml$/.test(f))
    .sort())
    loadAuthoredFile(join(dir, f), ctx, rec, counts);
  return { rec, counts };
}
