/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// The pages in a real browser: Debian's chromium driven by puppeteer-core, axe-core injected into every page
// type (zero violations), no request leaves the server's own address, the forms work without JavaScript, and
// screenshots (desktop, phone, print) are written to test-artifacts/web/ (ignored by git) to be looked at.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import puppeteer, { type Browser, type Page } from "puppeteer-core";
import { ROOT } from "../helpers/app";
import { fullWebApp } from "../helpers/web-app";
import { useScreeningStandIn } from "../helpers/screening-stand-in";
import { loadLayer } from "../../src/lookups/layers/load";
import type { App } from "../../src/http/app";

const CHROMIUM = "/usr/bin/chromium";
const ARTIFACTS = join(ROOT, "test-artifacts/web");
const AXE = readFileSync(join(ROOT, "node_modules/axe-core/axe.min.js"), "utf8");

let server: ReturnType<typeof Bun.serve>;
let browser: Browser;
let origin = "";
let profile = "";
let layersDir = "";
const outside: string[] = [];
let ids = { office: "", resource: "" };

beforeAll(async () => {
  // the app's base_url is http://api.test/v1 (as in the other tests); chromium maps api.test to this server
  const w = await fullWebApp();
  // the made-up fixture layers near Duluth (test/fixtures/layers), loaded as an operator would, for the drawing
  layersDir = mkdtempSync(join(tmpdir(), "browser-layers-"));
  const layers = join(layersDir, "layers.sqlite");
  const fix = join(ROOT, "test/fixtures/layers");
  loadLayer({ kind: "flood", file: join(fix, "flood_27137C"), layersFile: layers, vintage: "2011-04-19" });
  loadLayer({ kind: "wetlands", file: join(fix, "MN_geodatabase_wetlands"), layersFile: layers, state: "MN" });
  loadLayer({ kind: "shoreland", file: join(fix, "mn_pwi"), layersFile: layers });
  useScreeningStandIn(w.deps, layers);
  const app = w.app;
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: (req, s) => app.handle(req, s.requestIP(req)?.address ?? "127.0.0.1"),
  });
  origin = "http://api.test";
  const place = (await (await fetch(`http://127.0.0.1:${server.port}/v1/places/place:2743000`)).json()) as any;
  ids = {
    office: new URL(place.data.offices[0].page_url).pathname,
    resource: new URL(place.data.functions.assessment.resources[0].page_url).pathname,
  };
  mkdirSync(ARTIFACTS, { recursive: true });
  profile = mkdtempSync(join(tmpdir(), "chromium-profile-"));
  browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      `--user-data-dir=${profile}`,
      `--host-resolver-rules=MAP api.test 127.0.0.1:${server.port}`,
    ],
  });
}, 300_000);

afterAll(async () => {
  await browser?.close();
  server?.stop(true);
  if (profile) rmSync(profile, { recursive: true, force: true });
  if (layersDir) rmSync(layersDir, { recursive: true, force: true });
});

/** In the fixture flood zone AE by its zone X, the fixture wetland and creek within 250 m (made-up shapes). */
const DRAWN = { lat: 46.7775, lon: -92.1005 };

async function tab(opts: { width?: number; js?: boolean } = {}): Promise<Page> {
  const page = await browser.newPage();
  await page.setViewport({ width: opts.width ?? 1280, height: opts.width && opts.width < 500 ? 844 : 900 });
  await page.setBypassCSP(true); // only so axe can be injected; the pages themselves run no script
  await page.setJavaScriptEnabled(opts.js ?? true);
  await page.setRequestInterception(true);
  page.on("request", (r) => {
    if (r.url().startsWith(origin + "/") || r.url().startsWith("data:")) return void r.continue();
    outside.push(r.url());
    void r.abort();
  });
  return page;
}

async function open(
  path: string,
  opts: { width?: number; js?: boolean } = {},
  reuse?: Page,
): Promise<{ page: Page; status: number }> {
  const page = reuse ?? (await tab(opts));
  const res = await page.goto(origin + path, { waitUntil: "load" });
  return { page, status: res?.status() ?? 0 };
}

async function axe(page: Page) {
  await page.addScriptTag({ content: AXE });
  return page.evaluate(async () => {
    const r = await (window as any).axe.run(document, { resultTypes: ["violations"] });
    return r.violations.map(
      (v: any) =>
        `${v.id} (${v.impact}): ${v.nodes
          .map((n: any) => n.target.join(" "))
          .slice(0, 3)
          .join(" | ")}`,
    );
  });
}

