// Own hosts named by the .gov registry beyond its matched home pages (dotgov.ts matches a government's home page
// strictly and leaves out "County - Election" / "City - Election" rows and organisation names with a department,
// as "County of Los Angeles / Internal Services Department" for lacounty.gov). For the host rule of hand-read office
// pages a row also counts, in its own state, when
//   - a County row's organisation names exactly one county ("X County", "County of X", "X Parish", "City and County
//     of X"), or its domain label is that county's name followed by "county"/"co" (and optionally the state code),
//     or is the county's name alone (County rows only): kingcounty.gov, clarkcountynv.gov, miamidade.gov;
//   - a City row's domain label is exactly one incorporated place's name, optionally with "cityof" before or the
//     state code after it (oxnard.gov); "City and County of X" names county X (honolulu.gov).
// Ambiguous names (two counties or places of one state) give nothing.
import { parseCsv } from "./csv";
import { keyOf, nameTokens } from "./dotgov";
import { baseName } from "./legal";
import type { OwnHosts } from "./own-hosts";
import type { JurisdictionIn } from "./records-common";

const key = (s: string) => keyOf(nameTokens(s));
const words = (s: string) => ` ${nameTokens(s).join(" ")} `;

export function addNamedRegistryHosts(
  own: OwnHosts,
  csvText: string,
  jurisdictions: Iterable<JurisdictionIn>,
): { counties: number; places: number } {
  const counties = new Map<string, JurisdictionIn[]>(); // state -> counties
  const places = new Map<string, Map<string, JurisdictionIn[]>>(); // state -> key -> places
  for (const j of jurisdictions) {
    if (!j.state) continue;
    if (j.type === "county") (counties.get(j.state) ?? counties.set(j.state, []).get(j.state)!).push(j);
    if (j.type === "place" && j.legal_type !== "CDP") {
      const m = places.get(j.state) ?? places.set(j.state, new Map()).get(j.state)!;
      const k = key(baseName(j.name));
      (m.get(k) ?? m.set(k, []).get(k)!).push(j);
    }
  }
  const n = { counties: 0, places: 0 };
  for (const r of parseCsv(csvText)) {
    const domain = String(r["Domain name"] ?? "")
      .trim()
      .toLowerCase();
    const type = String(r["Domain type"] ?? "");
    const org = words(String(r["Organization name"] ?? ""));
    const st = String(r["State"] ?? "")
      .trim()
      .toUpperCase();
    const label = key(domain.replace(/\.gov$/, ""));
    if (!domain.endsWith(".gov") || !st) continue;
    const cityAndCounty = /^ city and county of (.+?) /.exec(org);
    if (type.startsWith("County") || cityAndCounty) {
      const hits = (counties.get(st) ?? []).filter((c) => {
        const b = words(baseName(c.name)).trim();
        const k = key(b);
        const lw = (c.legal_type ?? "county").toLowerCase();
        return (
          org.includes(` ${b} ${lw} `) ||
          org.includes(` ${lw} of ${b} `) ||
          org.startsWith(` city and county of ${b} `) ||
          new RegExp(`^${k}(county|co)(${st.toLowerCase()})?$`).test(label) ||
          (type.startsWith("County") && label === k)
        );
      });
      if (hits.length === 1) {
        own.add(hits[0]!.jurisdiction_id, domain);
        n.counties++;
      }
      continue;
    }
    if (type.startsWith("City")) {
      const m = places.get(st);
      if (!m) continue;
      const k = label.replace(/^cityof/, "").replace(new RegExp(`${st.toLowerCase()}$`), "");
      const hits = m.get(label) ?? m.get(k) ?? [];
      if (hits.length === 1) {
        own.add(hits[0]!.jurisdiction_id, domain);
        n.places++;
      }
    }
  }
  return n;
}
