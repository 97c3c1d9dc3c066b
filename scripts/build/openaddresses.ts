// OpenAddresses source definitions (openaddresses/us_sources.jsonl.gz, CC0): the publishers' GIS endpoints and
// portal pages per county (5-digit GEOID) and incorporated place (7-digit GEOID). Each definition gives resources
// under county_gis and parcel_map: the portal page (`website`, county_gis), each parcels layer (parcel_map) and
// each addresses layer (county_gis); `skip: true` layers are left out. Publisher, provider and `official` follow
// scripts/build/oa-rules.ts. Every record's source is the definition file at the pinned commit (CC0), with the
// publisher's own data licence in the source row. A county whose attribution names an office gets a `gis` Office.
import { governmentName, GovIndex, matchRow } from "./dotgov";
import { readDeclared, type DeclaredCtx } from "./declared";
import {
  type JurisdictionIn,
  type ResourceRow,
  type SourceRow,
  Records,
  isHttpUrl,
  officeId,
  resourceRow,
  sourceRow,
} from "./records-common";
import {
  attributionOf,
  bareKey,
  gisOfficeName,
  hostOf,
  isCopyHost,
  licenceOf,
  providerOf,
  publisherOf,
} from "./oa-rules";
import { isStateOrDc } from "./gsa";

export const OA_INPUT = "openaddresses-us-sources";
const OA_COMMIT = "2793c54eb59ba9bdff98fb882349ebb1b21675d3";
const OA_BLOB = `https://github.com/openaddresses/openaddresses/blob/${OA_COMMIT}/`;
/** Rank within the jurisdiction: after the .gov/GSA home page (30). */
export const SORT = { website: 40, parcels: 41, addresses: 42, copy: 43 } as const;
const KINDS = [
  ["parcels", "parcel_map", "parcels"],
  ["addresses", "county_gis", "address points"],
] as const;

interface Pending {
  url: string;
  name: string;
  alts: string[];
  topics: Set<string>;
  publisher: string | null;
  provider: string | null;
  official: boolean;
  sort_key: number;
  source_id: string;
  description: string;
}

const protoLabel = (layer: any) =>
  String(layer?.protocol ?? "").toUpperCase() === "ESRI" ? "ArcGIS REST layer" : "file download";

/** The jurisdiction a definition is for, or why none. A 5-digit GEOID (or `fips`) is a county, a 7-digit one an
 *  incorporated place; a city's own source filed under its county's GEOID goes to the place of that name; a GEOID
 *  whose Census name is another county's is repaired by the name when the name is unique in the state; a
 *  definition without a GEOID is matched by its single county or city name. Statewide and multi-county
 *  definitions are not matched. */
function target(
  def: any,
  js: Map<string, JurisdictionIn>,
  idx: () => GovIndex,
): { j: JurisdictionIn; how: string } | { reason: string } {
  const cov = def?.coverage ?? {},
    us = cov["US Census"] ?? {};
  const st = typeof cov.state === "string" && /^[a-z]{2}$/i.test(cov.state) ? cov.state.toUpperCase() : "";
  const geoid = String(us.geoid ?? (typeof cov.fips === "string" ? cov.fips : ""));
  const city = typeof cov.city === "string" ? cov.city : typeof cov.town === "string" ? cov.town : null;
  const county =
    typeof cov.county === "string" && !/,| and (?!borough|county)| & /i.test(cov.county) ? cov.county : null;
  const byName = (name: string, type: "County" | "City", how: string, fail: string) => {
    const m = matchRow(idx(), {
      domain: "",
      type,
      org: name,
      city: "",
      state: st || (js.get(`state:${geoid.slice(0, 2)}`)?.state ?? ""),
    });
    return m.ok && (type === "City" ? m.j.type !== "county" : m.j.type === "county")
      ? { j: m.j, how }
      : { reason: `${fail}_${m.ok ? "wrong_type" : m.reason}` };
  };
  const named = (j: JurisdictionIn) => typeof us.name !== "string" || bareKey(us.name) === bareKey(j.name);
  if (/^\d{5}$/.test(geoid)) {
    const j = js.get(`county:${geoid}`);
    if (j && city && bareKey(city) !== bareKey(j.name))
      return byName(city, "City", "city_name_under_county_geoid", "city_under_county_geoid");
    if (j && named(j)) return { j, how: "geoid" };
    if (typeof us.name === "string")
      return byName(
        us.name,
        "County",
        "county_name_geoid_repaired",
        j ? "census_name_differs_from_geoid" : "county_geoid_not_listed",
      );
    return { reason: "county_geoid_not_listed" };
  }
  if (/^\d{7}$/.test(geoid)) {
    const j = js.get(`place:${geoid}`);
    if (j && named(j)) return { j, how: "geoid" };
    if (city)
      return byName(
        city,
        "City",
        "place_name_geoid_repaired",
        j ? "census_name_differs_from_geoid" : "place_geoid_not_listed",
      );
    return { reason: j ? "census_name_differs_from_geoid" : "place_geoid_not_listed" };
  }
  if (geoid.length === 2 || (!city && !county)) return { reason: "statewide_or_regional" };
  if (city) return byName(city, "City", "city_name_without_geoid", "city_without_geoid");
  return byName(county!, "County", "county_name_without_geoid", "county_without_geoid");
}

