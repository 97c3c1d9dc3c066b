/** @jsxImportSource @kitajs/html */
// /places/{jurisdiction_id}: the same answer as GET /v1/places/{id} (Directory.place), as a page, answer first: who
// does each job with its office and links; then a state's counties or a county's cities and towns (Directory.browse,
// by name, paged with ?list=); the place's offices and own websites (paged with ?page=); guides; and last, about
// the place: its boundary drawing and identifiers.
import { DomainError } from "../../domain/errors";
import { boundaryOf } from "../../directory/records";
import { TOPIC_FUNCTIONS } from "../../domain/vocabulary";
import { BoundaryFigure } from "../boundary-svg";
import { FunctionsView, JurLink, OfficeItem, ResourceList, Section, SourcesView } from "../components";
import { TYPE_LABEL, linker, type Page, type PageInput } from "../site";
import { directoryOf } from "../../http/deps";

const PAGE_SIZE = 50;

function pageNumber(url: URL, param = "page"): number {
  const raw = url.searchParams.get(param);
  if (raw === null || raw === "") return 1;
  if (!/^\d{1,5}$/.test(raw) || Number(raw) < 1)
    throw new DomainError("bad-parameter", `${param} must be a whole number from 1.`);
  return Number(raw);
}

const LIST_SIZE = 100;

/** "County in Minnesota", "City in Minnesota": the kind of government in words, never a raw label. */
function kindWords(j: { type: string; legal_type?: string | null }, stateName: string | null): string {
  const legal = j.legal_type ? j.legal_type[0]!.toUpperCase() + j.legal_type.slice(1) : null;
  const kind = legal ?? TYPE_LABEL[j.type] ?? j.type;
  return stateName && j.type !== "state" ? `${kind} in ${stateName}` : kind;
}

export function placePage({ deps, params, url }: PageInput): Page {
  const dir = directoryOf(deps);
  const l = linker(deps.links.site);
  const id = params[0]!;
  const n = pageNumber(url);
  const listN = pageNumber(url, "list");
  const r = dir.place(id, (n - 1) * PAGE_SIZE, PAGE_SIZE);
  const j = r.data.jurisdiction;
  if (n > 1 && r.data.resources.length === 0)
    throw new DomainError("not-found", `${j.name} has no page ${n} of websites.`);
  const list = dir.browse(j.jurisdiction_id, (listN - 1) * LIST_SIZE, LIST_SIZE);
  if (listN > 1 && list.items.length === 0)
    throw new DomainError("not-found", `${j.name} has no page ${listN} of that list.`);
  const boundary = boundaryOf(dir, j.jurisdiction_id);
  const stateRow = r.data.chain.find((c) => c.type === "state") ?? null;
  const state = stateRow?.state ?? null;
  const idPath = `/places/${encodeURIComponent(j.jurisdiction_id).replace(/%3A/gi, ":")}`;
  const pageLink = (p: number) => l.path(`${idPath}${p > 1 ? `?page=${p}` : ""}`);
  const listLink = (p: number) => l.path(`${idPath}${p > 1 ? `?list=${p}` : ""}#list`);
  const topicsWithGuides = Object.keys(TOPIC_FUNCTIONS).filter((t) => deps.content.guides.has(t));
  const names = new Map(deps.content.topics.map((t) => [t.topic, t.name]));
  const listTitle = list.kind === "counties" ? `Counties of ${j.name}` : `Cities, villages and towns in ${j.name}`;
  return {
    title: j.name,
    body: (
      <>
        <h1 safe>{j.name}</h1>
        <p class="lede">
          <span safe>{kindWords(j, stateRow?.name ?? null)}</span>
          {r.data.chain.length > 1 ? (
            <>
              {" · "}
              {r.data.chain
                .filter((c) => c.jurisdiction_id !== j.jurisdiction_id && !j.same_as?.includes(c.jurisdiction_id))
                .map((c, i) => (
                  <>
                    {i ? ", " : "part of "}
                    <JurLink j={c} l={l} />
                  </>
                ))}
            </>
          ) : (
            ""
          )}
        </p>

        <Section id="jobs" title="Who does each job">
          <p>
            {j.type === "state"
              ? "The body that does each job in this state, with its office and official links. Where each county or city does a job for its own area, open its page below."
              : "The body that does each job here, with its office and official links. The named office has the final say."}
          </p>
          <FunctionsView
            functions={r.data.functions as Record<string, unknown>}
            chain={r.data.chain}
            l={l}
            noBody={j.type === "state" || j.type === "county" ? "Each one for its own area (see below)" : undefined}
          />
        </Section>

        {list.kind && list.total ? (
          <Section id="list" title={listTitle}>
            <p class="meta" safe>
              {list.kind === "counties"
                ? `${list.total} counties and county equivalents, by name.`
                : `${list.total}, by name. A city in several counties is listed under one of them (where the Census places its centre).`}
            </p>
            <ul class="browse">
              {list.items.map((c) => (
                <li>
                  <a href={l.path(`/places/${c.jurisdiction_id}`)} safe>
                    {c.name}
                  </a>
                </li>
              ))}
            </ul>
            {listN > 1 || list.nextOffset !== null ? (
              <nav class="pager" aria-label={`Pages of ${listTitle}`}>
                {listN > 1 ? <a href={listLink(listN - 1)}>Previous names</a> : ""}
                <span
                  safe
                >{`Names ${(listN - 1) * LIST_SIZE + 1}–${(listN - 1) * LIST_SIZE + list.items.length} of ${list.total}`}</span>
                {list.nextOffset !== null ? <a href={listLink(listN + 1)}>Next names</a> : ""}
              </nav>
            ) : (
              ""
            )}
          </Section>
        ) : (
          ""
        )}

        {r.data.offices.length ? (
          <Section id="offices" title={`Offices of ${j.name}`}>
            {r.data.offices.map((o) => (
              <OfficeItem o={o} l={l} />
            ))}
          </Section>
        ) : (
          ""
        )}

        <Section id="own" title={`Websites of ${j.name}`}>
          <ResourceList
            list={r.data.resources}
            l={l}
            empty="No websites of this government itself are listed; see who does each job above."
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
          <Section id="guides" title={`Guides for ${stateRow?.name ?? state}`}>
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

        <Section id="about" title={`About ${j.name}`}>
          {boundary ? (
            <BoundaryFigure b={boundary} name={j.name} sourceName={boundary.source?.name ?? null} />
          ) : (
            <p class="none">No boundary drawing is held for this place.</p>
          )}
          <dl class="facts">
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
            <dt>Census id</dt>
            <dd>
              <code safe>{j.jurisdiction_id}</code>
            </dd>
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
                <dt>Census boundary year</dt>
                <dd safe>{j.tiger_vintage}</dd>
              </>
            ) : (
              ""
            )}
            <dt>For programs</dt>
            <dd>
              <a class="bare" href={l.path(`/v1/places/${j.jurisdiction_id}`)} safe>
                {`${deps.config.base_url}/places/${j.jurisdiction_id}`}
              </a>
            </dd>
          </dl>
        </Section>

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
