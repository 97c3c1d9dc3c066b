// Versioning (spec part 9): deprecated paths emit Deprecation and Sunset for the whole notice period.
// The table is empty now; each entry: path prefix under /v1, the date the deprecation was announced, the sunset date.
export interface Deprecation {
  pathPrefix: string;
  deprecatedAt: string;
  sunsetAt: string;
  link?: string;
}

export const DEPRECATIONS: Deprecation[] = [];

/** Deprecation uses the structured-field date form of RFC 9745 (@epoch seconds); Sunset an HTTP-date (RFC 8594). */
export function deprecationHeaders(path: string, table: Deprecation[] = DEPRECATIONS): Record<string, string> {
  const d = table.find((e) => path.startsWith(e.pathPrefix));
  if (!d) return {};
  const h: Record<string, string> = {
    Deprecation: `@${Math.floor(Date.parse(d.deprecatedAt) / 1000)}`,
    Sunset: new Date(d.sunsetAt).toUTCString(),
  };
  return h;
}
