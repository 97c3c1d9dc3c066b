// Offices' own pages read by hand on stored public pages (data/pages/*.yaml): for a county or place and one of its
// jobs, the page of the office that does it (the assessor, the tax collector and its property-tax payment page, the
// recorder, the planning/zoning and the building-permit office). Each record names the stored page read, the date
// read and a quote of at most 300 characters that shows what the page is. Checked before anything is stored:
//   - the quote: present, at most 300 characters; a phone, e-mail or address is kept only when it is in the quote;
//   - the host: the URL's host is the government's own (own-hosts.ts: .gov registry, GSA list, UScityURL), or the
//     host a page on an own host names in its quoted text (`via`), e.g. a vendor's payment portal (`provider`),
//     or that the state's own directory page names for that government (stateDirectory below), or that a government
//     lying in the county (a city sending its residents to their county's office) names for the county
//     (insideNeighbour below);
//     a host owned by another government is refused, except a consolidated city-county twin (the same government)
//     and the body a documented override names for that job (New York City's Department of Finance in the five
//     borough counties), to which the record then belongs;
//   - topic and function agree; a search_url_template carries {pin}, {street} or {q}.
// A record that fails is left out and reported (file, index, reason). Hand-added links are not_yet_verified until
// the link checker has seen them. Offices: one per government and job, named as the page names it; its url is
// the office's own page (the topic's first record), phone/email/address from a record whose quote shows them.
import { readdirSync, readFileSync, existsSync } from "node:fs";
import { basename, join } from "node:path";
import { parse } from "yaml";
import { FUNCTION_TOPICS, FUNCTIONS, type Fn } from "../../src/domain/vocabulary";
import { hostOf, type OwnHosts } from "./own-hosts";
import { baseName } from "./legal";
import {
  type JurisdictionIn,
  Records,
  isHttpUrl,
  officeId,
  resourceId,
  resourceRow,
  sourceRow,
  sha256Hex,
} from "./records-common";

export interface PageRecord {
  jurisdiction_id: string;
  function: string;
  topic: string;
  office: string;
  name: string;
  url: string;
  page: string;
  read_at: string;
  quote: string;
  via?: { page: string; quote: string } | null;
  provider?: string | null;
  phone?: string | null;
  email?: string | null;
  address?: string | null;
  search_url_template?: string | null;
}

export const QUOTE_MAX = 300;
/** Rank of hand-read pages among a government's resources: before home pages (30) and GIS links. */
const PAGE_SORT_KEY = 5;
const squash = (s: string) => s.replace(/\s+/g, " ").trim().toLowerCase();
const digits = (s: string) => s.replace(/\D/g, "");
/** Text as lower-case words, punctuation dropped ("Contra Costa County's" -> "contra costa county s"). */
const words = (s: string) => squash(s.replace(/[^\w ]+/g, " "));
/** A government's name without its legal word, as words ("El Paso County" -> "el paso"). */
const baseWords = (name: string) => words(baseName(name));
/** The quote names the government: its base words appear as whole words. */
const quoteNames = (quote: string, base: string) => ` ${words(quote)} `.includes(` ${base} `);

/** A name that is only its government's ("Hennepin County", "County of Hennepin", "City of Tampa"), not an
 *  office's: the name compared with the forms of the government's own name. */
export function governmentOnly(name: string, jurisdictionName: string, legalType: string | null): boolean {
  const n = words(name);
  const base = baseWords(jurisdictionName);
  const legal = squash(legalType ?? "");
  const forms = [
    base,
    squash(jurisdictionName),
    `${base} ${legal}`,
    `${legal} of ${base}`,
    `city and county of ${base}`,
  ];
  return forms.includes(n);
}

export interface CheckCtx {
  own: OwnHosts;
  jurisdictions: Map<
    string,
    Pick<JurisdictionIn, "jurisdiction_id" | "name" | "legal_type"> &
      Partial<Pick<JurisdictionIn, "type" | "county_id">>
  >;
  /** other ids of the same government (consolidated city-county twins) */
  twins: (id: string) => string[];
  /** the body a documented override names for (jurisdiction, function), if any */
  performer: (id: string, fn: string) => string | null;
}

