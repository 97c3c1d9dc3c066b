// serve's link work: off by default (only the reload watch runs), refused at start without a contact when on.
import { describe, expect, test } from "bun:test";
import { pageLinksFor } from "../../src/domain/page-links";
import { LinkResultsView } from "../../src/links/overlay";
import { startLinkChecks } from "../../src/links/schedule";
import { openStateFile } from "../../src/state/state-file";
import { testConfig } from "../helpers/app";
import { atlasDataFile } from "../helpers/data-file";
import { Database } from "bun:sqlite";

describe("background link checks in serve", () => {
  test("off by default: nothing is scheduled and no contact is needed", async () => {
    const cfg = testConfig();
    expect(cfg.links.schedule_hours).toBe(0);
    const links = pageLinksFor(cfg.base_url);
    links.results = new LinkResultsView(openStateFile(":memory:"));
    const lines: string[] = [];
    const stop = startLinkChecks(cfg, new Database(await atlasDataFile(), { readonly: true }), links, (l) =>
      lines.push(l),
    );
    expect(lines).toEqual([]);
    stop();
  }, 120_000);

  test("on: announced in the log with the next run; without links.contact refused at start", async () => {
    const db = new Database(await atlasDataFile(), { readonly: true });
    const links = pageLinksFor(testConfig().base_url);
    links.results = new LinkResultsView(openStateFile(":memory:"));
    expect(() =>
      startLinkChecks(testConfig({ links: { ...testConfig().links, schedule_hours: 24 } } as any), db, links, () => {}),
    ).toThrow(/links\.contact/);
    const lines: string[] = [];
    const stop = startLinkChecks(
      testConfig({ links: { ...testConfig().links, schedule_hours: 24, contact: "ops@example.gov" } } as any),
      db,
      links,
      (l) => lines.push(l),
    );
    expect(lines).toEqual(["link check: every 24 h, next in 1 min"]);
    stop();
  }, 120_000);
});
