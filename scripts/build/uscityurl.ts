// City home pages from UScityURL (uscityurl/UScityURL.csv, CC BY 4.0, collected September 2022): one official
// website per incorporated place, checked by hand by its authors. Used only where neither the CISA .gov registry
// nor the GSA list gave the place a home page (both are preferred: the registry is newer). Every place's listed
// host also counts as the place's own host for the hand-added page records (own-hosts.ts). The authors are credited
// in the source record (its publisher), which travels with every answer that uses it.
import { parseCsv } from "./csv";
import { readDeclared, type DeclaredCtx } from "./declared";
import { governmentName } from "./dotgov";
import type { OwnHosts } from "./own-hosts";
import { type JurisdictionIn, Records, isHttpUrl, resourceRow } from "./records-common";
import { HOME_SORT_KEY, HOME_TOPICS } from "./gsa";

export const USCITYURL_ID = "uscityurl-2022";

export interface CityUrlRow {
  placeId: string;
  name: string;
  url: string | null;
}

export function readCityUrls(text: string): CityUrlRow[] {
  return parseCsv(text).map((r) => {
    const geoid = String(r["GEOID"] ?? "").trim();
    const url = String(r["WEBSITE_URL"] ?? "").trim();
    return {
      placeId: `place:${geoid.slice(-7)}`,
      name: String(r["MUNICIPALITY"] ?? "").trim(),
      url: String(r["WEBSITE_AVAILABLE"] ?? "").trim() === "1" && isHttpUrl(url) ? url : null,
    };
  });
}

/** Adds a home page for each place with none yet (`hasHome`), and every listed host to `own`. */
export async function addCityUrls(
  rec: Records,
  ctx: DeclaredCtx & { jurisdictions: Map<string, JurisdictionIn> },
  hasHome: (id: string) => boolean,
  own: OwnHosts,
  summary: Record<string, number | string>,
): Promise<void> {
  const input = await readDeclared(ctx, USCITYURL_ID);
  if (!input) {
    ctx.log(`  uscityurl: ${USCITYURL_ID} not present; no UScityURL home pages`);
    summary.uscityurl = "not available";
    return;
  }
  const sid = rec.addSource(input.source);
  const c = { rows: 0, with_url: 0, place_not_held: 0, already_home: 0, added: 0 };
  for (const row of readCityUrls(input.text)) {
    c.rows++;
    if (!row.url) continue;
    c.with_url++;
    const j = ctx.jurisdictions.get(row.placeId);
    if (!j) {
      c.place_not_held++;
      continue;
    }
    // a home page at a host's root names the city's own host; one under a path is a page on another's server
    // (villages of Erie County, NY, listed at www2.erie.gov/<village>/): the host stays its owner's
    if (new URL(row.url).pathname.replace(/\/(index\.[a-z]+)?$/i, "") === "") own.add(j.jurisdiction_id, row.url);
    if (hasHome(j.jurisdiction_id)) {
      c.already_home++;
      continue;
    }
    const gov = governmentName(j);
    rec.addResource(
      resourceRow({
        jurisdiction_id: j.jurisdiction_id,
        name: `${gov} official website`,
        url: row.url,
        topics: HOME_TOPICS,
        sort_key: HOME_SORT_KEY,
        source_kind: "uscityurl",
        source_id: sid,
        documented: input.source.documented,
        publisher: gov,
        official: true,
        description:
          "Home page of the city from UScityURL (Cai, Huang & Decaminada, CC BY 4.0), collected September 2022 and " +
          "checked by hand; older than the .gov registry, so the site may have moved.",
      }),
    );
    c.added++;
  }
  for (const [k, v] of Object.entries(c)) summary[`uscityurl_${k}`] = v;
  ctx.log(
    `  uscityurl: rows ${c.rows}, with a website ${c.with_url}, place not held ${c.place_not_held}, ` +
      `already with a .gov/GSA home page ${c.already_home}, home pages added ${c.added}`,
  );
}
