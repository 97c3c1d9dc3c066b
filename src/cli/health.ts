// `directory health [--url URL] [--timeout-ms N]`: one GET of /v1/topics on a running server (the container's
// HEALTHCHECK: the runtime image has no curl). Exit 0 on a 200, else 1 with one line saying what happened.
import { localAddress, type Config } from "../config/config";
import { str, type Parsed } from "./commands";

export async function runHealth(cfg: Config, p: Parsed): Promise<number> {
  const base = (str(p.values.url) ?? `http://${localAddress(cfg.host)}:${cfg.port}/v1`).replace(/\/+$/, "");
  const ms = Number(str(p.values["timeout-ms"]) ?? 3000);
  try {
    const r = await fetch(`${base}/topics`, { signal: AbortSignal.timeout(ms) });
    await r.arrayBuffer();
    if (r.status === 200) {
      console.log(`ok: ${base}/topics answered 200`);
      return 0;
    }
    console.error(`unhealthy: ${base}/topics answered ${r.status}`);
  } catch (e) {
    console.error(
      `unhealthy: ${base}/topics: ${(e as Error).name === "TimeoutError" ? `no answer within ${ms} ms` : (e as Error).message}`,
    );
  }
  return 1;
}
