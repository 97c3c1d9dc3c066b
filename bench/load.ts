// Closed-loop HTTP load from this process against a server in another process (loopback only).
export async function load(
  urls: string[],
  seconds: number,
  concurrency = 32,
): Promise<{ rps: number; errors: number; n: number }> {
  const until = performance.now() + seconds * 1000;
  let n = 0,
    errors = 0,
    i = 0;
  const worker = async () => {
    while (performance.now() < until) {
      const u = urls[i++ % urls.length]!;
      try {
        const r = await fetch(u);
        await r.arrayBuffer();
        if (r.status !== 200) errors++;
      } catch {
        errors++;
      }
      n++;
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { rps: n / ((performance.now() - t0) / 1000), errors, n };
}

export async function waitReady(url: string, ms = 30000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      const r = await fetch(url);
      await r.arrayBuffer();
      return;
    } catch {}
    await Bun.sleep(100);
  }
  throw new Error(`server at ${url} did not answer`);
}

/** A closed loopback port: an outside lookup a bench does not double fails at once and never leaves the machine. */
export const CLOSED = "http://127.0.0.1:9/";

/** Environment for the appliance under load: limits lifted so the bench measures work, not 429s; every outside
 * service (geocoder, screening services, the Census town service) on the closed port unless `extra` says otherwise. */
export function unlimitedEnv(port: number, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    DIRECTORY_BASE_URL: `http://127.0.0.1:${port}/v1`,
    DIRECTORY_STATE_FILE: `/tmp/bench-state-${port}.sqlite`,
    DIRECTORY_GEOCODER__BASE_URL: CLOSED,
    DIRECTORY_TOWNS__BASE_URL: CLOSED,
    ...Object.fromEntries(
      ["FLOOD", "WETLANDS", "SOILS", "ELEVATION"].map((s) => [`DIRECTORY_SCREENING__${s}__BASE_URL`, CLOSED]),
    ),
    ...extra,
  };
  for (const c of ["ANON_ADDRESS", "ANON_ALL", "ANON_LIST_ADDRESS", "ANON_LIST_ALL"]) {
    env[`DIRECTORY_LIMITS__${c}__PER_MINUTE`] = "1000000000";
    env[`DIRECTORY_LIMITS__${c}__PER_DAY`] = "1000000000";
  }
  return env;
}
