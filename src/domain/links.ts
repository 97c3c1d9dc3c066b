// page_url of every record: the human page behind it, on the same host as the API (served by src/web/).
export interface Links {
  site: string;
  place(id: string): string;
  topic(topic: string): string;
  guide(topic: string, state?: string | null): string;
  resource(id: string): string;
  office(id: string): string;
  /** Current link-check results by URL (src/links/overlay.ts), laid over Resource/Office/Source answers. */
  results?: import("../links/overlay").LinkView;
}

export function linksFor(baseUrl: string): Links {
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
