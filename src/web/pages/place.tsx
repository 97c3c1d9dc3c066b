/** @jsxImportSource @kitajs/html */
// /places/{jurisdiction_id}: the same answer as GET /v1/places/{id} (Directory.place), as a page: the chain, who
// does each job with its office and links, the place's offices and own resources (paged), and its boundary.
import { DomainError } from "../../domain/errors";
import { boundaryOf } from "../../directory/records";
import { TOPIC_FUNCTIONS } from "../../domain/vocabulary";
import { BoundaryFigure } from "../boundary-svg";
import { Chain, FunctionsView, OfficeItem, ResourceList, Section, SourcesView } from "../components";
import { TYPE_LABEL, directoryOf, linker, type Page, type PageInput } from "../site";

export const PAGE_SIZE = 50;

export function pageNumber(url: URL): number {
  const raw = url.searchParams.get("page");
  if (raw === null || raw === "") return 1;
  if (!/^\d{1,5}$/.test(raw) || Number(raw) < 1)
    throw new DomainError("bad-parameter", "page must be a whole number from 1.");
  return Number(raw);
}

export function placePage({ deps, params, url }: PageInput): Page {
  const dir = directoryOf(deps);
  const l = linker(deps.links.site);
  const id = params[0]!;
  const n = pageNumber(url);
  const r = dir.place(id, (n - 1) * PAGE_SIZE, PAGE_SIZE);
  const j = r.data.jurisdiction;
  if (n > 1 && r.data.resources.length === 0)
    throw new DomainError("not-found", `${j.name} has no page ${n} of resources.`);
  const boundary = boundaryOf(dir, j.jurisdiction_id);
  const state = r.data.chain.find((c) => c.type === "state")?.state ?? null;
  const pageLink = (p: number) =>
    l.path(`/places/${encodeURIComponent(j.jurisdiction_id).replace(/%3A/gi, ":")}${p > 1 ? `?page=${p}` : ""}`);
  const topicsWithGuides = Object.keys(TOPIC_FUNCTIONS).filter((t) => deps.content.guides.has(t));
  const names = new Map(deps.content.topics.map((t) => [t.topic, t.name]));
  return {
    title: j.name,
    body: (
      <>
        <h1 safe>{j.name}</h1>
        <p class="lede">
          <span safe>{TYPE_LABEL[j.type] ?? j.type}</span>
          {j.legal_type ? <span safe>{` (${j.legal_type})`}</span> : ""}
          {j.state ? <span safe>{` in ${j.state}`}</span> : ""} · <code safe>{j.jurisdiction_id}</code>
        </p>
        <Chain chain={r.data.chain} l={l} />
        <dl class="facts">
          {j.ocd_id ? (
            <>
              <dt>OCD id</dt>
              <dd safe>{j.ocd_id}</dd>
            </>
          ) : (
            ""
          )}
          {j.tiger_vintage ? (
            <>
              <dt>Census boundary vintage</dt>
              <dd safe>{j.tiger_vintage}</dd>
            </>
          ) : (
            ""
          )}
          {j.same_as?.length ? (
            <>
              <dt>Same government as</dt>
              <dd>
                {j.same_as.map((s, i) => (
                  <>
                    {i ? ", " : ""}
                    <a href={l.path(`/places/${s}`)} safe>
                      {s}
                    </a>
                  </>
                ))}
              </dd>
            </>
          ) : (
            ""
          )}
          <dt>As JSON</dt>
          <dd>
            <a
              class="bare"
              href={l.path(`/v1/places/${j.jurisdiction_id}`)}
              safe
            >{`${deps.config.base_url}/places/${j.jurisdiction_id}`}</a>
          </dd>
        </dl>
        {boundary ? (
          <BoundaryFigure b={boundary} name={j.name} sourceName={boundary.source?.name ?? null} />
        ) : (
          <p class="none">No boundary is held for this place.</p>
        )}

        <Section id="jobs" title="Who does each job">
          <p>
            The body that performs each job here, with its office and official links. The named office has the final
            say.
          </p>
          <FunctionsView functions={r.data.functions as Record<string, unknown>} chain={r.data.chain} l={l} />
        </Section>

        <Section id="offices" title={`Offices of ${j.name}`}>
          {r.data.offices.length ? (
            r.data.offices.map((o) => <OfficeItem o={o} l={l} />)
          ) : (
            <p class="none">No offices of this body are listed.</p>
          )}
        </Section>

        <Section id="own" title={`Websites of ${j.name}`}>
          <ResourceList
            list={r.data.resources}
            l={l}
            empty="No websites of this body itself are listed; see who does each job above."
          />
          {n > 1 || r.nextOffset !== null ? (
            <nav class="pager" aria-label="Pages of websites">
              {n > 1 ? <a href={pageLink(n - 1)}>Previous page</a> : ""}
              <span safe>{`Page ${n}`}</span>
              {r.nextOffset !== null ? <a href={pageLink(n + 1)}>Next page</a> : ""}
            </nav>
          ) : (
            ""
          )}
        </Section>

        {state ? (
          <Section id="guides" title={`Guides for ${state}`}>
            <ul>
              {topicsWithGuides.map((t) => (
                <li>
                  <a href={l.path(`/guides/${t}?state=${state}`)} safe>
                    {names.get(t) ?? t}
                  </a>
                </li>
              ))}
            </ul>
          </Section>
        ) : (
          ""
        )}

        <SourcesView
          sources={r.sources}
          notices={r.notices}
          asOf={deps.asOf}
          site={deps.links.site}
          pageUrl={j.page_url}
        />
      </>
    ),
  };
}
