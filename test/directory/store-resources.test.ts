// The store's resources are kept under their memory budget (src/domain/cache-budget.ts, store_resources): reading
// the resources of every jurisdiction in the real data file (what traffic over the whole country does) keeps the
// memo within it, and a jurisdiction whose resources were dropped reads the same list again.
import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { Store } from "../../src/directory/store";
import { CACHE_MB } from "../../src/domain/cache-budget";
import { fullDataFile } from "../helpers/data-file";

describe("store resources under their budget", () => {
  test("every jurisdiction's resources read: the memo stays within store_resources; dropped lists read back equal", async () => {
    const db = new Database(await fullDataFile(), { readonly: true });
    const store = new Store(db);
    const ids = [...store.jurisdictions.keys()];
    const first = ids.filter((id) => id.startsWith("county:")).slice(0, 50);
    const before = first.map((id) => structuredClone(store.resourcesOf(id)));
    let total = 0;
    for (const id of ids) total += store.resourcesOf(id).items.length;
    expect(total).toBeGreaterThan(20_000); // the real file: enough to pass the budget many times over
    const memo = (store as unknown as { resourceGroups: { calculatedSize: number; size: number } }).resourceGroups;
    expect(memo.calculatedSize).toBeLessThanOrEqual(CACHE_MB.store_resources * 1024 * 1024);
    expect(memo.size).toBeLessThan(ids.length);
    expect(first.map((id) => store.resourcesOf(id))).toEqual(before);
    db.close();
  }, 120_000); // the first test of a process to ask for the full data file builds it (about 15 s on 2 cores)
});
