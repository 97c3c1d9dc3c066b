// Our own router over the parsed path (see request-target.ts): exact paths by map, parameter paths by a compiled
// pattern. Elysia still holds the same routes, for the OpenAPI generator only.
import type { RouteDef } from "./route";

interface Compiled {
  def: RouteDef;
  pattern: RegExp;
  names: string[];
}
export interface Match {
  def: RouteDef;
  params: Record<string, string>;
}

export class Router {
  private readonly exact = new Map<string, RouteDef>();
  private readonly patterns: Compiled[] = [];

  constructor(routes: RouteDef[], prefix: string) {
    for (const def of routes) {
      const full = prefix + def.path;
      if (!full.includes(":")) {
        this.exact.set(full, def);
        continue;
      }
      const names: string[] = [];
      const src = full
        .split("/")
        .map((seg) => {
          if (!seg.startsWith(":")) return seg.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
          names.push(seg.slice(1));
          return "([^/]+)";
        })
        .join("/");
      this.patterns.push({ def, pattern: new RegExp(`^${src}$`), names });
    }
  }

  match(path: string): Match | null {
    const def = this.exact.get(path);
    if (def) return { def, params: {} };
    for (const c of this.patterns) {
      const m = c.pattern.exec(path);
      if (!m) continue;
      const params: Record<string, string> = {};
      c.names.forEach((n, i) => {
        const v = m[i + 1]!;
        try {
          params[n] = decodeURIComponent(v);
        } catch {
          params[n] = v;
        }
      });
      return { def: c.def, params };
    }
    return null;
  }
}