/** The hosts each county's own definition (matched as the build matches it) publishes its layers and portal pages
 *  on, skipped layers and copies kept by others left out: county id -> hosts. Evidence, for uscityurl.ts, of whose a
 *  host is where a place and a county share a name. */
export function countyDefinitionHosts(text: string, js: Map<string, JurisdictionIn>): Map<string, Set<string>> {
  let gi: GovIndex | null = null;
  const idx = () => (gi ??= new GovIndex(js.values()));
  const out = new Map<string, Set<string>>();
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    const def = (JSON.parse(line) as { source: any }).source;
    const t = target(def, js, idx);
    if ("reason" in t || t.j.type !== "county") continue;
    for (const kind of ["parcels", "addresses"])
      for (const layer of (def?.layers?.[kind] ?? []) as any[]) {
        if (layer?.skip === true) continue;
        for (const u of [layer?.data, layer?.website]) {
          const h = typeof u === "string" && isHttpUrl(u.trim()) ? hostOf(u.trim()) : null;
          if (h && !isCopyHost(h))
            (out.get(t.j.jurisdiction_id) ?? out.set(t.j.jurisdiction_id, new Set()).get(t.j.jurisdiction_id)!).add(
              h.replace(/^www\./, ""),
            );
        }
      }
  }
  return out;
}

