// PageLinks: the page_url of every record, the human page behind it, on the same host as the API (served by src/web/), and what
// answers need of the link checker's results (LinkView: filled by src/links/overlay.ts from the state store).
import type { VERIFIED_STATUSES } from "./vocabulary";

/** The checker's fields an answer shows for a URL. */
export interface LinkFields {
  verified_status: (typeof VERIFIED_STATUSES)[number];
  verified_at: string | null;
  last_http_status: number | null;
  verification_method: "automated" | null;
}
/** What the domain needs: the fields of a URL (undefined: never checked, the data file's values stand) and a version. */
export interface LinkView {
  get(url: string): LinkFields | undefined;
  readonly version: number;
}

export interface PageLinks {
  site: string;
  place(id: string): string;
  topic(topic: string): string;
  guide(topic: string, state?: string | null): string;
  resource(id: string): string;
  office(id: string): string;
  /** Current link-check results by URL (src/links/overlay.ts), laid over Resource/Office/Source answers. */
  results?: LinkView;
}

export function pageLinksFor(baseUrl: string): PageLinks {
  const site = baseUrl.replace(/\/v1$/, "");
  const enc = (s: string) => encodeURIComponent(s).replace(/%3A/gi, ":");
  return {
    site,
    place: (id) => `${site}/places/${enc(id)}`,
    topic: (t) => `${site}/topics/${enc(t)}`,
    guide: (t, s) => `${site}/guides/${enc(t)}${s ? `?state=${enc(s.toUpperCase())}` : ""}`,
    resource: (id) => `${site}/resources/${enc(id)}`,
    office: (id) => `${site}/offices/${enc(id)}`,
  };
}
