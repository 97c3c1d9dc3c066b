/** @jsxImportSource @kitajs/html */
// /search?q=&state=: the same name lookup as GET /v1/search (Directory.searchNames), places and websites.
import { DomainError } from "../../domain/errors";
import { unknownState } from "../../domain/states";
import { ResourceList, Section, SourcesView } from "../components";
import { SearchForm } from "../forms";
import { TYPE_LABEL, linker, type Page, type PageInput } from "../site";
import { directoryOf } from "../../http/deps";

/** As many of each kind as an anonymous API caller may get. */
const SEARCH_PAGE_LIMIT = 20;

export function searchPage({ deps, url }: PageInput): Page {
  const l = linker(deps.links.site);
  const q = (url.searchParams.get("q") ?? "").trim();
  const stateRaw = url.searchParams.get("state") ?? "";
  if (!q) {
    return {
      title: "Search",
      body: (
        <>
          <h1>Search</h1>
          <p class="lede">
            Search the names of counties, cities, towns, townships and official websites. People are never searched.
          </p>
          <SearchForm l={l} state={stateRaw} />
        </>
      ),
    };
  }
  if (q.length < 2 || q.length > 200) throw new DomainError("bad-parameter", "Search for 2 to 200 characters.");
  const dir = directoryOf(deps);
  if (stateRaw && !/^[A-Za-z]{2}$/.test(stateRaw)) throw unknownState(stateRaw);
  const state = stateRaw ? stateRaw.toUpperCase() : null;
  if (state) dir.requireState(state);
  const r = dir.searchNames(q, state, SEARCH_PAGE_LIMIT);
  return {
    title: `Search: ${q}`,
    body: (
      <>
        <h1>Search</h1>
        <SearchForm l={l} q={q} state={state} />
        <Section id="places" title="Places">
          {r.data.places.length ? (
            <ul>
              {r.data.places.map((p) => (
                <li>
                  <a href={l.local(p.page_url)} safe>
                    {p.name}
                  </a>{" "}
                  <span class="meta" safe>{`${TYPE_LABEL[p.type] ?? p.type}${p.state ? `, ${p.state}` : ""}`}</span>
                </li>
              ))}
            </ul>
          ) : (
            <p class="none" safe>{`No place names match “${q}”.`}</p>
          )}
        </Section>
        <Section id="websites" title="Websites">
          <ResourceList list={r.data.resources} l={l} empty={`No website names match “${q}”.`} />
        </Section>
        <SourcesView sources={r.sources} notices={r.notices} asOf={deps.asOf} site={deps.links.site} />
      </>
    ),
  };
}