export type Checked = { ok: true; home: string } | { ok: false; reasons: string[] };

/** The state's own directory of its local offices (a revenue department's page per county, a comptroller's list)
 *  is evidence of which host is a county's or city's own: a via page on the host of the state the government lies
 *  in counts when its URL or its quote names the government (its name without "County"/"City"). Returns the
 *  record's own government then, else null. Another county's or city's page never counts. */
function stateDirectory(viaHost: string, viaPage: string, viaQuote: string, id: string, ctx: CheckCtx): string | null {
  const state = `state:${id.split(":")[1]?.slice(0, 2) ?? ""}`;
  if (!ctx.own.isOwn(viaHost, state)) return null;
  const name = ctx.jurisdictions.get(id)?.name;
  if (!name) return null;
  const base = baseWords(name);
  if (base.length < 3) return null;
  const inQuote = quoteNames(viaQuote, base);
  const path = decodeURIComponent(new URL(viaPage).pathname)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-");
  const inPath = `-${path}-`.includes(`-${base.replace(/ /g, "-")}-`);
  return inQuote || inPath ? id : null;
}

/** A city's, town's or township's own page that sends its residents to their county's office, writing out the
 *  office's host and naming the county ("The Contra Costa County Clerk Recorder ... visit their website at
 *  http://www.ccclerkrec.us/"), is evidence of that host as the county's: a via page on the own host of a government
 *  whose county_id is the record's county, its quote naming the county (its name without "County", as for the
 *  state's directory), for a host no list gives to any government (never the city's own). Returns the record's
 *  county then, else null. A neighbouring county's page, or a city of another county, never counts. */
function insideNeighbour(viaHost: string, viaQuote: string, urlHost: string, id: string, ctx: CheckCtx): string | null {
  const county = ctx.jurisdictions.get(id);
  if (!county || county.type !== "county" || ctx.own.owners(urlHost).size) return null;
  const inside = [...ctx.own.owners(viaHost)].some((o) => o !== id && ctx.jurisdictions.get(o)?.county_id === id);
  if (!inside) return null;
  return quoteNames(viaQuote, baseWords(county.name)) ? id : null;
}

