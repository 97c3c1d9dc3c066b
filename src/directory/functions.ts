// Who performs each job (assessment, tax_collection, recording, zoning, permits, gis) for a chain: the state
// rule's level picks the body in the chain, a local override in the data (e.g. a Minnesota city with its own
// assessor) wins over it, and a function with no body in the chain gets jurisdiction_id null and a basis.
//
// Level → body: rule-levels.ts (state, county, town, city). Where that level has no body in the chain, the rule's
// `else_level` says who does the job instead (a New York city where no town boundary is held; the county outside city limits for
// zoning); without one the answer names no body and says why: it never pretends the rule holds. permits follow
// the zoning rule (the body that zones usually issues building permits); gis is the county (county GIS offices
// keep parcel maps in most states). Overrides: the smallest body in the chain (or a same_as twin of one) with an
// override for the function wins.
//
// office_name is a documented office's name, else the state rule's `title` after the body's name ("Cook County
// Assessor", "Town of Burlington Assessor"), else null: never a made-up or hedged name.
import type { PageLinks } from "../domain/page-links";
import { COPY_PROVIDERS, FUNCTION_TOPICS, FUNCTIONS, type Fn } from "../domain/vocabulary";
import type { Content, RuleText } from "./content";
import type { JurisdictionRow, OfficeRow, ResourceRow, Store } from "./store";
import { SourceTrail, TYPE_ORDER, isTownGovernment } from "./jurisdictions";
import { LEVEL_WORD, atLevel, pick } from "./rule-levels";
import { resourceOut } from "./resources";
import { governmentName } from "./names";
import { officeLinkStatus } from "../links/overlay";
import { surveyBody, surveySays } from "./permit-survey";

type RuleKey = "assessment" | "tax_collection" | "recording" | "zoning" | "gis";
const RULE_FOR: Record<Fn, RuleKey | null> = {
  assessment: "assessment",
  tax_collection: "tax_collection",
  recording: "recording",
  zoning: "zoning",
  permits: "zoning",
  gis: "gis", // only some states have one (no county government); elsewhere the county keeps the maps
};
const JOB: Record<Fn, string> = {
  assessment: "assesses property",
  tax_collection: "collects property tax",
  recording: "records deeds and land records",
  zoning: "administers zoning",
  permits: "issues building permits",
  gis: "keeps the local GIS and parcel maps",
};

export interface Ctx {
  store: Store;
  content: Content;
  links: PageLinks;
  trail: SourceTrail;
  /** The place the answer is about (resolve by id or name, /places): the words then speak of that place's area,
   * never of "this point". Absent: an answer at a point. */
  about?: JurisdictionRow;
}

export function officeOut(o: OfficeRow, links: PageLinks) {
  return {
    office_id: o.office_id,
    name: o.name,
    kind: o.kind,
    jurisdiction_id: o.jurisdiction_id,
    phone: o.phone,
    email: o.email,
    address: o.address,
    url: o.url,
    person: null,
    ...officeLinkStatus(links, o), // verified_status, verified_at (the link checker's current result)
    page_url: links.office(o.office_id),
  };
}

/** Resources of a body under the function's topics, in the function's topic order (property_tax_payment first). */
function functionResources(ctx: Ctx, jurisdictionId: string, fn: Fn) {
  const topics = FUNCTION_TOPICS[fn] as string[];
  const got = ctx.store.resourcesOf(jurisdictionId);
  ctx.trail.leftOut += got.leftOut;
  const rank = (r: ResourceRow) =>
    Math.min(
      ...r.topics.map((t) => {
        const i = topics.indexOf(t);
        return i < 0 ? 99 : i;
      }),
    );
  // copies kept by a mirror or code-hosting site are never a function's link; the property-tax payment page first
  // (spec), then official pages before GIS layers and file downloads, then the function's topic order
  const payFirst = (r: ResourceRow) => (r.topics.includes("property_tax_payment") ? 0 : 1);
  const list = got.items
    .filter((r) => rank(r) < 99 && !(r.official === 0 && r.provider && COPY_PROVIDERS.includes(r.provider)))
    .sort(
      (a, b) =>
        payFirst(a) - payFirst(b) ||
        b.official - a.official ||
        rank(a) - rank(b) ||
        a.sort_key - b.sort_key ||
        (a.resource_id < b.resource_id ? -1 : 1),
    );
  ctx.trail.addAll(list);
  return list.map((r) => resourceOut(r, ctx.links));
}

