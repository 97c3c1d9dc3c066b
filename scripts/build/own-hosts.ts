// Which hosts are a government's own, from staged sources only: every .gov domain the CISA registry matched to the
// government (its home domain, the other domains of the same government and the domains of its offices), the
// GSA list's domains matched to it, and its UScityURL home page (unless that is a county's site: uscityurl.ts). A
// host is a government's own when it is one of those domains or a host under one (assessor.lacounty.gov under
// lacounty.gov). Hand-added page records (scripts/build/pages.ts) may only point at such hosts, or at a host an own
// page names in its quoted text.
export const hostOf = (url: string): string | null => {
  try {
    return new URL(url).hostname.toLowerCase().replace(/\.$/, "");
  } catch {
    return null;
  }
};
/** A domain as listed (www. dropped, path dropped): "www.cityofvista.com/" -> "cityofvista.com". */
export const bareDomain = (d: string) =>
  d
    .trim()
    .toLowerCase()
    .replace(/^https?:\/\//, "")
    .split("/")[0]!
    .replace(/^www\./, "")
    .replace(/\.$/, "");

export class OwnHosts {
  private readonly byDomain = new Map<string, Set<string>>();

  add(jurisdictionId: string, domainOrUrl: string): void {
    const d = bareDomain(domainOrUrl);
    if (!/^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(d)) return; // IP addresses and odd rows are no host names
    const s = this.byDomain.get(d);
    if (s) s.add(jurisdictionId);
    else this.byDomain.set(d, new Set([jurisdictionId]));
  }

  /** Takes a government's claim to a listed domain back (disputed-hosts.ts). */
  remove(jurisdictionId: string, domain: string): void {
    const d = bareDomain(domain);
    const s = this.byDomain.get(d);
    s?.delete(jurisdictionId);
    if (s && !s.size) this.byDomain.delete(d);
  }

  /** A copy holding the same claims (to remember what one source alone gave). */
  copy(): OwnHosts {
    const c = new OwnHosts();
    for (const [d, s] of this.byDomain) c.byDomain.set(d, new Set(s));
    return c;
  }

  /** The governments owning the host: those of the longest listed domain the host equals or is under. */
  owners(host: string): Set<string> {
    const labels = host
      .toLowerCase()
      .replace(/^www\./, "")
      .split(".");
    for (let i = 0; i < labels.length - 1; i++) {
      const hit = this.byDomain.get(labels.slice(i).join("."));
      if (hit) return hit;
    }
    return new Set();
  }

  isOwn(host: string, jurisdictionId: string): boolean {
    return this.owners(host).has(jurisdictionId);
  }

  /** Every listed domain with its governments (for the build's own-hosts listing, OWN_HOSTS_OUT). */
  entries(): [string, string[]][] {
    return [...this.byDomain]
      .map(([d, s]) => [d, [...s].sort()] as [string, string[]])
      .sort((a, b) => (a[0] < b[0] ? -1 : 1));
  }

  get size(): number {
    return this.byDomain.size;
  }
}
