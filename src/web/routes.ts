// Every page path. `list` pages draw from the place-and-resource-list limits too, like their API endpoints;
// `viaApi` pages answer from an in-process /v1 call, which draws the limits itself.
import type { Page, PageInput } from "./site";
import { homePage } from "./pages/home";
import { placePage } from "./pages/place";
import { officePage, resourcePage, sourcePage } from "./pages/records";
import { guidePage, topicPage, topicsPage } from "./pages/topics";
import { searchPage } from "./pages/search";
import { findPage, findViaApi } from "./pages/find";
import { screeningPage, screeningViaApi } from "./pages/screening";
import { problemPage, problemsPage } from "./pages/problems";

export interface WebRoute {
  pattern: RegExp;
  page: (input: PageInput) => Page | Promise<Page>;
  list?: boolean;
  viaApi?: (url: URL) => boolean;
}

const seg = "([^/]+)";
export const ROUTES: WebRoute[] = [
  { pattern: /^\/$/, page: homePage },
  { pattern: new RegExp(`^/places/${seg}$`), page: placePage, list: true },
  { pattern: new RegExp(`^/offices/${seg}$`), page: officePage },
  { pattern: new RegExp(`^/resources/${seg}$`), page: resourcePage },
  { pattern: /^\/topics\/?$/, page: topicsPage },
  { pattern: new RegExp(`^/topics/${seg}$`), page: topicPage },
  { pattern: new RegExp(`^/guides/${seg}$`), page: guidePage },
  { pattern: new RegExp(`^/sources/${seg}$`), page: sourcePage },
  { pattern: /^\/search$/, page: searchPage },
  { pattern: /^\/find$/, page: findPage, viaApi: findViaApi },
  { pattern: /^\/screening$/, page: screeningPage, viaApi: screeningViaApi },
  { pattern: /^\/problems\/?$/, page: problemsPage },
  { pattern: new RegExp(`^/problems/${seg}$`), page: problemPage },
];
