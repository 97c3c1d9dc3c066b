// `directory check-links`: check every resource, office and source URL of the data file once, politely, and store
// the results in the state file (never the data file). Progress on stderr, the summary on stdout.
import type { Config } from "../config/config";
import { openDataFile } from "./compose";
import { openStateFile } from "../state/state-file";
import { checkLinks, summaryLines, userAgentOf } from "../links/checker";
import { consoleProgress } from "../links/progress";
import { LinkResults } from "../links/results";
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
  const results = new LinkResults(openStateFile(cfg.state_file));
  const s = await checkLinks(urls, { cfg: cfg.links, results, progress: consoleProgress() });
  for (const line of summaryLines(s)) console.log(line);
  console.log(`results in ${cfg.state_file}`);
  return 0;
}
