// The app over the full data file with every screening service pointed at its loopback double (127.0.0.1 only),
// request limits lifted, and a lookup limit a test can set. No layers file unless one is given.
import { fullApp } from "./directory-app";
import { screeningConfigFor, type ScreeningDoubles } from "../doubles/screening-services";

export async function screeningApp(
  d: ScreeningDoubles,
  opts: { timeoutMs?: number; lookupPerMinute?: number; layersFile?: string; screening?: Record<string, unknown> } = {},
) {
  const base = (await fullApp()).deps.config;
  return fullApp({
    layers_file: opts.layersFile ?? "/nonexistent/layers.sqlite",
    screening: { ...screeningConfigFor(d, opts.timeoutMs ?? 200), ...(opts.screening ?? {}) },
    limits: { ...base.limits, lookup: { per_minute: opts.lookupPerMinute ?? 1e9, per_day: 1e9 } },
  } as any);
}
