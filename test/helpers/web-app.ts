// The app with the web pages in front (as `serve` composes it), over the full data file or the YAML only.
import { createWeb } from "../../src/web";
import type { Config } from "../../src/config/config";
import { fullApp } from "./directory-app";
import { yamlApp } from "./app";

export async function fullWebApp(overrides: Partial<Config> = {}, liftLimits = true) {
  const r = await fullApp(overrides, liftLimits);
  r.deps.web = createWeb(r.deps, r.app.handle);
  return r;
}

export function yamlWebApp(overrides: Partial<Config> = {}) {
  const r = yamlApp(overrides);
  r.deps.web = createWeb(r.deps, r.app.handle);
  return r;
}
