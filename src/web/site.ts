// What every page is given (the request, the deps, link helpers) and the words the pages use for the vocabulary.
import type { Deps } from "../http/deps";

export interface Page {
  title: string;
  body: JSX.Element;
  /** cache row of src/http/cache-control.ts; errors are always no-store */
  cache?: "pages" | "topics" | "guides" | "screening";
  status?: number;
  /** extra response headers (Retry-After on a 429 page) */
  headers?: Record<string, string>;
  /** pages whose content depends on the moment (an error page) get no ETag */
  noStore?: boolean;
}

export interface PageInput {
  deps: Deps;
  url: URL;
  params: string[];
  requestId: string;
}

/** Site-relative links: page_url values are absolute (base_url's site); pages link by path so a mirror reached
 * under another host name still works. `path` keeps a path prefix of base_url (e.g. /directory). */
export function linker(site: string) {
  const prefix = new URL(site).pathname.replace(/\/+$/, "");
  return {
    path: (p: string) => `${prefix}${p}`,
    local: (u: string) => (u.startsWith(site + "/") ? prefix + u.slice(site.length) : u),
  };
}
export type Linker = ReturnType<typeof linker>;

export const FUNCTION_LABEL: Record<string, string> = {
  assessment: "Assessment (value for property tax)",
  tax_collection: "Property tax collection",
  recording: "Deeds and land records",
  zoning: "Zoning",
  permits: "Building permits",
  gis: "GIS and parcel maps",
  exemptions: "Exemptions",
};
export const TYPE_LABEL: Record<string, string> = {
  country: "Country",
  state: "State",
  county: "County",
  cousub: "County subdivision",
  place: "Incorporated place",
  district: "District",
};
export const STATUS_LABEL: Record<string, string> = {
  verified: "Verified",
  not_yet_verified: "Not yet verified",
  possibly_broken: "Possibly broken",
};
export const ROLE_LABEL: Record<string, string> = {
  primary: "Primary",
  secondary: "Also",
  delinquent: "Delinquent taxes",
};

export const dateOf = (iso: string | null | undefined) => (iso ? iso.slice(0, 10) : null);
