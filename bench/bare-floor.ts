// A second baseline of bench/front-door.ts (--floor): a bare Bun.serve doing only the work no resolve server can
// skip for random points. It holds bodies recorded from the app for many different points (so, like the app, it
// reads a different cached chain for most requests) and per request reads lat and lon from the URL, picks a body
// by the point, puts the point and a fresh request id in it, makes an ETag (the body's digest, made once, and two
// 32-bit hashes of the point) and sends it with the app's headers.
// No point lookup, limits or validation: the gap between the app and this is the app's own work.
import { readFileSync } from "node:fs";
const { bodies, headers } = JSON.parse(readFileSync(process.argv[2]!, "utf8")) as {
  bodies: string[];
  headers: Record<string, string>;
};
// each body split around its point and its request id: [before point, point .. request id, after request id]
const parts = bodies.map((b) => {
  const p = b.indexOf('"point":') + 8,
    pe = b.indexOf("}", p) + 1;
  const r = b.indexOf('"request_id":"') + 14,
    re = b.indexOf('"', r);
  const s = [b.slice(0, p), b.slice(pe, r), b.slice(re)];
  for (const x of s) x.charCodeAt(0);
  return s;
});
// the ETag: a digest of the cached parts, made once, and two 32-bit hashes of the point, per request
const partDigest = parts.map((s) => Bun.hash.wyhash(s.join("\u0000")).toString(16).padStart(16, "0"));
const hex8 = (x: number) => (x >>> 0).toString(16).padStart(8, "0");
const prefix = crypto.randomUUID().replaceAll("-", "").slice(0, 16);
let n = 0;
Bun.serve({
  hostname: "127.0.0.1",
  port: Number(process.argv[3] ?? 0),
  development: false,
  fetch(req) {
    const u = req.url,
      q = u.indexOf("?");
    const lat = u.slice(u.indexOf("lat=", q) + 4, u.indexOf("&", q)),
      lon = u.slice(u.indexOf("lon=", q) + 4);
    const point = `{"type":"Point","coordinates":[${Number(lon)},${Number(lat)}]}`;
    const h = Bun.hash.xxHash32(point),
      i = h % parts.length;
    const [a, b, c] = parts[i]!;
    const rid = `${prefix}${(++n).toString(36).padStart(6, "0")}`;
    return new Response(a + point + b + rid + c, {
      headers: {
        ...headers,
        "X-Request-Id": rid,
        ETag: `W/"${partDigest[i]}${hex8(h)}${hex8(Bun.hash.murmur32v3(point))}"`,
      },
    });
  },
});
