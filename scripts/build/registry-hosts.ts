// Own hosts named by the .gov registry beyond its matched home pages (dotgov.ts matches a government's home page
// strictly and leaves out "County - Election" / "City - Election" rows and organisation names with a department,
// as "County of Los Angeles / Internal Services Department" for lacounty.gov). For the host rule of hand-read office
// pages a row also counts, in its own state, when
//   - a County row's organisation names exactly one county ("X County", "X Co.", "County of X", "X Parish", "City and
//     County of X"), or its domain label is that county's name followed by "county"/"co" (and optionally the state code),
//     or is the county's name alone (County rows only): kingcounty.gov, clarkcountynv.gov, miamidade.gov;
//   - a City row's domain label is exactly one incorporated place's name, optionally with "cityof" before or the
//     state code after it (oxnard.gov); "City and County of X" names county X (honolulu.gov).
// Ambiguous names (two counties or places of one state) give nothing.
import { parseCsv } from "./csv";
import { anotherOfTheName, kindOf } from "./town-place";
import { STRONG_MCD_STATES, keyOf, nameTokens } from "./dotgov";
import { baseName } from "./legal";
import type { OwnHosts } from "./own-hosts";
import type { JurisdictionIn } from "./records-common";

const key = (s: string) => keyOf(nameTokens(s));
const SPECIAL_BODY =
  / (water|sanitation|sanitary|sewer|school|schools|transit|transportation|utility|utilities|fire|flood|irrigation|hospital|housing|airport|port|park|parks|library|cemetery|mosquito|conservation|drainage)( \w+)? (district|districts|authority|commission|board) /;
/** a body of several governments (a regional council of governments) is none of them, whoever keeps its domain */
const MULTI_GOVERNMENT = / (council|councils) of governments | regional council /;
const words = (s: string) => ` ${nameTokens(s).join(" ")} `;

/** The counties of each state (postal code → counties). */
export function countiesByState(all: Iterable<JurisdictionIn>): Map<string, JurisdictionIn[]> {
  const m = new Map<string, JurisdictionIn[]>();
  for (const j of all) if (j.type === "county" && j.state) (m.get(j.state) ?? m.set(j.state, []).get(j.state)!).push(j);
  return m;
}

