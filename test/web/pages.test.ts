// The human pages: status codes, headers (ETag/304, Cache-Control, X-Request-Id), error pages in HTML while
// /v1 keeps problem+json, limits, find and screening through the in-process API, escaping of hostile names.
import type { Limiter } from "../../src/http/limits";
import { beforeAll, describe, expect, test } from "bun:test";
import { call } from "../helpers/app";
import { fullWebApp, hostileWebApp, HOSTILE, yamlWebApp } from "../helpers/web-app";
import { useScreeningStandIn } from "../helpers/screening-stand-in";
import { boundaryPath } from "../../src/web/boundary-svg";
import type { App } from "../../src/http/app";
import { LIMIT_CLASSES } from "../../src/config/limits-table";
import { limitKey } from "../../src/http/client-address";

const ETAG = /^W\/"[0-9a-f]{32}"$/;
let app: App;
let withScreening: App;
let noScreening: App;

beforeAll(async () => {
  app = (await fullWebApp()).app;
  const w = await fullWebApp();
  useScreeningStandIn(w.deps);
  withScreening = w.app;
  const n = await fullWebApp({}, [], true, ["/screening"]);
  n.deps.screening = undefined; // a server without screening
  noScreening = n.app;
}, 300_000);

const html = (r: { headers: Headers }) => r.headers.get("content-type");

describe("every page type answers", () => {
  const pages: [string, string, RegExp][] = [
    ["/", "public, max-age=900", /Find who covers a place/],
    ["/places/county:27053", "public, max-age=900", /<h1>Hennepin County<\/h1>/],
    ["/places/place:2743000", "public, max-age=900", /Minneapolis City Assessor/],
    ["/places/state:50", "public, max-age=900", /<h1>Vermont<\/h1>/],
    ["/offices/" + "PLACEHOLDER", "", /./],
    ["/topics", "public, max-age=86400", /<h1>Topics<\/h1>/],
    ["/topics/assessor", "public, max-age=86400", /Property assessment/],
    ["/guides/assessor", "public, max-age=86400", /<form/],
    ["/guides/assessor?state=VT", "public, max-age=86400", /Who does what in Vermont/],
    ["/search?q=hennepin", "public, max-age=900", /Hennepin County/],
    ["/search", "public, max-age=900", /<form/],
    ["/find", "public, max-age=900", /By address/],
    ["/find?lat=44.9778&lon=-93.265", "public, max-age=900", /Who does each job/],
    ["/find?place=Minneapolis&state=MN", "public, max-age=900", /Minneapolis/],
    ["/screening", "public, max-age=900", /Screening, not a determination/],
    ["/problems", "public, max-age=900", /bad-point/],
    ["/sources/authored-topics", "public, max-age=900", /data\/topics\.yaml/],
    ["/problems/bad-point", "public, max-age=900", /lat and lon are missing/],
  ];
  test("200 HTML with the API's header rules", async () => {
    // an office id and a resource id taken from an API answer
    const place = (await call(app, "/v1/places/place:2743000")).json.data;
    const officeUrl = new URL(place.offices[0].page_url).pathname;
    const resourceUrl = new URL(place.functions.assessment.resources[0]?.page_url ?? place.resources[0].page_url)
      .pathname;
    const list = pages.map((p) =>
      p[0].includes("PLACEHOLDER") ? ([officeUrl, "public, max-age=900", /Office of/] as typeof p) : p,
    );
    list.push([resourceUrl, "public, max-age=900", /Link status/]);
    for (const [path, cache, body] of list) {
      const r = await call(app, path, { headers: { "X-Request-Id": "page-test-0001" } });
      expect([path, r.status]).toEqual([path, 200]);
      expect(html(r)).toBe("text/html; charset=utf-8");
      expect(r.headers.get("etag")).toMatch(ETAG);
      expect([path, r.headers.get("cache-control")]).toEqual([path, cache]);
      expect(r.headers.get("x-request-id")).toBe("page-test-0001");
      expect(r.headers.get("content-security-policy")).toContain("default-src 'none'");
      expect(r.text).toMatch(body);
      expect(r.text.startsWith("<!doctype html>")).toBe(true);
      expect(r.text).not.toContain("page-test-0001"); // a 200 page holds no request id: the ETag can match
    }
  });

  test("the stylesheet is served by the app and linked by digest", async () => {
    const home = await call(app, "/");
    const href = home.text.match(/<link rel="stylesheet" href="([^"]+)"/)![1]!;
    expect(href).toMatch(/^\/style\.css\?v=[0-9a-f]+$/);
    const css = await call(app, href);
    expect(css.status).toBe(200);
    expect(css.headers.get("content-type")).toBe("text/css; charset=utf-8");
    expect(css.text).toContain("@media print");
    expect(css.text).not.toMatch(/url\(|@import|https?:/); // no outside assets
  });
});