/** Every check of one record; `home` is the government the record belongs to (see the header). */
export function checkPageRecord(r: PageRecord, ctx: CheckCtx): Checked {
  const reasons: string[] = [];
  const fn = r.function as Fn;
  if (!ctx.jurisdictions.has(r.jurisdiction_id)) reasons.push(`unknown jurisdiction ${r.jurisdiction_id}`);
  if (!FUNCTIONS.includes(fn)) reasons.push(`unknown function ${r.function}`);
  else if (!(FUNCTION_TOPICS[fn] as string[]).includes(r.topic))
    reasons.push(`topic ${r.topic} is not a topic of ${r.function}`);
  if (!r.office?.trim() || !r.name?.trim()) reasons.push("office and name are required");
  if (!isHttpUrl(r.url) || !isHttpUrl(r.page)) reasons.push("url and page must be http(s) URLs");
  if (!/^\d{4}-\d{2}-\d{2}$/.test(String(r.read_at ?? ""))) reasons.push("read_at must be a date");
  const quote = String(r.quote ?? "");
  if (!quote.trim()) reasons.push("no quote");
  if (quote.length > QUOTE_MAX) reasons.push(`quote over ${QUOTE_MAX} characters (${quote.length})`);
  const inQuote = (v: string) => squash(quote).includes(squash(v));
  if (r.phone && !(inQuote(r.phone) || (digits(r.phone).length >= 7 && digits(quote).includes(digits(r.phone)))))
    reasons.push(`phone ${r.phone} is not in the quote`);
  if (r.email && !inQuote(r.email)) reasons.push(`email ${r.email} is not in the quote`);
  if (r.address && !inQuote(r.address)) reasons.push(`address ${r.address} is not in the quote`);
  if (r.search_url_template) {
    if (!/\{(pin|street|q)\}/.test(r.search_url_template) || !isHttpUrl(r.search_url_template.replace(/[{}]/g, "")))
      reasons.push("search_url_template needs {pin}, {street} or {q} in an http(s) URL");
  }
  if (reasons.length) return { ok: false, reasons };

  // the host rule
  const id = r.jurisdiction_id;
  const accepted = (host: string): string | null => {
    if (ctx.own.isOwn(host, id)) return id;
    for (const t of ctx.twins(id)) if (ctx.own.isOwn(host, t)) return id; // the same government under its twin id
    const p = ctx.performer(id, fn);
    if (p && ctx.own.isOwn(host, p)) return p;
    return null;
  };
  const urlHost = hostOf(r.url)!,
    pageHost = hostOf(r.page)!;
  let home = accepted(urlHost);
  if (!home && r.via) {
    const viaHost = isHttpUrl(r.via.page) ? hostOf(r.via.page) : null;
    const viaQuote = String(r.via.quote ?? "");
    const viaHome = viaHost
      ? (accepted(viaHost) ??
        stateDirectory(viaHost, r.via.page, viaQuote, id, ctx) ??
        insideNeighbour(viaHost, viaQuote, urlHost, id, ctx))
      : null;
    const named = squash(viaQuote).includes(urlHost.replace(/^www\./, ""));
    if (!viaHome)
      reasons.push(
        `via page ${r.via.page} is not on the government's own host (nor its state's page naming ${ctx.jurisdictions.get(id)?.name ?? id}, nor a page of a government lying in it)`,
      );
    else if (viaQuote.length > QUOTE_MAX) reasons.push("via quote over 300 characters");
    else if (!named) reasons.push(`via quote does not name ${urlHost}`);
    else home = viaHome;
  }
  if (!home) {
    if (!reasons.length) {
      const others = [...ctx.own.owners(urlHost)];
      reasons.push(
        others.length
          ? `host ${urlHost} belongs to ${others.join(", ")}, not ${id}`
          : `host ${urlHost} is not a known own host of ${id} (and no via page names it)`,
      );
    }
    return { ok: false, reasons };
  }
  // the page read is the URL itself, or a page on an accepted host (the URL named in its text)
  if (
    pageHost !== urlHost &&
    !accepted(pageHost) &&
    !(r.via && hostOf(r.via.page) === pageHost) &&
    !stateDirectory(pageHost, r.page, quote, id, ctx)
  )
    return { ok: false, reasons: [`page ${r.page} is neither the url nor on an own host`] };
  return { ok: true, home };
}

/** A page recorded twice under two topics of one job (the collector's page that is also its payment page) is one
 *  resource with both topics, so the payment page can come first. */
function mergeTopic(rec: Records, home: string, r: PageRecord): void {
  const had = rec.resources.get(resourceId(home, r.url, r.name));
  if (!had || had.source_kind !== "hand-added") return;
  const topics = JSON.parse(had.topics) as string[];
  if (!topics.includes(r.topic)) had.topics = JSON.stringify([...topics, r.topic]);
}

export function readPageFiles(dir: string): { file: string; index: number; record: PageRecord }[] {
  if (!existsSync(dir)) return [];
  const out: { file: string; index: number; record: PageRecord }[] = [];
  for (const f of readdirSync(dir)
    .filter((n) => /\.ya?ml$/.test(n))
    .sort()) {
    const doc = parse(readFileSync(join(dir, f), "utf8")) ?? {};
    (doc.records ?? []).forEach((record: PageRecord, index: number) => out.push({ file: f, index, record }));
  }
  return out;
}