export async function addOpenAddresses(
  rec: Records,
  ctx: DeclaredCtx & { jurisdictions: Map<string, JurisdictionIn> },
  homeUrls: (id: string) => string[],
  summary: Record<string, number | string>,
): Promise<void> {
  const input = await readDeclared(ctx, OA_INPUT);
  if (!input) {
    ctx.log(`  openaddresses: ${OA_INPUT} not present; no GIS endpoints`);
    summary.openaddresses = "not available";
    return;
  }
  const defs = input.text
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as { path: string; source: any })
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const c: Record<string, number> = { definitions: defs.length, matched_county: 0, matched_place: 0 };
  const inc = (k: string, n = 1) => {
    c[k] = (c[k] ?? 0) + n;
  };
  let gi: GovIndex | null = null;
  const idx = () => (gi ??= new GovIndex(ctx.jurisdictions.values()));
  const perJ = new Map<string, Map<string, Pending>>();
  const offices: string[] = [],
    unmatched: string[] = [];

  for (const { path, source: def } of defs) {
    const t = target(def, ctx.jurisdictions, idx);
    if ("reason" in t) {
      inc(`unmatched_${t.reason}`);
      if (unmatched.length < 15) unmatched.push(`${path} [${t.reason}]`);
      continue;
    }
    const j = t.j;
    inc(j.type === "county" ? "matched_county" : "matched_place");
    if (t.how !== "geoid") inc(`matched_by_${t.how}`);
    const gov = governmentName(j);
    const homes = homeUrls(j.jurisdiction_id).map(hostOf);
    const sid = `oa-${path
      .replace(/^sources\/us\//, "")
      .replace(/\.json$/, "")
      .replace(/[^A-Za-z0-9]+/g, "-")
      .toLowerCase()}`;
    const licences = new Set<string>();
    let kept = 0;
    let pend = perJ.get(j.jurisdiction_id);
    if (!pend) perJ.set(j.jurisdiction_id, (pend = new Map()));
    const add = (p: Omit<Pending, "topics"> & { topic: string }) => {
      const had = pend!.get(p.url);
      if (had) {
        had.topics.add(p.topic);
        inc("duplicate_url");
        return;
      }
      const { topic, ...rest } = p;
      pend!.set(p.url, { ...rest, topics: new Set([topic]) });
      kept++;
    };
    /** The portal page of a layer: its own host decides, else it is the publisher's whose endpoint it documents. */
    const portal = (
      layer: any,
      attr: string | null,
      label: string,
      layerWho: { publisher: string | null; official: boolean } | null,
    ) => {
      const site = typeof layer?.website === "string" ? layer.website.trim() : "";
      if (!isHttpUrl(site)) return null;
      const sh = hostOf(site);
      let who = publisherOf(attr, sh, j, homes);
      if (!who.official && !attr && layerWho?.official) who = layerWho;
      add({
        url: site,
        topic: "county_gis",
        name: `${gov} GIS portal`,
        alts: [`${gov} GIS portal (${label})`, `${gov} GIS portal (${sh})`],
        ...who,
        provider: providerOf(sh),
        sort_key: SORT.website,
        source_id: sid,
        description: `Portal page of ${who.publisher ?? attr ?? gov} for its GIS data, as listed by OpenAddresses.`,
      });
      inc("websites_read");
      return site;
    };
    for (const [kind, topic, label] of KINDS) {
      for (const layer of (def?.layers?.[kind] ?? []) as any[]) {
        inc(`${kind}_read`);
        if (layer?.skip === true) {
          inc(`${kind}_skipped_skip_true`);
          continue;
        }
        const attr = attributionOf(layer);
        const url = typeof layer?.data === "string" ? layer.data.trim() : "";
        const ftp = /^ftp:\/\/[^\s/]+\/\S*$/i.test(url);
        const host = hostOf(url);
        const copy = isCopyHost(host);
        const usable = isHttpUrl(url) || ftp;
        const who = copy ? { publisher: attr, official: false } : publisherOf(attr, host, j, homes);
        const site = portal(layer, attr, label, usable && !copy ? who : null);
        const office = gisOfficeName(attr, j);
        if (office && !rec.offices.has(officeId(j.jurisdiction_id, "gis")) && isStateOrDc(j.state_fips)) {
          rec.addOffice({
            office_id: officeId(j.jurisdiction_id, "gis"),
            jurisdiction_id: j.jurisdiction_id,
            name: office,
            kind: "gis",
            function: "gis",
            phone: null,
            email: null,
            address: null,
            url: site,
            verified_status: "not_yet_verified",
            verified_at: null,
            source_kind: "openaddresses-attribution",
            source_id: sid,
            documented: 0,
          });
          offices.push(`${j.jurisdiction_id} ${office}`);
        }
        if (!usable) {
          inc(`${kind}_left_out_not_a_url`);
          continue;
        }
        const lic = licenceOf(layer);
        if (lic) licences.add(`${kind} layer "${layer.name ?? "?"}": ${lic}`);
        const how = copy ? `copy kept by ${providerOf(host)}` : ftp ? "FTP file download" : protoLabel(layer);
        add({
          url,
          topic,
          name: `${gov} ${label} (${how})`,
          alts: [`${gov} ${label} (${how}, ${host})`],
          ...who,
          provider: providerOf(host),
          sort_key: copy ? SORT.copy : SORT[kind],
          source_id: sid,
          description: `${copy ? `Copy (kept by ${providerOf(host)}) of the ${label} data of ${attr ?? gov}` : `${label.charAt(0).toUpperCase()}${label.slice(1)} data endpoint of ${attr ?? gov}`}, as listed by OpenAddresses${layer.year ? ` (data year ${layer.year})` : ""}. A GIS layer, not the official record: the county's record decides.`,
        });
        inc(copy ? `${kind}_kept_copy` : `${kind}_kept`);
      }
    }
    for (const kind of ["buildings", "centerlines"]) {
      for (const layer of (def?.layers?.[kind] ?? []) as any[])
        if (layer?.skip !== true) portal(layer, attributionOf(layer), kind, null);
    }
    if (!kept && !offices.some((o) => o.startsWith(j.jurisdiction_id + " "))) continue;
    const src: SourceRow = sourceRow({
      source_id: sid,
      name: `OpenAddresses source definition ${path} (commit ${OA_COMMIT.slice(0, 7)})`,
      url: OA_BLOB + path,
      publisher: "OpenAddresses",
      official: 0,
      retrieved_at: input.source.retrieved_at,
      license_class: "open",
      license: `CC0 1.0 (the definition). Data licence stated for the publisher's data: ${licences.size ? [...licences].join("; ") : "none stated in the definition"}`,
      vintage: input.source.vintage,
      sha256: input.sha256,
    });
    rec.addSource(src);
  }
  // rows, with readable names unique within the jurisdiction (host added when two layers would share a name)
  const rows: ResourceRow[] = [];
  for (const [jid, pend] of [...perJ].sort((a, b) => a[0].localeCompare(b[0]))) {
    const seen = new Map<string, number>();
    for (const p of pend.values()) seen.set(p.name, (seen.get(p.name) ?? 0) + 1);
    const used = new Set<string>();
    for (const p of pend.values()) {
      const tries = (seen.get(p.name) ?? 0) > 1 ? p.alts : [p.name];
      let name = tries.find((n) => !used.has(n)) ?? tries.at(-1)!;
      for (let n = 2; used.has(name); n++) name = `${tries.at(-1)} #${n}`;
      used.add(name);
      const documented = rec.sources.get(p.source_id)?.documented ?? 0;
      rows.push(
        resourceRow({
          jurisdiction_id: jid,
          name,
          url: p.url,
          topics: [...p.topics].sort(),
          sort_key: p.sort_key,
          source_kind: "openaddresses-definition",
          source_id: p.source_id,
          documented,
          publisher: p.publisher,
          provider: p.provider,
          official: p.official,
          description: p.description,
        }),
      );
    }
  }
  for (const r of rows) if (rec.addResource(r)) inc("resources");
  for (const o of rec.offices.values())
    if (o.source_kind === "openaddresses-attribution") o.documented = rec.sources.get(o.source_id!)?.documented ?? 0;
  report(ctx, c, rows, offices, unmatched, summary);
}