function officeFor(ctx: Ctx, jurisdictionId: string, fn: Fn, officeId?: string | null) {
  const got = ctx.store.officesOf(jurisdictionId);
  ctx.trail.leftOut += got.leftOut;
  const o =
    (officeId ? got.items.find((x) => x.office_id === officeId) : null) ??
    got.items.find((x) => x.function === fn) ??
    null;
  if (o) ctx.trail.add(o.source_id);
  return o;
}

function entry(
  ctx: Ctx,
  fn: Fn,
  body: JurisdictionRow | null,
  rule: RuleText | null,
  stateName: string,
  extra: {
    officeId?: string | null;
    basis?: string | null;
    evidence?: string | null;
    role?: string;
    levy?: string | null;
    fallback?: boolean;
    titled?: boolean;
    notATown?: JurisdictionRow | null;
    /** the data file holds no places at all (see pick) */
    unheld?: boolean;
  } = {},
) {
  // "In Vermont the town listers or assessor assesses property (the listers' office at the town office)"
  // "the Municipal board of assessors" reads "the municipal board of assessors"; proper names keep their case
  const officeWords = (o: string) => o.replace(/^(Municipal|Local) /, (w) => w.toLowerCase());
  // where the rule says which office, in a sentence of its own after the basis (never parentheses in parentheses)
  const ruleSays = (r: RuleText) =>
    `In ${stateName} the ${r.office ? officeWords(r.office) : "responsible office"} ${JOB[fn]}`;
  const which = (r: RuleText | null) => (r?.where ? ` Which office: ${r.where}.` : "");
  if (!body) {
    const missing = rule?.level ? (LEVEL_WORD[rule.level] ?? rule.level) : null;
    return {
      function: fn,
      jurisdiction_id: null,
      office_name: null,
      office: null,
      resources: [],
      role: "primary" as const,
      levy_scope: null,
      basis:
        (rule && extra.unheld
          ? `${ruleSays(rule)}, but this data file holds no city, village or borough boundaries (it was built without them), so whether this point lies in one, and who then does this job, is not known here.`
          : rule && rule.level === "town" && extra.notATown
            ? `${ruleSays(rule)}, but ${extra.notATown.name} has no town government, so the rule does not hold here.${rule.note ? ` ${rule.note}` : ""}`
            : rule && ctx.about
              ? `${ruleSays(rule)}, so in ${ctx.about.name} each ${missing ?? "such body"} does this job for its own area: see the page of the ${missing ?? "body"} in question.`
              : rule
                ? `${ruleSays(rule)}, but no ${missing ?? "such body"} for this point is held in this directory` +
                  (rule.level === "town"
                    ? ` (town and township boundaries are held only for some states), so the ${missing} that does this job here is not named.`
                    : ", so it is not named here.")
                : `No rule on who ${JOB[fn]} in ${stateName} is held in this directory.`) + which(rule),
      evidence_url: ruleEvidence(ctx, rule, null, null),
    };
  }
  const office = officeFor(ctx, body.jurisdiction_id, fn, extra.officeId);
  // the rule's title applies to the body it names, not to a fallback body (whose office may be called otherwise)
  const title = extra.titled === false ? null : extra.fallback ? (rule?.else_title ?? null) : (rule?.title ?? null);
  const officeName = office?.name ?? (title ? `${governmentName(body)} ${title}` : null);
  return {
    function: fn,
    jurisdiction_id: body.jurisdiction_id,
    office_name: officeName,
    office: office ? officeOut(office, ctx.links) : null,
    resources: functionResources(ctx, body.jurisdiction_id, fn),
    role: (extra.role ?? "primary") as "primary" | "secondary" | "delinquent",
    levy_scope: (extra.levy ?? (fn === "tax_collection" ? "all" : null)) as
      "county" | "municipal" | "school" | "special" | "all" | null,
    basis:
      extra.basis ??
      (rule
        ? (extra.fallback
            ? ctx.about
              ? `${ruleSays(rule)}; outside any ${LEVEL_WORD[rule.level ?? ""] ?? "such body"} in ${ctx.about.name}, ${rule.else_where ?? `the ${LEVEL_WORD[rule.else_level ?? ""] ?? "body"} does it`}: there that is ${governmentName(body)}. Inside a ${LEVEL_WORD[rule.level ?? ""] ?? "such body"}, see its own page.`
              : `${ruleSays(rule)}; this point lies in no ${LEVEL_WORD[rule.level ?? ""] ?? "such body"} held in this directory, and ${rule.else_where ?? `the ${LEVEL_WORD[rule.else_level ?? ""] ?? "body"} does it there`}: here that is ${governmentName(body)}.`
            : `${ruleSays(rule)}; here that is ${governmentName(body)}.`) +
          (rule.note ? ` ${rule.note}` : "") +
          which(rule)
        : `${governmentName(body)} ${JOB[fn]} here.`),
    evidence_url: extra.evidence ?? ruleEvidence(ctx, rule, body, office),
  };
}