/** Adds the records of data/pages that pass every check; returns counts and the refusals (for the build log). */
export function addPageRecords(
  rec: Records,
  dir: string,
  ctx: CheckCtx,
  log: (s: string) => void,
  summary: Record<string, number | string>,
): { refused: { where: string; reasons: string[] }[] } {
  const all = readPageFiles(dir);
  const refused: { where: string; reasons: string[] }[] = [];
  const kept: { r: PageRecord; home: string; file: string }[] = [];
  for (const { file, index, record } of all) {
    const c = checkPageRecord(record, ctx);
    if (c.ok) kept.push({ r: record, home: c.home, file });
    else refused.push({ where: `${file}#${index} ${record.jurisdiction_id} ${record.topic}`, reasons: c.reasons });
  }
  // offices: one per (government, function), from its records in topic order
  const byJob = new Map<string, { r: PageRecord; home: string; sid: string }[]>();
  let resources = 0;
  for (const { r, home, file } of kept) {
    const sid = rec.addSource(
      sourceRow({
        source_id: `page:${sha256Hex(`${r.page}|${r.read_at}|${r.office}|${r.name}|${r.quote}`).slice(0, 16)}`,
        name: `${r.office}: ${r.name} (the office's own page, read on a stored public copy)`,
        url: r.page,
        publisher: r.office,
        official: 1,
        retrieved_at: `${r.read_at}T00:00:00Z`,
        license_class: "public_record",
        license: "public web page of the government",
        vintage: r.read_at,
        quote: r.quote,
      }),
    );
    const src = rec.sources.get(sid)!;
    const added = rec.addResource(
      resourceRow({
        jurisdiction_id: home,
        name: r.name,
        url: r.url,
        topics: [r.topic],
        sort_key: PAGE_SORT_KEY,
        source_kind: "hand-added",
        source_id: sid,
        documented: src.documented,
        publisher: r.office,
        official: true,
        provider: r.provider ?? null,
        search_url_template: r.search_url_template ?? null,
        description: `${r.office}. Read on ${r.read_at}: "${r.quote}"`, // the file is in the source record, not for people
      }),
    );
    if (added) resources++;
    else mergeTopic(rec, home, r);
    const k = `${home}|${r.function}`;
    const l = byJob.get(k);
    if (l) l.push({ r, home, sid });
    else byJob.set(k, [{ r, home, sid }]);
  }
  let offices = 0,
    unnamed = 0;
  for (const [k, list0] of [...byJob].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    // a page that names only its government ("Hennepin County") names no office: its links stay, the answer's
    // office name comes from the state rule's title
    const j = ctx.jurisdictions.get(list0[0]!.home);
    const list = list0.filter((x) => !j || !governmentOnly(x.r.office, j.name, j.legal_type));
    if (!list.length) {
      unnamed++;
      continue;
    }
    const [home, fn] = k.split("|") as [string, Fn];
    const topics = FUNCTION_TOPICS[fn] as string[];
    // the office's own page: its office topic first (tax_collector before property_tax_payment)
    const order = fn === "tax_collection" ? ["tax_collector", "property_tax_payment"] : topics;
    const first = [...list].sort((a, b) => order.indexOf(a.r.topic) - order.indexOf(b.r.topic))[0]!;
    const contact = (f: "phone" | "email" | "address") => list.find((x) => x.r[f])?.r[f] ?? null;
    // the office replaces an office of the same job from the .gov registry or OpenAddresses (read from a domain
    // name or an attribution, not from the office's own page); authored offices (data/resources) stay first
    const same = [...rec.offices.values()].filter((o) => o.jurisdiction_id === home && o.function === fn);
    if (same.some((o) => o.source_kind === "hand-added")) continue;
    for (const o of same) rec.offices.delete(o.office_id);
    if (
      rec.addOffice({
        office_id: officeId(home, `page|${fn}`),
        jurisdiction_id: home,
        name: first.r.office,
        kind: fn,
        function: fn,
        phone: contact("phone"),
        email: contact("email"),
        address: contact("address"),
        url: first.r.url,
        verified_status: "not_yet_verified",
        verified_at: null,
        source_kind: "hand-added",
        source_id: first.sid,
        documented: rec.sources.get(first.sid)!.documented,
      })
    )
      offices++;
  }
  Object.assign(summary, {
    pages_records: all.length,
    pages_kept: kept.length,
    pages_refused: refused.length,
    pages_resources: resources,
    pages_offices: offices,
    pages_jobs_without_office_name: unnamed,
  });
  log(
    `  office pages (data/pages): ${all.length} records read, ${kept.length} kept (${resources} resources, ${offices} offices; ${unnamed} jobs whose pages name no office), ${refused.length} refused`,
  );
  for (const x of refused) log(`    refused ${x.where}: ${x.reasons.join("; ")}`);
  return { refused };
}
