// Data files for tests, built once per test process (bun runs every test file in one process) and shared.
//   atlasDataFile(): from the npm atlas package alone;  fullDataFile(): with ../shared/data.
import { mkdtempSync, existsSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { buildData } from "../../scripts/build-data";
import { ROOT } from "./app";

export const SHARED_DATA = resolve(ROOT, "../shared/data");
const dir = mkdtempSync(join(tmpdir(), "directory-test-"));
const builds = new Map<string, Promise<string>>();

function build(name: string, sourcesDir: string | null): Promise<string> {
  let p = builds.get(name);
  if (!p) {
    const out = join(dir, `${name}.sqlite`);
    const lines: string[] = [];
    p = buildData({ out, sourcesDir, projectRoot: ROOT, log: (s) => lines.push(s) }).then(() => out);
    builds.set(name, p);
  }
  return p;
}

export const atlasDataFile = () => build("atlas", null);
export const fullDataFile = () => {
  if (!existsSync(SHARED_DATA)) throw new Error(`../shared/data not found at ${SHARED_DATA}`);
  return build("full", SHARED_DATA);
};

/** Atlas-only build plus fixture records: 120 documented resources on county:27053 (page caps) and the
 * records of test/fixtures/extra-records.yaml (undocumented ones are stored, flagged, and left out). */
export const fixtureDataFile = () => {
  let p = builds.get("fixture");
  if (!p) {
    const yaml = join(dir, "many-resources.yaml");
    const lines = [
      "sources:",
      "  - source_id: fixture-many",
      "    name: Fixture source for paging",
      "    url: https://example.gov/many",
      "    publisher: Example County",
      '    vintage: "2026"',
      "    official: true",
      "    license_class: open",
      "resources:",
    ];
    for (let i = 0; i < 120; i++) {
      const n = String(i).padStart(3, "0");
      lines.push(
        `  - resource_id: fixture-many-${n}`,
        "    jurisdiction_id: county:27053",
        `    name: Fixture paging resource ${n}`,
        `    url: https://example.gov/many/${n}`,
        "    topics: [county_gis]",
        "    official: 1",
        "    verified_status: not_yet_verified",
        "    source_kind: hand-added",
        "    source_id: fixture-many",
        `    sort_key: ${100 + i}`,
      );
    }
    // tax_collection ordering: the property_tax_payment page comes first even with a later sort_key
    lines.push(
      "  - resource_id: fixture-tax-collector",
      "    jurisdiction_id: county:27053",
      "    name: Fixture tax collector page",
      "    url: https://example.gov/tax-collector",
      "    topics: [tax_collector]",
      "    official: 1",
      "    verified_status: not_yet_verified",
      "    source_kind: hand-added",
      "    source_id: fixture-many",
      "    sort_key: 1",
      "  - resource_id: fixture-pay-taxes",
      "    jurisdiction_id: county:27053",
      "    name: Fixture pay property tax page",
      "    url: https://example.gov/pay",
      "    topics: [property_tax_payment]",
      "    official: 1",
      "    verified_status: not_yet_verified",
      "    source_kind: hand-added",
      "    source_id: fixture-many",
      "    sort_key: 2",
    );
    writeFileSync(yaml, lines.join("\n") + "\n");
    const out = join(dir, "fixture.sqlite");
    p = buildData({
      out,
      sourcesDir: null,
      projectRoot: ROOT,
      log: () => {},
      extraRecords: [yaml, join(ROOT, "test/fixtures/extra-records.yaml")],
    }).then(() => out);
    builds.set("fixture", p);
  }
  return p;
};
