// SSRF guard of the link checker (OWASP API7:2023). Every hop's host is resolved HERE, every address it resolves
// to is vetted, and the request then connects to the vetted address only (the caller pins it with `pinnedLookup`,
// so a second DNS answer — DNS rebinding — is never used).
//
// Allowed: global unicast addresses only (ipaddr.js range "unicast"). Refused: loopback, private (RFC 1918),
// unique-local (fc00::/7, which holds AWS's fd00:ec2::254), link-local (169.254/16 with the cloud metadata
// address 169.254.169.254, fe80::/10), CGNAT 100.64/10 (holds Alibaba's 100.100.100.200), multicast, broadcast,
// unspecified, reserved, documentation/benchmarking, 6to4/Teredo/NAT64 (they can embed a private IPv4), the
// IPv4-mapped form of any refused IPv4, every IPv4-compatible form (::a.b.c.d), Azure's 168.63.129.16, and metadata/local host names by name. A host
// with several addresses is refused when ANY of them is refused. Loopback is allowed only with the test-only
// option `allowLoopback` (tests run their doubles on 127.0.0.1).
import { lookup as dnsLookup } from "node:dns/promises";
import ipaddr from "ipaddr.js";

export interface Resolved {
  address: string;
  family: 4 | 6;
}
/** host name → addresses (injectable: tests resolve names they control). */
export type Resolver = (hostname: string) => Promise<Resolved[]>;

export const systemResolver: Resolver = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((a) => ({
    address: a.address,
    family: a.family === 6 ? 6 : 4,
  }));

/** Metadata services that sit on otherwise public or special addresses, refused by address. */
const METADATA_ADDRESSES = new Set([
  "169.254.169.254",
  "169.254.170.2",
  "168.63.129.16",
  "100.100.100.200",
  "fd00:ec2::254",
]);
/** Host names refused before any resolution. */
const METADATA_NAMES = new Set([
  "metadata",
  "metadata.google.internal",
  "metadata.goog",
  "metadata.azure.internal",
  "instance-data",
  "instance-data.ec2.internal",
]);

export class RefusedAddress extends Error {
  override readonly name = "RefusedAddress";
}

/** Why an address may not be contacted, or null when it may. */
export function refusedAddress(address: string, allowLoopback = false): string | null {
  if (!ipaddr.isValid(address)) return `not an IP address: ${address}`;
  let ip = ipaddr.parse(address);
  // the deprecated IPv4-compatible form ::a.b.c.d (::/96, RFC 4291 2.5.5.1) embeds an IPv4 address that some stacks
  // still route to: never contacted (the unspecified :: and loopback ::1 fall under their own ranges below)
  // (ipaddr.js reads the dotted text "::127.0.0.1" as the mapped ::ffff:127.0.0.1; the URL parser writes it
  // ::7f00:1: both are caught)
  const dotted = /^::((?:\d{1,3}\.){3}\d{1,3})$/.exec(address);
  if (dotted) return `${address} is an IPv4-compatible IPv6 address (deprecated; it embeds ${dotted[1]})`;
  if (ip.kind() === "ipv6") {
    const p = (ip as ipaddr.IPv6).parts;
    if (p.slice(0, 6).every((x) => x === 0) && (p[6] !== 0 || p[7]! > 1))
      return `${address} is an IPv4-compatible IPv6 address (deprecated; it embeds ${p[6]! >> 8}.${p[6]! & 255}.${p[7]! >> 8}.${p[7]! & 255})`;
  }
  if (ip.kind() === "ipv6" && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
  const canonical = ip.toString();
  if (METADATA_ADDRESSES.has(canonical) || METADATA_ADDRESSES.has(address.toLowerCase()))
    return `${address} is a cloud metadata address`;
  const range = ip.range();
  if (range === "unicast") return null;
  if (range === "loopback" && allowLoopback) return null;
  return `${address} is a ${range} address`;
}

/** Why a host name is refused by name alone (metadata services, localhost), or null. */
export function refusedName(hostname: string, allowLoopback = false): string | null {
  const h = hostname.toLowerCase().replace(/\.$/, "");
  if (METADATA_NAMES.has(h)) return `${hostname} is a cloud metadata host name`;
  if (!allowLoopback && (h === "localhost" || h.endsWith(".localhost"))) return `${hostname} is a loopback host name`;
  return null;
}

/** Resolve `hostname` (or take an IP literal as is) and vet every address. Throws RefusedAddress when refused;
 * DNS failures surface as the resolver's own error. Returns the address to connect to. */
export async function vetHost(hostname: string, resolver: Resolver, allowLoopback = false): Promise<Resolved> {
  const bare = hostname.replace(/^\[|\]$/g, "");
  if (ipaddr.isValid(bare)) {
    const why = refusedAddress(bare, allowLoopback);
    if (why) throw new RefusedAddress(why);
    return { address: bare, family: ipaddr.parse(bare).kind() === "ipv6" ? 6 : 4 };
  }
  const byName = refusedName(bare, allowLoopback);
  if (byName) throw new RefusedAddress(byName);
  const all = await resolver(bare);
  if (!all.length) throw Object.assign(new Error(`no address for ${bare}`), { code: "ENOTFOUND" });
  for (const a of all) {
    const why = refusedAddress(a.address, allowLoopback);
    if (why) throw new RefusedAddress(`${bare} resolves to ${why.replace(/^\S+ is /, `${a.address}, `)}`);
  }
  return all[0]!;
}

/** A `lookup` for node:http(s) that answers with the vetted address only (no second resolution). */
export function pinnedLookup(r: Resolved) {
  return (_host: string, opts: { all?: boolean } | number | undefined, cb: (...a: unknown[]) => void) => {
    if (typeof opts === "object" && opts?.all) cb(null, [{ address: r.address, family: r.family }]);
    else cb(null, r.address, r.family);
  };
}
