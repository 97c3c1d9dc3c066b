// Every page path. Every page draws from the pages' limits (src/config/limits-table.ts pages_*); a page that
// makes a new outside lookup (find by address, screening) also draws on the lookup limit, in its domain call.
import type { Page, PageInput } from "./site";
import { homePage } from "./pages/home";
import { placePage } from "./pages/place";
import { officePage, resourcePage, sourcePage } from "./pages/records";
import { guidePage, topicPage, topicsPage } from "./pages/topics";
import { searchPage } from "./pages/search";
import { findPage } from "./pages/find";
import { screeningPage } from "./pages/screening";
import { problemPage, problemsPage } from "./pages/problems";

export interface WebRoute {
  pattern: RegExp;
  page: (input: PageInput) => Page | Promise<Page>;
}

const seg = "([^/]+)";
export const ROUTES: WebRoute[] = [
  { pattern: /^\/$/, page: homePage },
  { pattern: new RegExp(`^/places/${seg}$`), page: placePage },
  { pattern: new RegExp(`^/offices/${seg}$`), page: officePage },
  { pattern: new RegExp(`^/resources/${seg}$`), page: resourcePage },
  { pattern: /^\/topics\/?$/, page: topicsPage },
  { pattern: new RegExp(`^/topics/${seg}$`), page: topicPage },
  { pattern: new RegExp(`^/guides/${seg}$`), page: guidePage },
  { pattern: new RegExp(`^/sources/${seg}$`), page: sourcePage },
  { pattern: /^\/search$/, page: searchPage },
  { pattern: /^\/find$/, page: findPage },
  { pattern: /^\/screening$/, page: screeningPage },
  { pattern: /^\/problems\/?$/, page: problemsPage },
  { pattern: new RegExp(`^/problems/${seg}$`), page: problemPage },
];
