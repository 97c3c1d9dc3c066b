/** @jsxImportSource @kitajs/html */
// The frame of every page: head (the one stylesheet, no scripts, no outside assets), header navigation, footer.
import type { Children } from "@kitajs/html";
import css from "./style.css" with { type: "text" };
import type { Linker } from "./site";

export const STYLESHEET: string = css;
/** The stylesheet's path carries a digest of its content, so it can be cached for a long time. */
const STYLE_VERSION = Bun.hash.wyhash(STYLESHEET).toString(16).slice(0, 10);

export function Layout({ title, l, children }: { title: string; l: Linker; children?: Children }) {
  return (
    <>
      {"<!doctype html>"}
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <title safe>{`${title} · Property, Land and GIS Directory`}</title>
          <link rel="stylesheet" href={l.path(`/style.css?v=${STYLE_VERSION}`)} />
          <link rel="icon" href="data:," />
        </head>
        <body>
          <a class="skip" href="#main">
            Skip to content
          </a>
          <header class="site">
            <div class="wrap">
              <a class="name" href={l.path("/")}>
                Property, Land and GIS Directory
              </a>
              <nav aria-label="Site">
                <ul>
                  <li>
                    <a href={l.path("/search")}>Search</a>
                  </li>
                  <li>
                    <a href={l.path("/topics")}>Topics</a>
                  </li>
                  <li>
                    <a href={l.path("/screening")}>Point screening</a>
                  </li>
                  <li>
                    <a href={l.path("/#api")}>API</a>
                  </li>
                </ul>
              </nav>
            </div>
          </header>
          <main id="main" class="wrap">
            {children}
          </main>
          <footer class="site">
            <div class="wrap">
              <p>
                A directory of official government offices and websites for property, land and map questions. It is a
                guide, not an authority: the named office has the final say. Screening facts are never a determination.
              </p>
              <p>
                <a href={l.path("/#terms")}>Terms of use</a> ·{" "}
                <a href={l.path("/v1/openapi.json")}>API description (OpenAPI)</a>
              </p>
            </div>
          </footer>
        </body>
      </html>
    </>
  );
}