export function addNamedRegistryHosts(
  own: OwnHosts,
  csvText: string,
  jurisdictions: Iterable<JurisdictionIn>,
): { counties: number; places: number } {
  const all = [...jurisdictions];
  const byId = new Map(all.map((j) => [j.jurisdiction_id, j]));
  const counties = countiesByState(all);
  const places = new Map<string, Map<string, JurisdictionIn[]>>(); // state -> key -> places
  for (const j of all) {
    if (!j.state) continue;
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
    // a special district or authority named after its county (Alameda County Water District) is not the county
    if (SPECIAL_BODY.test(org)) continue;
    const cityAndCounty = /^ city and county of (.+?) /.exec(org);
    if (type.startsWith("County") || cityAndCounty) {
      const hits = (counties.get(st) ?? []).filter((c) => {
        const b = words(baseName(c.name)).trim();
        const k = key(b);
        const lw = (c.legal_type ?? "county").toLowerCase();
        return (
          org.includes(` ${b} ${lw} `) ||
          (type.startsWith("County") && lw === "county" && org.includes(` ${b} co `)) || // "Dutchess Co. Office of …"
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
      // a domain the registry's name matcher filed under a town (hempsteadny.gov, "Town of Hempstead") is no
      // evidence for another government of the name (the Village of Hempstead: town-place.ts)
      const filed = [...own.owners(domain)].map((id) => byId.get(id)).filter((o) => !!o);
      const hits = (m.get(label) ?? m.get(k) ?? []).filter((p) => !filed.some((o) => anotherOfTheName(p, o!)));
      if (hits.length === 1) {
        own.add(hits[0]!.jurisdiction_id, domain);
        n.places++;
      }
    }
  }
  return n;
}

const MAIL_DOMAIN = /@([a-z0-9-]+(?:\.[a-z0-9-]+)+)\s*$/i;

/** The registry's security contact as evidence of ownership, after the home pages, the GSA list and UScityURL gave
 *  their hosts:
 *   - a row no government owns yet gets the government, of the row's state, that owns its contact e-mail's domain
 *     (pslpd.gov, contact at cityofpsl.com: Port St. Lucie's), or that owns the other rows with the same contact
 *     address (sdarcc.gov, "Assessor/Recorder/County Clerk", has sandiegocounty.gov's webmaster address);
 *   - a row owned by exactly one government lends it the contact's domain when no government owns that domain yet
 *     and its first label carries the government's name (gwinnettcounty.gov's contact at gwinnettcounty.com).
 *  Generic mail providers own nothing and carry no government's name, so they give nothing; a special district's or
 *  a council of governments' row is none of its members' (meccrcog-oh.gov, "Regional Council of Governments", whose
 *  contact is at Mifflin Township's domain). */
export function addContactEmailHosts(
  own: OwnHosts,
  csvText: string,
  jurisdictions: Map<string, JurisdictionIn>,
): { rows: number; mail_domains: number; lines: string[] } {
  const n = { rows: 0, mail_domains: 0, lines: [] as string[] };
  const sole = (host: string, st: string) => {
    const o = [...own.owners(host)].filter((id) => jurisdictions.get(id)?.state === st && !id.startsWith("state:"));
    return o.length === 1 ? o[0]! : null;
  };
  const rows = parseCsv(csvText).map((r) => {
    const address = String(r["Security contact email"] ?? "")
      .trim()
      .toLowerCase();
    return {
      domain: String(r["Domain name"] ?? "")
        .trim()
        .toLowerCase(),
      type: String(r["Domain type"] ?? ""),
      org: words(String(r["Organization name"] ?? "")),
      st: String(r["State"] ?? "")
        .trim()
        .toUpperCase(),
      address,
      mail: MAIL_DOMAIN.exec(address)?.[1],
    };
  });
  // the governments owning rows of each contact address (a shared webmaster address is one organisation)
  const byAddress = new Map<string, Set<string>>();
  for (const { domain, address } of rows) {
    if (!address.includes("@")) continue;
    const s = byAddress.get(address) ?? byAddress.set(address, new Set()).get(address)!;
    for (const id of own.owners(domain)) s.add(id);
  }
  for (const { domain, type, org, st, address, mail } of rows) {
    if (!domain.endsWith(".gov") || !st || !mail || !(type.startsWith("County") || type.startsWith("City"))) continue;
    if (SPECIAL_BODY.test(org) || MULTI_GOVERNMENT.test(org)) continue;
    if (mail === domain || mail.endsWith(`.${domain}`)) continue;
    const owners = own.owners(domain);
    if (owners.size === 0) {
      const shared = [...(byAddress.get(address) ?? [])].filter((x) => jurisdictions.get(x)?.state === st);
      const id = sole(mail, st) ?? (shared.length === 1 ? shared[0]! : null);
      if (id) {
        own.add(id, domain);
        n.rows++;
        n.lines.push(`${domain} -> ${id} (contact at ${mail})`);
      }
      continue;
    }
    if (owners.size !== 1 || own.owners(mail).size) continue;
    const j = jurisdictions.get([...owners][0]!);
    const k = j ? key(baseName(j.name)) : "";
    if (j && j.state === st && k.length >= 5 && mail.split(".")[0]!.replace(/-/g, "").includes(k)) {
      own.add(j.jurisdiction_id, mail);
      n.mail_domains++;
      n.lines.push(`${mail} -> ${j.jurisdiction_id} (contact of ${domain})`);
    }
  }
  return n;
}

const NEW_ENGLAND = new Set(["CT", "MA", "ME", "NH", "RI", "VT"]);
const PREFIX: Record<string, string> = { city: "cityof", town: "townof", village: "villageof" };
/** A government's .us locality names (RFC 1480): <label>.<name>.<st>.us, a name of several words also hyphenated
 *  (co.black-hawk.ia.us, co.isle-of-wight.va.us, ci.west-bend.wi.us). */
const usLocalityNames = (label: "co" | "ci", j: JurisdictionIn, st: string): string[] => {
  const words = nameTokens(baseName(j.name));
  return [`${label}.${keyOf(words)}.${st}.us`, ...(words.length > 1 ? [`${label}.${words.join("-")}.${st}.us`] : [])];
};

/** Local governments' hosts under their state's own domains, by the states' naming of delegated names. The state's
 *  domains: <st>.gov, and <statename>.gov where the registry lists it as the state's (colorado.gov, iowa.gov,
 *  virginia.gov). Under each:
 *  - a county: <name>county. and <name>co. (sonomacounty.ca.gov, adacounty.id.gov, alamosacounty.colorado.gov,
 *    madisonco.virginia.gov), and <name>. (clark.wa.gov) when no other county or local government of the state has
 *    that name; co.<name>.<st>.us (the .us locality names; a name of several words also hyphenated:
 *    co.black-hawk.ia.us);
 *  - a city, town or village by its kind and name: cityof<name>., townof<name>., villageof<name>.
 *    (cityofcedarburg.wi.gov) when no other government of the state is of that kind and name, and a city then also
 *    by its .us locality name ci.<name>.<st>.us (ci.omaha.ne.us, ci.west-bend.wi.us); a New England town
 *    also by its bare name (barrington.ri.gov) when no other county or local government of the state has that name.
 *  None where two governments share the name (Baltimore County and Baltimore city). A host of that shape that does not
 *  exist is never linked: own hosts only admit pages read on stored copies (scripts/build/pages.ts). */
export function addDelegatedHosts(
  own: OwnHosts,
  jurisdictions: Iterable<JurisdictionIn>,
  registryText: string | null = null,
): { counties: number; locals: number } {
  const all = [...jurisdictions];
  const stateDomains = new Map<string, string[]>(); // postal -> the state's domains for delegated names
  const listed = new Set(registryText ? stateRows(registryText).map((r) => r.domain) : []);
  for (const j of all)
    if (j.type === "state" && j.state) {
      const full = `${key(j.name)}.gov`;
      stateDomains.set(j.state, [`${j.state.toLowerCase()}.gov`, ...(listed.has(full) ? [full] : [])]);
    }
  // incorporated places, and the towns and townships of the town states that are no place of the same name (a New
  // Jersey city is both: the place stands for it, its county subdivision is the same government)
  const placeKeys = new Set(
    all.filter((j) => j.type === "place" && j.legal_type !== "CDP").map((j) => `${j.state}|${key(baseName(j.name))}`),
  );
  const town = (j: JurisdictionIn) =>
    j.type === "cousub" &&
    !!j.state &&
    STRONG_MCD_STATES.has(j.state) &&
    /\b(town|township|city|village|borough)$/.test(j.name);
  const local = (j: JurisdictionIn) =>
    (j.type === "place" && j.legal_type !== "CDP") ||
    (town(j) && !placeKeys.has(`${j.state}|${key(baseName(j.name))}`));
  const names = new Map<string, number>(); // state|key -> governments of that name
  for (const j of all)
    if (j.state && (j.type === "county" || local(j))) {
      const k = `${j.state}|${key(baseName(j.name))}`;
      names.set(k, (names.get(k) ?? 0) + 1);
    }
  const countyKeys = new Map<string, number>(); // state|key -> counties (Baltimore County and Baltimore city)
  for (const c of all)
    if (c.type === "county" && c.state) {
      const k = `${c.state}|${key(baseName(c.name))}`;
      countyKeys.set(k, (countyKeys.get(k) ?? 0) + 1);
    }
  // state|key|kind -> places and county subdivisions of that name and kind (a place and a subdivision of one name
  // and kind are one government: a Wisconsin city is both)
  const kinds = new Map<string, { places: number; cousubs: number }>();
  for (const j of all)
    if (j.state && (j.type === "place" || j.type === "cousub") && j.legal_type !== "CDP") {
      const k = `${j.state}|${key(baseName(j.name))}|${kindOf(j)}`;
      const c = kinds.get(k) ?? kinds.set(k, { places: 0, cousubs: 0 }).get(k)!;
      if (j.type === "place") c.places++;
      else c.cousubs++;
    }
  const n = { counties: 0, locals: 0 };
  for (const j of all) {
    if (!j.state || !(j.type === "county" || local(j) || town(j))) continue;
    const st = j.state.toLowerCase();
    const k = key(baseName(j.name));
    if (!k) continue;
    const sole = names.get(`${j.state}|${k}`) === 1;
    const domains = stateDomains.get(j.state) ?? [`${st}.gov`];
    if (j.type === "county") {
      if (countyKeys.get(`${j.state}|${k}`) !== 1) continue;
      for (const h of usLocalityNames("co", j, st)) own.add(j.jurisdiction_id, h);
      for (const d of domains) {
        own.add(j.jurisdiction_id, `${k}county.${d}`);
        own.add(j.jurisdiction_id, `${k}co.${d}`);
        if (sole) own.add(j.jurisdiction_id, `${k}.${d}`);
      }
      n.counties++;
      continue;
    }
    // the prefix says the government's kind (cityofcedarburg.wi.gov is the City, never the Town of Cedarburg); the
    // bare name only for a New England town (barrington.ri.gov): elsewhere a state's agencies use bare words under
    // its domain (commerce., energy., justice.) that are also the names of cities
    const prefix = PREFIX[kindOf(j)];
    const typed = kinds.get(`${j.state}|${k}|${kindOf(j)}`);
    const hosts: string[] = [];
    if (prefix && typed && typed.places <= 1 && typed.cousubs <= 1 && (j.type === "place" || typed.places === 0)) {
      hosts.push(...domains.map((d) => `${prefix}${k}.${d}`));
      if (kindOf(j) === "city") hosts.push(...usLocalityNames("ci", j, st));
    }
    if (sole && local(j) && NEW_ENGLAND.has(j.state) && j.type === "cousub")
      hosts.push(...domains.map((d) => `${k}.${d}`));
    for (const h of hosts) own.add(j.jurisdiction_id, h);
    if (!hosts.length) continue;
    n.locals++;
  }
  return n;
}

/** A state's own hosts: the registry's "State or territory" rows (state agencies, e.g. dat.maryland.gov under
 *  maryland.gov, mtrevenue.gov), owned by the state's jurisdiction. Added only for the page-record checks, after the
 *  GIS links were checked against local hosts: a page record may name a state body's page (Maryland's Department of
 *  Assessments and Taxation assesses every Maryland property) only on its state's host. Returns how many were added. */
export function addStateHosts(own: OwnHosts, csvText: string, jurisdictions: Map<string, JurisdictionIn>): number {
  const stateOf = new Map<string, string>();
  for (const j of jurisdictions.values()) if (j.type === "state" && j.state) stateOf.set(j.state, j.jurisdiction_id);
  let n = 0;
  for (const { domain, state } of stateRows(csvText)) {
    const id = stateOf.get(state);
    if (!id || !domain.endsWith(".gov")) continue;
    own.add(id, domain);
    n++;
  }
  return n;
}

/** The registry's "State or territory" rows: domain (lower case) and state (postal code). */
function stateRows(csvText: string): { domain: string; state: string }[] {
  return parseCsv(csvText)
    .filter((r) => String(r["Domain type"] ?? "").trim() === "State or territory")
    .map((r) => ({
      domain: String(r["Domain name"] ?? "")
        .trim()
        .toLowerCase(),
      state: String(r["State"] ?? "")
        .trim()
        .toUpperCase(),
    }));
}
