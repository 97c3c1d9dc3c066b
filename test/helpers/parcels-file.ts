// The parcel store for tests: the four staged inputs (../shared/data/parcels, cambridge-ma) loaded once per test process
// into a temp file with the mappings shipped in data/parcels/ (the same code `npx bun run start` uses).
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LoadSummary } from "../../src/parcels/load";
import { loadStaged } from "../../src/parcels/staged";
import { ROOT } from "./app";
import { SHARED_DATA } from "./data-file";

let built: Promise<{ path: string; summaries: LoadSummary[]; log: string[] }> | null = null;

export function stagedParcelsFile() {
  built ??= (async () => {
    const path = join(mkdtempSync(join(tmpdir(), "parcels-test-")), "parcels.sqlite");
    const log: string[] = [];
    const summaries = await loadStaged({
      projectRoot: ROOT,
      sharedData: SHARED_DATA,
      store: path,
      progress: false,
      log: (l) => log.push(l),
    });
    if (summaries.length !== 4) throw new Error(`staged parcel inputs not found under ${SHARED_DATA}`);
    return { path, summaries, log };
  })();
  return built;
}
