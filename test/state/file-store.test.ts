// The state file's lease (src/state/file-store.ts): `serve --workers N` and a `check-links` run from cron next to
// serve's scheduled run share one state file, and only one of them checks links at a time.
import { expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checkUnderLease, LINK_CHECK_LEASE } from "../../src/links/leased";
import { FileStateStore } from "../../src/state/file-store";
import { testConfig } from "../helpers/app";

test("two processes' stores over one state file: the lease is one holder's until released or expired", async () => {
  const path = join(mkdtempSync(join(tmpdir(), "state-lease-")), "state.sqlite");
  const [x, y] = [FileStateStore.open(path), FileStateStore.open(path)];
  expect(await x.takeLease(LINK_CHECK_LEASE, "x:1:aaaaaaaa", 60_000)).toEqual({ taken: true });
  const lines: string[] = [];
  const cfg = { ...testConfig().links, contact: "ops@example.gov" };
  expect(await checkUnderLease(y, [], { cfg }, (l) => lines.push(l))).toBeNull();
  expect(lines).toEqual([
    expect.stringMatching(/^link check: skipped: another run holds the lease \(x:1:aaaaaaaa, until /),
  ]);
  expect(await x.renewLease(LINK_CHECK_LEASE, "x:1:aaaaaaaa", 50)).toBe(true);
  expect(await y.renewLease(LINK_CHECK_LEASE, "y:1:bbbbbbbb", 50)).toBe(false);
  await Bun.sleep(60);
  expect(await checkUnderLease(y, [], { cfg }, () => {})).not.toBeNull(); // expired: taken, then released
  expect(await x.takeLease(LINK_CHECK_LEASE, "x:1:aaaaaaaa", 60_000)).toEqual({ taken: true });
  await x.releaseLease(LINK_CHECK_LEASE, "x:1:aaaaaaaa");
  expect(await y.takeLease(LINK_CHECK_LEASE, "y:1:bbbbbbbb", 60_000)).toEqual({ taken: true });
  await Promise.all([x.close(), y.close()]);
});
