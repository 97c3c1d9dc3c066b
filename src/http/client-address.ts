// The caller's network address: from the socket, or from X-Forwarded-For when the socket peer is a trusted proxy.
// For limits an IPv6 address counts by its /64.
import type { HeaderReader } from "./incoming";

function expandV6(a: string): number[] | null {
  let s = a.toLowerCase();
  const zone = s.indexOf("%");
  if (zone >= 0) s = s.slice(0, zone);
  let tail: number[] = [];
  const v4 = s.match(/(\d+\.\d+\.\d+\.\d+)$/);
  if (v4) {
    const p = parseV4(v4[1]!);
    if (!p) return null;
    tail = [(p[0]! << 8) | p[1]!, (p[2]! << 8) | p[3]!];
    s = s.slice(0, -v4[1]!.length) + (tail.length ? "0:0" : "");
  }
  const halves = s.split("::");
  if (halves.length > 2) return null;
  const part = (x: string) =>
    x === "" ? [] : x.split(":").map((h) => (/^[0-9a-f]{1,4}$/.test(h) ? parseInt(h, 16) : NaN));
  const head = part(halves[0]!);
  const rest = halves.length === 2 ? part(halves[1]!) : [];
  const fill = 8 - head.length - rest.length;
  if (fill < 0 || (halves.length === 1 && fill !== 0)) return null;
  const out = [...head, ...Array(fill).fill(0), ...rest];
  if (v4) out.splice(6, 2, ...tail);
  return out.some((n) => Number.isNaN(n)) ? null : out;
}

function parseV4(a: string): number[] | null {
  const p = a.split(".").map(Number);
  return p.length === 4 && p.every((n) => Number.isInteger(n) && n >= 0 && n <= 255) ? p : null;
}

/** Bytes of an address (4 for IPv4 incl. IPv4-mapped IPv6, 16 for IPv6), or null. */
function addressBytes(a: string): number[] | null {
  const v4 = parseV4(a);
  if (v4) return v4;
  const v6 = expandV6(a);
  if (!v6) return null;
  if (v6.slice(0, 5).every((n) => n === 0) && v6[5] === 0xffff)
    return [v6[6]! >> 8, v6[6]! & 255, v6[7]! >> 8, v6[7]! & 255];
  return v6.flatMap((n) => [n >> 8, n & 255]);
}

const keys = new Map<string, string>();

/** Key under which an address is limited: IPv4 as is, IPv6 by its /64 (remembered for the last 10,000 addresses). */
export function limitKey(address: string): string {
  let k = keys.get(address);
  if (k === undefined) {
    if (keys.size >= 10_000) keys.clear();
    keys.set(address, (k = limitKeyOf(address)));
  }
  return k;
}

function limitKeyOf(address: string): string {
  const b = addressBytes(address);
  if (!b) return address;
  if (b.length === 4) return b.join(".");
  const hex = b
    .slice(0, 8)
    .map((x) => x.toString(16).padStart(2, "0"))
    .join("");
  return `${hex.match(/.{4}/g)!.join(":")}::/64`;
}

function inCidr(address: string, cidr: string): boolean {
  const [net, bitsRaw] = cidr.split("/");
  const a = addressBytes(address);
  const n = addressBytes(net!);
  if (!a || !n || a.length !== n.length) return false;
  const bits = bitsRaw === undefined ? a.length * 8 : Number(bitsRaw);
  for (let i = 0; i < a.length && bits - i * 8 > 0; i++) {
    const take = Math.min(8, bits - i * 8);
    const mask = (0xff << (8 - take)) & 0xff;
    if ((a[i]! & mask) !== (n[i]! & mask)) return false;
  }
  return true;
}

export const inAny = (address: string, cidrs: readonly string[]) => cidrs.some((c) => inCidr(address, c));

/** Walk X-Forwarded-For from the right while hops are trusted proxies; the first untrusted hop is the client. */
export function clientAddress(socketAddress: string, headers: HeaderReader, trustedProxies: string[]): string {
  if (!trustedProxies.length || !inAny(socketAddress, trustedProxies)) return socketAddress;
  const xff = headers.get("x-forwarded-for");
  if (!xff) return socketAddress;
  const hops = xff
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i]!;
    if (!addressBytes(hop)) return socketAddress;
    if (!inAny(hop, trustedProxies)) return hop;
  }
  return hops[0] ?? socketAddress;
}