describe("pages in chromium", () => {
  test("axe-core: zero violations on every page type; nothing fetched from outside", async () => {
    const pages: [string, string, number][] = [
      ["home", "/", 200],
      ["place-county", "/places/county:27053", 200],
      ["place-city", "/places/place:2743000", 200],
      ["place-state", "/places/state:50", 200],
      ["office", ids.office, 200],
      ["resource", ids.resource, 200],
      ["topics", "/topics", 200],
      ["topic", "/topics/parcel_map", 200],
      ["guide", "/guides/assessor?state=VT", 200],
      ["source", "/sources/authored-topics", 200],
      ["search", "/search?q=hennepin", 200],
      ["find", "/find?lat=44.9778&lon=-93.265", 200],
      ["find-choices", "/find?place=Washington", 409],
      ["screening-form", "/screening", 200],
      ["screening", "/screening?lat=44.9778&lon=-93.265", 200],
      ["screening-drawn", `/screening?lat=${DRAWN.lat}&lon=${DRAWN.lon}`, 200],
      ["problems", "/problems", 200],
      ["not-found", "/places/county:99999", 404],
    ];
    const found: Record<string, string[]> = {};
    const page = await tab();
    for (const [name, path, status] of pages) {
      const { status: got } = await open(path, {}, page);
      expect([name, got]).toEqual([name, status]);
      const v = await axe(page);
      if (v.length) found[name] = v;
      if (name === "screening-drawn") {
        // the fixture layers are drawn: the 1 % zone, the wetland and the creek, each in the legend
        const legend = await page.$$eval("figure.point-drawing .legend text", (ts) => ts.map((t) => t.textContent));
        expect(legend).toEqual([
          "The point screened",
          "1 % annual chance flood zone (SFHA)",
          "Mapped wetland",
          "Public watercourse",
        ]);
      }
      if (
        ["home", "place-city", "guide", "screening", "screening-drawn", "search", "resource", "find"].includes(name)
      ) {
        await page.screenshot({ path: join(ARTIFACTS, `${name}-desktop.png`), fullPage: true });
      }
    }
    await page.close();
    expect(found).toEqual({});
    expect(outside).toEqual([]);
  }, 120_000);

  test("readable on a phone (no sideways scrolling) and printable; screenshots kept", async () => {
    for (const [name, path] of [
      ["home", "/"],
      ["place-city", "/places/place:2743000"],
      ["screening", "/screening?lat=44.9778&lon=-93.265"],
      ["screening-drawn", `/screening?lat=${DRAWN.lat}&lon=${DRAWN.lon}`],
      ["guide", "/guides/assessor?state=VT"],
    ] as const) {
      const { page } = await open(path, { width: 390 });
      await page.screenshot({ path: join(ARTIFACTS, `${name}-phone.png`), fullPage: true });
      await page.screenshot({ path: join(ARTIFACTS, `${name}-phone-first-screen.png`) });
      const overflow = await page.evaluate(() => [
        document.documentElement.scrollWidth - document.documentElement.clientWidth,
        [...document.querySelectorAll("main *")]
          .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
          .slice(0, 3)
          .map((e) => e.tagName + "." + e.className),
      ]);
      expect([name, overflow]).toEqual([name, [0, []]]);
      await page.close();
    }
    const { page } = await open("/places/county:27053");
    await page.emulateMediaType("print");
    const hidden = await page.evaluate(() => getComputedStyle(document.querySelector("header.site nav")!).display);
    expect(hidden).toBe("none");
    await page.screenshot({ path: join(ARTIFACTS, "place-county-print.png"), fullPage: true });
    await page.close();
  }, 60_000);

  test("works without JavaScript: the search and find forms submit", async () => {
    const { page } = await open("/", { js: false });
    await page.type("#q", "hennepin");
    await Promise.all([page.waitForNavigation(), page.click("form[role=search] button")]);
    expect(page.url()).toStartWith(`${origin}/search?q=hennepin`);
    expect(await page.content()).toContain("Hennepin County");
    await page.goto(`${origin}/`);
    await page.type("#lat", "44.9778");
    await page.type("#lon", "-93.265");
    await Promise.all([page.waitForNavigation(), page.click("form[aria-labelledby=by-point] button")]);
    expect(await page.$eval("h1", (h) => h.textContent)).toBe("Who covers this place");
    await page.close();
  }, 60_000);
});