/** A state rule's evidence, unless it is another local government's page (rule.evidence_government, set by the build):
 *  then the body's own office page stands as the evidence, or none. */
function ruleEvidence(ctx: Ctx, rule: RuleText | null, body: JurisdictionRow | null, office: OfficeRow | null) {
  if (!rule?.evidence_url) return null;
  const gov = rule.evidence_government;
  if (!gov) return rule.evidence_url;
  if (body && [body.jurisdiction_id, ...(ctx.store.sameAs.get(body.jurisdiction_id) ?? [])].includes(gov))
    return rule.evidence_url;
  return office?.url ?? null;
}

export function functionsFor(ctx: Ctx, chain: JurisdictionRow[]) {
  const state = chain.find((j) => j.type === "state") ?? null;
  const code = state?.state ?? null;
  const rules = code ? (ctx.content.stateRules.get(code) ?? null) : null;
  if (code) ctx.trail.add(ctx.store.stateRuleSource.get(code));
  const stateName = state?.name ?? "this place";
  // smallest first, with same_as twins, for overrides
  const members = [...chain].sort((a, b) => TYPE_ORDER[b.type]! - TYPE_ORDER[a.type]!);
  const out: Record<string, unknown> = {};
  for (const fn of FUNCTIONS) {
    const ruleKey = RULE_FOR[fn];
    const rule = ruleKey ? (((rules as any)?.[ruleKey] as RuleText | null) ?? null) : null;
    // performer_id NULL is a documented "no body" (e.g. a census area of Alaska's unorganized borough)
    let override = null as null | { row: ReturnType<Store["overridesOf"]>[number]; body: JurisdictionRow | null };
    for (const m of members) {
      for (const id of [m.jurisdiction_id, ...(ctx.store.sameAs.get(m.jurisdiction_id) ?? [])]) {
        const o = ctx.store.overridesOf(id).find((x) => x.function === fn && x.role === "primary");
        if (o && o.performer_id === null) {
          override = { row: o, body: null };
          break;
        }
        const body = o && o.performer_id !== null ? ctx.store.jurisdiction(o.performer_id) : null;
        if (o && body) {
          override = { row: o, body };
          break;
        }
      }
      if (override) break;
    }
    const also = alsoFor(ctx, fn, chain, members, rule, stateName);
    if (override && !override.body) {
      ctx.trail.add(override.row.source_id);
      out[fn] = withAlso(
        {
          function: fn,
          jurisdiction_id: null,
          office_name: null,
          office: null,
          resources: [],
          role: "primary",
          levy_scope: null,
          basis: override.row.basis,
          evidence_url: override.row.evidence_url,
        },
        also,
      );
      continue;
    }
    if (override?.body) {
      ctx.trail.add(override.row.source_id);
      out[fn] = withAlso(
        entry(ctx, fn, override.body!, rule, stateName, {
          officeId: override.row.office_id,
          basis: override.row.basis,
          evidence: override.row.evidence_url,
          role: override.row.role,
          levy: override.row.levy_scope,
          titled: false,
        }),
        also,
      );
      continue;
    }
    if (fn === "gis" && !rule) {
      const body = atLevel(chain, "county");
      out[fn] = entry(ctx, fn, body, null, stateName, {
        basis: body
          ? `County governments keep the parcel maps and public map viewers in most states; here that is ${governmentName(body)}.`
          : null,
      });
      continue;
    }
    const { body, fallback, unheld } = pick(chain, rule, (id) => ctx.store.countyHasTowns(id), ctx.store.holdsPlaces());
    const survey = surveyBody(ctx.store, chain, fn, (rules as any)?.zoning ?? null);
    if (survey) {
      ctx.trail.add(survey.office.source_id);
      const ruleEntry = entry(ctx, fn, body, rule, stateName, { fallback });
      out[fn] = withAlso(
        survey.body.jurisdiction_id === body?.jurisdiction_id
          ? { ...ruleEntry, basis: `${ruleEntry.basis} ${surveySays(survey, fn)}` }
          : entry(ctx, fn, survey.body, rule, stateName, {
              titled: false,
              basis: `${surveySays(survey, fn)} Here that is ${governmentName(survey.body)}. (By the state rule alone: ${ruleEntry.basis})`,
              evidence: ctx.store.source(survey.office.source_id)?.url ?? null,
            }),
        also,
      );
      continue;
    }
    const notATown =
      chain.find(
        (j) => j.type === "cousub" && !isTownGovernment(j) && !(j.funcstat === "F" && atLevel(chain, "town")),
      ) ?? null;
    out[fn] = withAlso(entry(ctx, fn, body, rule, stateName, { fallback, notATown, unheld }), also);
  }
  return out;
}

