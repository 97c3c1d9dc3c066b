// `directory check-links`: check every resource, office and source URL of the data file once, politely, and store
// the results in the state store (the state file or PostgreSQL; never the data file), under the store's lease:
// while another run holds it (serve's scheduled run, another replica) this one checks nothing and says so.
// Progress on stderr, the summary on stdout.
import type { Config } from "../config/config";
import { openDataFile } from "./compose";
import { openStateStore } from "../state/open";
import { summaryLines, userAgentOf } from "../links/checker";
import { checkUnderLease } from "../links/leased";
import { consoleProgress } from "../links/progress";
import { targetsOf } from "../links/targets";
import { list, str, type Parsed } from "./commands";

export async function runCheckLinks(cfg: Config, p: Parsed): Promise<number> {
  const ua = userAgentOf(cfg.links);
  const { db } = await openDataFile(cfg.data_file);
  const t = targetsOf(db);
  const only = list(p.values.url);
  let urls = only.length ? only : t.urls;
  if (str(p.values.limit)) urls = urls.slice(0, Number(str(p.values.limit)));
  console.log(
    `${urls.length} links to check (${t.resources} resource, ${t.offices} office, ${t.sources} source URLs in ${cfg.data_file}); user agent "${ua}"`,
  );
  const store = openStateStore(cfg);
  try {
    const s = await checkUnderLease(store, urls, { cfg: cfg.links, progress: consoleProgress() }, (l) =>
      console.log(l),
    );
    if (!s) return 0;
    for (const line of summaryLines(s)) console.log(line);
    console.log(`results in ${store.where}`);
    return 0;
  } finally {
    await store.close();
  }
}