function report(
  ctx: DeclaredCtx & { jurisdictions: Map<string, JurisdictionIn> },
  c: Record<string, number>,
  rows: ResourceRow[],
  offices: string[],
  unmatched: string[],
  summary: Record<string, number | string>,
) {
  const counties = new Set(
    [...ctx.jurisdictions.values()]
      .filter((j) => j.type === "county" && isStateOrDc(j.state_fips))
      .map((j) => j.jurisdiction_id),
  );
  const withLink = new Set(rows.filter((r) => counties.has(r.jurisdiction_id)).map((r) => r.jurisdiction_id));
  const withParcel = new Set(
    rows
      .filter((r) => counties.has(r.jurisdiction_id) && r.topics.includes("parcel_map"))
      .map((r) => r.jurisdiction_id),
  );
  const withOwn = new Set(
    rows.filter((r) => counties.has(r.jurisdiction_id) && r.sort_key !== SORT.copy).map((r) => r.jurisdiction_id),
  );
  const withOfficial = new Set(
    rows.filter((r) => counties.has(r.jurisdiction_id) && r.official).map((r) => r.jurisdiction_id),
  );
  const places = new Set(rows.filter((r) => r.jurisdiction_id.startsWith("place:")).map((r) => r.jurisdiction_id));
  Object.assign(c, {
    counties_with_gis_or_parcel_link: withLink.size,
    counties_with_publisher_link: withOwn.size,
    counties_with_parcel_link: withParcel.size,
    counties_with_official_link: withOfficial.size,
    places_with_link: places.size,
    gis_offices_named: offices.length,
    resources_official: rows.filter((r) => r.official).length,
    resources_with_provider: rows.filter((r) => r.provider).length,
  });
  for (const [k, v] of Object.entries(c).sort()) summary[`openaddresses_${k}`] = v;
  summary.openaddresses_gis_offices = offices.join("; ");
  const g = (k: string) => c[k] ?? 0;
  const byName = Object.entries(c)
    .filter(([k]) => k.startsWith("matched_by_"))
    .map(([k, v]) => `${k.slice(11)} ${v}`)
    .join(", ");
  ctx.log(
    `  openaddresses: definitions ${g("definitions")}, matched ${g("matched_county")} to counties and ${g("matched_place")} to places or towns${byName ? ` (not by GEOID: ${byName})` : ""}, unmatched ${g("definitions") - g("matched_county") - g("matched_place")}`,
  );
  for (const kind of ["parcels", "addresses"]) {
    ctx.log(
      `    ${kind} layers: read ${g(`${kind}_read`)}, kept ${g(`${kind}_kept`) + g(`${kind}_kept_copy`)}, skip:true ${g(`${kind}_skipped_skip_true`)}, no http/ftp URL ${g(`${kind}_left_out_not_a_url`)}, of them copies kept by OpenAddresses/GitHub ${g(`${kind}_kept_copy`)}`,
    );
  }
  ctx.log(
    `    portal pages read ${g("websites_read")}; same URL twice in a jurisdiction ${g("duplicate_url")}; resources ${g("resources")} (${g("resources_official")} official, ${g("resources_with_provider")} with a vendor provider)`,
  );
  ctx.log(
    `    counties (50 states + DC) with a GIS or parcel-map link ${withLink.size} (${withOwn.size} from the publisher's own endpoint or portal, ${withLink.size - withOwn.size} only a copy; parcel layer ${withParcel.size}, official ${withOfficial.size}); places with a link ${places.size}; GIS offices named by the attribution ${offices.length}`,
  );
  const reasons = Object.entries(c)
    .filter(([k]) => k.startsWith("unmatched_"))
    .map(([k, v]) => `${k.slice(10)} ${v}`)
    .join(", ");
  if (reasons) ctx.log(`    unmatched definitions: ${reasons}`);
  for (const u of unmatched.slice(0, 8)) ctx.log(`      ${u}`);
  for (const o of offices.slice(0, 8)) ctx.log(`    gis office ${o}`);
}
