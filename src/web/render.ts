// A Page into its HTML document (the layout around the page body).
import { Layout } from "./layout";
import type { Linker, Page } from "./site";

export function renderPage(page: Page, l: Linker): string {
  // no async components are used, so the tree renders to a string
  return Layout({ title: page.title, l, children: page.body }) as string;
}