const withAlso = <T extends object>(e: T, also: object[]) => (also.length ? { ...e, also } : e);

/** Further bodies for the same job: the state rule's `also` (e.g. the county treasurer for delinquent taxes in
 * Wisconsin) and documented non-primary overrides in the chain. Each is a FunctionEntry without its own `also`. */
function alsoFor(
  ctx: Ctx,
  fn: Fn,
  chain: JurisdictionRow[],
  members: JurisdictionRow[],
  rule: RuleText | null,
  stateName: string,
) {
  const out: object[] = [];
  for (const a of rule?.also ?? []) {
    const body = atLevel(chain, a.level);
    if (!body) continue;
    const basis = `In ${stateName} ${a.where ?? `the ${a.office ?? "office"}`} also ${JOB[fn]} (${a.role}); here that is ${governmentName(body)}.`;
    out.push(
      entry(
        ctx,
        fn,
        body,
        {
          ...a,
          note: null,
          evidence_url: rule?.evidence_url ?? null,
          evidence_government: rule?.evidence_government ?? null,
        },
        stateName,
        {
          basis,
          role: a.role,
          levy: a.levy_scope ?? null,
        },
      ),
    );
  }
  for (const m of members) {
    for (const o of ctx.store.overridesOf(m.jurisdiction_id)) {
      if (o.function !== fn || o.role === "primary") continue;
      const body = o.performer_id ? ctx.store.jurisdiction(o.performer_id) : null;
      if (!body) continue;
      ctx.trail.add(o.source_id);
      out.push(
        entry(ctx, fn, body, rule, stateName, {
          officeId: o.office_id,
          basis: o.basis,
          evidence: o.evidence_url,
          role: o.role,
          levy: o.levy_scope,
          titled: false,
        }),
      );
    }
  }
  return out;
}
