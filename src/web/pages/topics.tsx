/** @jsxImportSource @kitajs/html */
// /topics, /topics/{topic}, /guides/{topic}?state=: the vocabulary and the plain-language guides, from the same
// calls as GET /v1/topics and GET /v1/guides/{topic}.
import { guide, topicList } from "../../directory/guides";
import { DomainError } from "../../domain/errors";
import { TOPIC_ALIASES } from "../../domain/vocabulary";
import { ResourceList, Section, SourcesView } from "../components";
import { StateSelect } from "../forms";
import { FUNCTION_LABEL, linker, type Page, type PageInput } from "../site";

export function topicsPage({ deps }: PageInput): Page {
  const l = linker(deps.links.site);
  const t = topicList(deps.content, deps.links);
  return {
    title: "Topics",
    cache: "topics",
    body: (
      <>
        <h1>Topics</h1>
        <p class="lede">
          The questions this directory answers, each with the jobs it belongs to. Topics are added, never renamed.
        </p>
        {t.data.topics.map((x) => (
          <div class="card">
            <h2 class="h3">
              <a href={l.local(x.page_url)} safe>
                {x.name}
              </a>
            </h2>
            <p safe>{x.description}</p>
            <p class="meta">
              <code>{x.topic}</code>
              {x.functions.length ? (
                <span safe>{` · jobs: ${x.functions.map((f) => FUNCTION_LABEL[f] ?? f).join(", ")}`}</span>
              ) : (
                ""
              )}
              {x.guide_url ? (
                <>
                  {" "}
                  ·{" "}
                  <a href={l.local(x.guide_url)}>
                    guide<span class="vh" safe>{` to ${x.name}`}</span>
                  </a>
                </>
              ) : (
                ""
              )}
            </p>
          </div>
        ))}
        <SourcesView
          sources={t.sources}
          asOf={deps.asOf}
          site={deps.links.site}
          pageUrl={`${deps.links.site}/topics`}
        />
      </>
    ),
  };
}

function topicOf(deps: PageInput["deps"], raw: string) {
  const t = topicList(deps.content, deps.links).data.topics.find((x) => x.topic === (TOPIC_ALIASES[raw] ?? raw));
  if (!t) throw new DomainError("unknown-topic", `'${raw.slice(0, 60)}' is not a topic; see the list of topics.`);
  return t;
}

export function topicPage({ deps, params }: PageInput): Page {
  const l = linker(deps.links.site);
  const t = topicOf(deps, params[0]!);
  let national: ReturnType<NonNullable<typeof deps.directory>["resources"]> | null = null;
  if (deps.directory?.store.jurisdiction("country:us"))
    national = deps.directory.resources({ jurisdictionId: "country:us" }, t.topic, 0, 100);
  const sources = [...topicList(deps.content, deps.links).sources, ...(national?.sources ?? [])];
  return {
    title: t.name,
    cache: "topics",
    body: (
      <>
        <h1 safe>{t.name}</h1>
        <p class="lede" safe>
          {t.description}
        </p>
        <p class="meta">
          <code>{t.topic}</code>
          {t.functions.length ? (
            <span safe>{` · jobs: ${t.functions.map((f) => FUNCTION_LABEL[f] ?? f).join(", ")}`}</span>
          ) : (
            ""
          )}
        </p>
        {t.guide_url ? (
          <form class="inline" method="get" action={l.local(t.guide_url)}>
            <label for="guide-state">
              Read the guide for a state
              <StateSelect name="state" id="guide-state" anyLabel="All states" />
            </label>
            <button type="submit">Read the guide</button>
          </form>
        ) : (
          <p class="none">No guide is written for this topic yet.</p>
        )}
        {national ? (
          <Section id="national" title="National websites on this topic">
            <ResourceList
              list={national.data.resources}
              l={l}
              empty="No national websites are listed for this topic."
            />
          </Section>
        ) : (
          ""
        )}
        <p>
          For a place's own websites on this topic, find the place with the <a href={l.path("/search")}>search</a>.
        </p>
        <SourcesView
          sources={sources}
          notices={national?.notices}
          asOf={deps.asOf}
          site={deps.links.site}
          pageUrl={t.page_url}
        />
      </>
    ),
  };
}

const RULE_ROWS = [
  ["assessment", "Assessment"],
  ["tax_collection", "Tax collection"],
  ["recording", "Recording"],
  ["zoning", "Zoning"],
  ["exemptions", "Exemptions"],
] as const;

export function guidePage({ deps, params, url }: PageInput): Page {
  const l = linker(deps.links.site);
  const raw = url.searchParams.get("state");
  const state = raw === null || raw === "" ? undefined : raw;
  const { data: g, sources } = guide(deps.content, deps.links, params[0]!, state);
  return {
    title: g.state ? `${g.title} (${g.state})` : g.title,
    cache: "guides",
    body: (
      <>
        <h1 safe>{g.title}</h1>
        <p class="lede" safe>
          {g.summary}
        </p>
        <form class="inline" method="get" action={l.path(`/guides/${g.topic}`)}>
          <label for="guide-state">
            State
            <StateSelect name="state" id="guide-state" value={g.state} anyLabel="All states" />
          </label>
          <button type="submit">Show</button>
        </form>
        {g.state_summary ? (
          <p class="card" safe>
            {g.state_summary}
          </p>
        ) : g.state ? (
          <p class="none" safe>{`No rules for ${g.state} are held in this directory.`}</p>
        ) : (
          ""
        )}
        {g.state_rules ? (
          <Section id="rules" title={`Who does what in ${g.state_rules.name}`}>
            <table class="stack">
              <thead>
                <tr>
                  <th scope="col">Job</th>
                  <th scope="col">Office</th>
                  <th scope="col">Level</th>
                  <th scope="col">Note</th>
                </tr>
              </thead>
              <tbody>
                {RULE_ROWS.map(([k, label]) => {
                  const r = g.state_rules![k];
                  return (
                    <tr>
                      <th scope="row">{label}</th>
                      <td data-label="Office" safe>
                        {r?.office ?? "—"}
                      </td>
                      <td data-label="Level" safe>
                        {r?.where ?? r?.level ?? "—"}
                      </td>
                      <td data-label="Note" safe>
                        {r?.note ?? ""}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
            <p>
              <a href={l.local(g.state_rules.page_url)} safe>{`The ${g.state_rules.name} page of this directory`}</a>
            </p>
          </Section>
        ) : (
          ""
        )}
        {g.sections.map((s) => (
          <section>
            {s.heading ? <h2 safe>{s.heading}</h2> : ""}
            {s.text.split(/\n\s*\n/).map((para) => (
              <p safe>{para}</p>
            ))}
          </section>
        ))}
        {g.also.length ? (
          <Section id="also" title="Related guides">
            <ul>
              {g.also.map((a) => (
                <li>
                  <a href={l.local(a.page_url)} safe>
                    {a.title}
                  </a>
                </li>
              ))}
            </ul>
          </Section>
        ) : (
          ""
        )}
        <SourcesView sources={sources} asOf={deps.asOf} site={deps.links.site} pageUrl={g.page_url} />
      </>
    ),
  };
}