describe("conditional requests and HEAD", () => {
  test("a repeat request gets the same ETag; If-None-Match answers 304 with no body", async () => {
    for (const path of ["/places/county:27053", "/topics", "/guides/zoning?state=MN"]) {
      const a = await call(app, path);
      const b = await call(app, path);
      expect(b.headers.get("etag")).toBe(a.headers.get("etag")!);
      const c = await call(app, path, { headers: { "If-None-Match": a.headers.get("etag")! } });
      expect(c.status).toBe(304);
      expect(c.text).toBe("");
      expect(c.headers.get("etag")).toBe(a.headers.get("etag")!);
      expect(c.headers.get("cache-control")).toBe(a.headers.get("cache-control")!);
    }
  });
  test("HEAD: the GET status and headers with Content-Length, no body", async () => {
    const g = await call(app, "/places/county:27053");
    const h = await call(app, "/places/county:27053", { method: "HEAD" });
    expect(h.status).toBe(200);
    expect(h.text).toBe("");
    expect(Number(h.headers.get("content-length"))).toBe(new TextEncoder().encode(g.text).byteLength);
    expect(h.headers.get("etag")).toBe(g.headers.get("etag")!);
  });
});

describe("errors are HTML pages outside /v1, problem+json on /v1", () => {
  const cases: [string, number][] = [
    ["/places/county:99999", 404],
    ["/places/not-an-id", 404],
    ["/offices/no-such-office", 404],
    ["/resources/no-such-resource", 404],
    ["/sources/no-such-source", 404],
    ["/topics/no_such_topic", 404],
    ["/guides/no_such_topic", 404],
    ["/nothing/here", 404],
    ["/problems/no-such-type", 404],
    ["/places/%E0%A4%A", 404],
    ["/places/county:27053?page=999", 404],
    ["/guides/assessor?state=ZZ", 400],
    ["/search?q=a", 400],
    ["/search?q=mill&state=Q1", 400],
    ["/places/county:27053?page=0", 400],
    ["/find?lat=95&lon=0", 400],
    ["/find?lat=10", 400],
    ["/find?place=Nowhereville%20Zzyzx&state=MN", 404],
    ["/find?lat=0&lon=0", 404],
    ["/screening?lat=abc&lon=1", 400], // the screening route refuses the point: the form again, 400
  ];
  test("each unknown id or bad input: its status, an HTML page, no-store, the request id shown", async () => {
    for (const [path, status] of cases) {
      const r = await call(app, path, { headers: { "X-Request-Id": "page-error-0001" } });
      expect([path, r.status]).toEqual([path, status]);
      expect(html(r)).toBe("text/html; charset=utf-8");
      expect(r.headers.get("cache-control")).toBe("no-store");
      expect(r.headers.get("etag")).toBeNull();
      expect(r.headers.get("x-request-id")).toBe("page-error-0001");
    }
    const e = await call(app, "/places/county:99999", { headers: { "X-Request-Id": "page-error-0001" } });
    expect(e.text).toContain("Page not found");
    expect(e.text).toContain("page-error-0001");
  });
  test("a place name with several matches lists them (409) with links to their pages", async () => {
    const r = await call(app, "/find?place=Washington");
    expect(r.status).toBe(409);
    expect(r.text).toContain("Pick one");
    expect(r.text).toMatch(/href="\/places\/(county|cousub|place):\d+"/);
  });
  test("/v1 paths keep problem+json", async () => {
    const r = await call(app, "/v1/no-such-endpoint");
    expect(r.status).toBe(404);
    expect(r.headers.get("content-type")).toBe("application/problem+json");
    expect(r.json.type).toBe("http://api.test/problems/not-found");
    expect((await call(app, "/v1")).headers.get("content-type")).toBe("application/problem+json");
  });
  test("POST → 405 page with Allow; OPTIONS → 204", async () => {
    const r = await call(app, "/", { method: "POST" });
    expect(r.status).toBe(405);
    expect(r.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    expect(html(r)).toBe("text/html; charset=utf-8");
    expect((await call(app, "/topics", { method: "OPTIONS" })).status).toBe(204);
  });
});

describe("screening page", () => {
  test("the real screening route, air-gapped: the page shows every fact as screening, unknowns with their reason", async () => {
    const off = { enabled: false };
    const airGapped = (
      await fullWebApp({ screening: { flood: off, wetlands: off, soils: off, elevation: off } } as any)
    ).app;
    const r = await call(airGapped, "/screening?lat=44.9778&lon=-93.265");
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toContain("text/html");
    expect(r.text).toMatch(/Not available on this server/);
    expect(r.text).toMatch(/switched off on this server/);
    expect(r.text).not.toMatch(/try again/i); // a switched-off service is not a failure
    expect(r.text).toMatch(/[Rr]adon/);
    expect(r.text).toMatch(/[Ss]creening/);
    expect(r.text).not.toMatch(/\bis an? (official )?determination/i);
  });
  test("without the screening route: a clear not-available page", async () => {
    const r = await call(noScreening, "/screening?lat=44.9778&lon=-93.265");
    expect(r.status).toBe(404);
    expect(r.text).toContain("Screening is not available on this server");
    expect(r.headers.get("cache-control")).toBe("no-store");
  });
  test("with a screening route: every fact as screening, with caveat and who decides, escaped", async () => {
    const r = await call(withScreening, "/screening?lat=44.9778&lon=-93.265");
    expect(r.status).toBe(200);
    expect(r.headers.get("cache-control")).toBe("public, max-age=3600");
    expect(r.text).toContain("Screening, not a determination.");
    for (const h of ["Flood zone", "Wetlands", "Soils", "Elevation", "Radon zone"])
      expect(r.text).toContain(`>${h}</h2>`);
    expect(r.text).not.toContain(">Shoreland (Minnesota)</h2>"); // optional fact absent → no section
    expect((r.text.match(/<strong>Caveat:<\/strong>/g) ?? []).length).toBe(5);
    expect((r.text.match(/<strong>Who decides:<\/strong>/g) ?? []).length).toBe(5);
    expect(r.text).toContain("Elevation could not be checked"); // an unknown fact says why in its own summary
    expect(r.text).toContain("&lt;b&gt;stand-in&lt;/b&gt;");
    expect(r.text).not.toMatch(/determin(ed|ation) (is|that)/i);
    // a one-line summary per fact first, each linking to its details
    const summary = r.text.indexOf('id="summary-h"');
    expect(summary).toBeGreaterThan(0);
    expect(summary).toBeLessThan(r.text.indexOf('id="fact-flood"'));
    for (const k of ["flood", "wetlands", "soils", "elevation", "radon"]) expect(r.text).toContain(`href="#fact-${k}"`);
    expect(r.text).toContain(
      "Flood zone</a><span>: Area of minimal flood hazard (zone X) &lt;b&gt;stand-in&lt;/b&gt;</span>",
    );
  });
  test("a bad point through the route: 400 page with the form", async () => {
    const r = await call(withScreening, "/screening?lat=91&lon=0");
    expect(r.status).toBe(400);
    expect(r.text).toContain("<form");
  });
});

describe("place pages: answer first, browse like a person, words for people", () => {
  const text = (html: string) =>
    html
      .replace(/<svg[\s\S]*?<\/svg>/g, "")
      .replace(/<[^>]+>/g, " ")
      .replace(/&[a-z#0-9]+;/g, " ")
      .replace(/\s+/g, " ");
  test("who does each job comes first; the drawing and the identifiers after it", async () => {
    for (const id of ["county:27053", "place:2743000", "state:27"]) {
      const r = await call(withScreening, `/places/${id}`);
      expect(r.status).toBe(200);
      const jobs = r.text.indexOf('id="jobs"');
      expect(jobs).toBeGreaterThan(0);
      expect(r.text.indexOf('id="about"')).toBeGreaterThan(jobs);
      if (r.text.includes("<figure")) expect(r.text.indexOf("<figure")).toBeGreaterThan(jobs);
      expect(r.text.indexOf("ocd-division")).toBeGreaterThan(jobs);
    }
  });
  test("a state page lists its counties and a county page its cities and towns, by name, paged", async () => {
    const mn = await call(withScreening, "/places/state:27");
    expect(mn.text).toContain("Counties of Minnesota");
    expect(mn.text).toContain("87 counties and county equivalents, by name.");
    expect(mn.text).toContain('href="/places/county:27053">Hennepin County</a>');
    const names = [...mn.text.matchAll(/<ul class="browse">([\s\S]*?)<\/ul>/g)][0]![1]!.match(/>[^<]+<\/a>/g)!;
    expect(names.length).toBe(87);
    expect([...names].sort((a, b) => a.localeCompare(b, "en"))).toEqual(names);
    const hennepin = await call(withScreening, "/places/county:27053");
    expect(hennepin.text).toContain("Cities, villages and towns in Hennepin County");
    expect(hennepin.text).toContain('href="/places/place:2743000">Minneapolis city</a>');
    // Texas: 254 counties in pages of 100
    const tx = [1, 2, 3].map((n) => call(withScreening, `/places/state:48${n > 1 ? `?list=${n}` : ""}`));
    const pages = await Promise.all(tx);
    const counts = pages.map(
      (p) => [...p.text.matchAll(/<ul class="browse">([\s\S]*?)<\/ul>/g)][0]![1]!.match(/<li>/g)!.length,
    );
    expect(counts).toEqual([100, 100, 54]);
    expect(pages[1]!.text).toContain("Names 101–200 of 254");
    expect(pages[0]!.text).toContain('href="/places/state:48?list=2#list"');
    expect((await call(withScreening, "/places/state:48?list=4")).status).toBe(404);
    expect((await call(withScreening, "/places/state:48?list=x")).status).toBe(400);
  });
  test("no API words, no raw labels, no point words on a place's page, no source listed twice", async () => {
    for (const id of ["county:27053", "place:2743000", "state:27", "county:17031", "state:48"]) {
      const r = await call(withScreening, `/places/${id}`);
      const t = text(r.text);
      expect(t).not.toMatch(
        /this point|for this point|jurisdiction_id|resolve again|county level true|No office named/,
      );
      expect(t).not.toMatch(/\(simplified|\(coarse|\(county\)|\(state\)/);
      expect(t).not.toMatch(/\.yaml\): "/); // a description's quote says when it was read, not in which file
      expect(r.text).not.toMatch(/\([^()<>]*\([^()<>]*\)[^()<>]*\)/); // no parentheses in parentheses
      const sources = r.text.slice(r.text.indexOf('id="sources-h"'));
      const items = [...sources.matchAll(/<li><a href="[^"]*"[^>]*>([^<]*)<\/a>/g)].map((m) => m[1]);
      expect(new Set(items).size).toBe(items.length);
    }
    const county = text((await call(withScreening, "/places/county:27053")).text);
    expect(county).toContain("outside any city in Hennepin County");
    const state = text((await call(withScreening, "/places/state:27")).text);
    expect(state).toContain("Each one for its own area (see below)");
    expect(state).toContain("each county does this job for its own area");
  });
});

describe("coordinates as people paste them", () => {
  test("both numbers pasted into Latitude, a phone's minus sign, degrees and hemispheres: the same answer", async () => {
    const plain = await call(withScreening, "/find?lat=44.9778&lon=-93.265");
    expect(plain.status).toBe(200);
    expect(plain.text).toContain("Minneapolis");
    for (const q of [
      "lat=44.9778%2C%20-93.265&lon=", // "44.9778, -93.265" in Latitude, Longitude empty
      "lat=&lon=44.9778%2C-93.265", // the other field
      "lat=44.9778&lon=%E2%88%9293.265", // U+2212 MINUS SIGN
      "lat=44.9778%C2%B0%20N%2C%2093.265%C2%B0%20W", // "44.9778° N, 93.265° W"
      "lat=44.9778%20-93.265",
    ]) {
      const r = await call(withScreening, `/find?${q}`);
      expect(r.status).toBe(200);
      expect(r.text).toContain("Point 44.9778, -93.265");
    }
    // the chain shows Minneapolis once (its county subdivision is the same government)
    const nav = /<nav aria-label="Governments covering this place"[\s\S]*?<\/nav>/.exec(plain.text)![0];
    expect((nav.match(/>Minneapolis city<\/a>/g) ?? []).length).toBe(1);
    const s = await call(withScreening, "/screening?lat=44.9778%2C%20-93.265");
    expect(s.status).toBe(200);
    expect(s.text).toContain("Screening at 44.9778, -93.265");
  });
  test("what cannot be read is a 400 page in words for people, the form kept", async () => {
    for (const q of ["lat=abc", "lat=44.9778", "lat=91&lon=0", "lat=44.9%20N&lon=93.2%20N", "lat=-44%20S&lon=1"]) {
      const r = await call(withScreening, `/find?${q}`);
      expect(r.status).toBe(400);
      expect(r.text).toContain("Please check what you typed");
      expect(r.text).toContain('name="lat"');
      expect(r.text).not.toMatch(/lat and lon|WGS84|selector/);
    }
  });
  test("the point fields are plain text (a number pad has no minus) and only Latitude is required", async () => {
    for (const path of ["/find", "/screening"]) {
      const r = await call(withScreening, path);
      expect(r.text).not.toContain('inputmode="decimal"');
      expect(r.text).toMatch(/name="lat"[^>]*required/);
      expect(r.text).not.toMatch(/name="lon"[^>]*required/);
      expect(r.text).toContain("47.6062, -122.3321");
    }
  });
});

describe("limits: pages have their own class, sized for people", () => {
  test("60 pages in a minute from one address, place pages among them: no 429, and the API's buckets untouched", async () => {
    const { app: limited, deps } = await fullWebApp({}, [], false);
    const paths = [
      "/places/county:27053",
      "/topics",
      "/places/place:2743000",
      "/places/state:27",
      "/find?place=Hennepin&state=MN",
    ];
    for (let i = 0; i < 60; i++) {
      const r = await call(limited, paths[i % paths.length]!, { address: "198.51.100.9" });
      expect(r.status).toBe(200);
      expect(r.headers.get("ratelimit-policy")).toBe('"minute";q=120;w=60, "day";q=3000;w=86400');
    }
    // the API's anonymous buckets are the API's: a page never draws from them
    const api = await call(limited, "/v1/places/county:27053", { address: "198.51.100.9" });
    expect(api.status).toBe(200);
    expect(api.headers.get("ratelimit")).toContain('"minute";r=4');
    expect((deps.limiter as Limiter).buckets.anon_address.peek(limitKey("198.51.100.9")).remaining[0]).toBe(9);
  });
  test("a bounded loop from one address past the pages limit → 429 page with Retry-After and RateLimit", async () => {
    const { app: limited } = yamlWebApp();
    let first429 = 0;
    for (let i = 1; i <= 130 && !first429; i++)
      if ((await call(limited, "/topics", { address: "198.51.100.11" })).status === 429) first429 = i;
    expect(first429).toBe(121);
    const r = await call(limited, "/topics", { address: "198.51.100.11" });
    expect(r.status).toBe(429);
    expect(Number(r.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(r.headers.get("ratelimit")).toContain('"minute";r=0');
    expect(r.headers.get("ratelimit-policy")).toBe('"minute";q=120;w=60, "day";q=3000;w=86400');
    expect(html(r)).toBe("text/html; charset=utf-8");
    expect(r.text).toContain("Too many pages in a short time from your address");
    expect((await call(limited, "/style.css", { address: "198.51.100.11" })).status).toBe(200); // the stylesheet is not counted
    const robots = await call(limited, "/robots.txt", { address: "198.51.100.11" });
    expect(robots.status).toBe(200);
    expect(robots.text).toContain("Disallow: /find");
    expect((await call(limited, "/favicon.ico", { address: "198.51.100.11" })).status).toBe(404);
    // another address still reads pages; the API still answers the first one
    expect((await call(limited, "/topics", { address: "198.51.100.12" })).status).toBe(200);
    expect((await call(limited, "/v1/topics", { address: "198.51.100.11" })).status).toBe(200);
  });
  test("all readers together: the pages_all bucket stops a scraper spread over many addresses", async () => {
    const { app: limited } = yamlWebApp({
      limits: { ...LIMIT_CLASSES, pages_all: { per_minute: 20, per_day: 1000 } } as any,
    });
    for (let i = 0; i < 20; i++)
      expect((await call(limited, "/topics", { address: `203.0.113.${i}` })).status).toBe(200);
    expect((await call(limited, "/topics", { address: "203.0.113.200" })).status).toBe(429);
  });
});

describe("escaping", () => {
  test("hostile names in records and in the query are escaped on every page", async () => {
    const { app: h } = await hostileWebApp();
    for (const path of [
      "/places/county:27053",
      "/resources/fixture-hostile-resource",
      "/offices/fixture-hostile-office",
      "/sources/fixture-hostile",
      "/search?q=script",
      `/search?q=${encodeURIComponent(HOSTILE.resource)}`,
      `/find?place=${encodeURIComponent(HOSTILE.office)}`,
    ]) {
      const r = await call(h, path);
      expect([path, r.status < 500]).toEqual([path, true]);
      // markup outside attribute values (kitajs escapes the quote in attributes, so a value cannot end early)
      const markup = r.text.replace(/="[^"]*"/g, '=""');
      expect(markup).not.toContain("<script");
      expect(markup).not.toContain("<img");
    }
    const res = await call(h, "/resources/fixture-hostile-resource");
    expect(res.text).toContain("&lt;script&gt;alert(&quot;resource&quot;)&lt;/script&gt;");
  });
  test("no data file: the vocabulary pages work, directory pages say so", async () => {
    const { app: y } = yamlWebApp();
    expect((await call(y, "/")).status).toBe(200);
    expect((await call(y, "/guides/zoning?state=MN")).status).toBe(200);
    const p = await call(y, "/places/county:27053");
    expect(p.status).toBe(404);
    expect(p.text).toContain("no data file");
  });
});

describe("boundary drawing", () => {
  test("a square becomes one closed path fitted to the drawing, north up", () => {
    const ring = new Float64Array([0, 0, 1, 0, 1, 1, 0, 1, 0, 0]);
    const p = boundaryPath({ polygons: [[ring]], bbox: [0, 0, 1, 1], precision: "full", source: null });
    expect(p.d).toBe("M8.0 412.0L412.0 412.0L412.0 8.0L8.0 8.0Z");
    expect([p.width, p.height]).toEqual([420, 420]);
  });
  test("a shape across the antimeridian is drawn in one piece", () => {
    const east = new Float64Array([179, 50, 180, 50, 180, 51, 179, 51, 179, 50]);
    const west = new Float64Array([-180, 50, -179, 50, -179, 51, -180, 51, -180, 50]);
    const p = boundaryPath({ polygons: [[east], [west]], bbox: [-180, 50, 180, 51], precision: "1:10m", source: null });
    expect(p.width).toBeLessThan(600);
    expect(p.d.split("M").length - 1).toBe(2);
  });
  test("a place page draws its boundary inline, with a title, and no outside reference", async () => {
    const r = await call(app, "/places/place:2743000");
    const svg = r.text.match(/<svg[^>]*>[\s\S]*?<\/svg>/)![0];
    expect(svg).toContain('role="img"');
    expect(svg).toMatch(/<title id="boundary-title">Outline of Minneapolis city<\/title>/);
    expect(svg).toMatch(/<path d="M[\d. L]+Z/);
    expect(svg).not.toMatch(/href|https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
  });
});
