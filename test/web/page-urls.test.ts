// Every page_url (and guide_url, and every source url on this host) handed out by a sweep of API answers opens
// its page: 200 HTML whose heading carries the name the answer gave.
import { beforeAll, describe, expect, test } from "bun:test";
import { escapeHtml } from "@kitajs/html";
import { BASE, call } from "../helpers/app";
import { fullWebApp } from "../helpers/web-app";
import { STATES } from "../../src/domain/states";
import { TOPICS } from "../../src/domain/vocabulary";
import type { App } from "../../src/http/app";

const SITE = BASE.replace(/\/v1$/, "");
let app: App;
beforeAll(async () => {
  app = (await fullWebApp()).app;
}, 300_000);

/** url → a name the page must show (null: any page). */
function collect(v: unknown, out: Map<string, string | null>, parentName: string | null = null) {
  if (Array.isArray(v)) {
    for (const x of v) collect(x, out, parentName);
    return;
  }
  if (!v || typeof v !== "object") return;
  const o = v as Record<string, unknown>;
  const name = typeof o.name === "string" ? o.name : typeof o.title === "string" ? o.title : null;
  for (const k of ["page_url", "guide_url", "url"]) {
    const u = o[k];
    if (typeof u !== "string" || !u.startsWith(SITE + "/")) continue;
    if (u.startsWith(BASE + "/") || u === BASE) continue; // API links (Link headers are not in bodies)
    // a Source's url names the data, not the page title; a guide_url is the topic's guide, not named after the topic
    // (StateRules carry the rules' own name for the state, e.g. "U.S. Virgin Islands", not the Census name)
    const expect = k === "page_url" && name && !("tax_collection" in o) ? name : null;
    if (!out.has(u) || (out.get(u) === null && expect)) out.set(u, expect);
  }
  for (const [k, x] of Object.entries(o)) if (x && typeof x === "object") collect(x, out, k === "data" ? null : name);
}

function rand(seed: number) {
  return () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
}

describe("every page_url of a sweep of answers resolves to its page", () => {
  test("resolve, places, resources, search, topics, guides", async () => {
    const urls = new Map<string, string | null>();
    const answers: string[] = ["/v1/topics"];
    for (const t of TOPICS) answers.push(`/v1/guides/${t}`);
    for (const s of STATES)
      answers.push(`/v1/guides/assessor?state=${s.postal}`, `/v1/guides/property_tax_payment?state=${s.postal}`);
    const r = rand(11);
    for (let i = 0; i < 150; i++)
      answers.push(`/v1/jurisdictions/resolve?lat=${(25 + r() * 24).toFixed(5)}&lon=${(-124 + r() * 57).toFixed(5)}`);
    for (const q of ["hennepin", "minneapolis", "burlington", "county gis", "assessor", "washington"])
      answers.push(`/v1/search?q=${encodeURIComponent(q)}&limit=20`);
    answers.push("/v1/jurisdictions/resolve?place=Minneapolis&state=MN", "/v1/jurisdictions/resolve?place=Washington");
    const places = new Set<string>([
      "state:27",
      "state:50",
      "county:27053",
      "place:2743000",
      "place:2706616",
      "country:us",
    ]);
    let ok = 0;
    for (const a of answers) {
      const res = await call(app, a);
      if (res.status !== 200 && res.status !== 409) {
        expect([a, res.status]).toEqual([a, 404]);
        continue;
      } // outside coverage (sea, Canada, Mexico)
      ok++;
      collect(res.json, urls);
      for (const j of res.json?.data?.jurisdictions ?? []) places.add(j.jurisdiction_id);
    }
    expect(ok).toBeGreaterThan(200);
    for (const id of places) {
      for (const a of [`/v1/places/${id}`, `/v1/resources?jurisdiction_id=${id}&topic=parcel_map`]) {
        const res = await call(app, a);
        expect([a, res.status]).toEqual([a, 200]);
        collect(res.json, urls);
      }
    }
    const kinds = new Set([...urls.keys()].map((u) => new URL(u).pathname.split("/")[1]));
    // (no answer hands out a /sources/ url today: the authored files' sources are the topic and guide pages)
    for (const k of ["places", "offices", "resources", "topics", "guides"])
      expect([k, kinds.has(k)]).toEqual([k, true]);
    expect(urls.size).toBeGreaterThan(600);
    let named = 0;
    for (const [u, name] of urls) {
      const page = await call(app, u.slice(SITE.length));
      expect([u, page.status]).toEqual([u, 200]);
      expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
      if (name) {
        const h1 = page.text.match(/<h1>([^<]*)<\/h1>/)?.[1];
        expect([u, h1]).toEqual([u, escapeHtml(name)]);
        named++;
      }
    }
    expect(named).toBeGreaterThan(300);
    console.log(
      `followed ${urls.size} page urls (${named} checked by name) from ${answers.length + places.size * 2} answers`,
    );
  }, 240_000);
});
