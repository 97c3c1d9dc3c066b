/** @jsxImportSource @kitajs/html */
// /resources/{id}, /offices/{id}, /sources/{id}: one record each, with its body, verification and source trail.
import { officeRecord, resourceRecord, sourceRecord } from "../../directory/records";
import { Chain, OfficeItem, Section, SourcesView, Verification } from "../components";
import { FUNCTION_LABEL, dateOf, linker, type Page, type PageInput } from "../site";
import { directoryOf } from "../../http/deps";

export function resourcePage({ deps, params }: PageInput): Page {
  const dir = directoryOf(deps);
  const l = linker(deps.links.site);
  const rec = resourceRecord(dir, params[0]!);
  const r = rec.data.resource;
  const names = new Map(deps.content.topics.map((t) => [t.topic, t.name]));
  return {
    title: r.name,
    body: (
      <>
        <h1 safe>{r.name}</h1>
        <p class="lede">
          <a class="bare" href={r.url} rel="noopener" safe>
            {r.url}
          </a>
        </p>
        {r.description ? <p safe>{r.description}</p> : ""}
        <Chain chain={rec.data.chain} l={l} />
        <dl class="facts">
          <dt>Link status</dt>
          <dd>
            <Verification status={r.verified_status} at={r.verified_at} />
          </dd>
          <dt>Checked on</dt>
          <dd safe>{dateOf(r.verified_at) ?? "not yet checked"}</dd>
          <dt>How checked</dt>
          <dd>{r.verification_method ?? "not yet checked"}</dd>
          <dt>Last HTTP status</dt>
          <dd>{r.last_http_status ?? "none recorded"}</dd>
          <dt>Body</dt>
          <dd>
            <a href={l.local(rec.data.jurisdiction.page_url)} safe>
              {rec.data.jurisdiction.name}
            </a>
          </dd>
          <dt>Publisher</dt>
          <dd safe>{r.publisher ?? "not recorded"}</dd>
          {r.provider ? (
            <>
              <dt>Run by</dt>
              <dd safe>{r.provider}</dd>
            </>
          ) : (
            ""
          )}
          <dt>Official</dt>
          <dd>{r.official ? "yes, published by a government body" : "no"}</dd>
          <dt>Topics</dt>
          <dd>
            {r.topics.map((t, i) => (
              <>
                {i ? ", " : ""}
                <a href={l.path(`/topics/${t}`)} safe>
                  {names.get(t) ?? t}
                </a>
              </>
            ))}
          </dd>
          {r.search_url_template ? (
            <>
              <dt>Search link template</dt>
              <dd>
                <code safe>{r.search_url_template}</code>
              </dd>
            </>
          ) : (
            ""
          )}
          <dt>How gathered</dt>
          <dd safe>{r.source_kind}</dd>
          <dt>Resource id</dt>
          <dd>
            <code safe>{r.resource_id}</code>
          </dd>
        </dl>
        <SourcesView
          sources={rec.sources}
          notices={rec.notices}
          asOf={deps.asOf}
          site={deps.links.site}
          pageUrl={r.page_url}
        />
      </>
    ),
  };
}

export function officePage({ deps, params }: PageInput): Page {
  const dir = directoryOf(deps);
  const l = linker(deps.links.site);
  const rec = officeRecord(dir, params[0]!);
  const o = rec.data.office;
  return {
    title: o.name,
    body: (
      <>
        <h1 safe>{o.name}</h1>
        <p class="lede">
          Office of{" "}
          <a href={l.local(rec.data.jurisdiction.page_url)} safe>
            {rec.data.jurisdiction.name}
          </a>
          {rec.data.function ? <span safe>{` · ${FUNCTION_LABEL[rec.data.function] ?? rec.data.function}`}</span> : ""}
          {o.kind ? <span safe>{` · ${o.kind}`}</span> : ""}
        </p>
        <Chain chain={rec.data.chain} l={l} />
        <Section id="contact" title="Contact and website">
          <OfficeItem o={{ ...o, page_url: undefined }} l={l} />
          {o.url ? "" : <p class="none">No website is recorded for this office.</p>}
        </Section>
        <SourcesView
          sources={rec.sources}
          notices={rec.notices}
          asOf={deps.asOf}
          site={deps.links.site}
          pageUrl={o.page_url}
        />
      </>
    ),
  };
}

export function sourcePage({ deps, params }: PageInput): Page {
  const dir = directoryOf(deps);
  const l = linker(deps.links.site);
  const s = sourceRecord(dir, params[0]!);
  const own = `${deps.links.site}/sources/${encodeURIComponent(s.source_id)}`;
  return {
    title: s.source.name,
    body: (
      <>
        <h1 safe>{s.source.name}</h1>
        <p class="lede">A source of the records in this directory.</p>
        <dl class="facts">
          <dt>Publisher</dt>
          <dd safe>{s.source.publisher ?? "not recorded"}</dd>
          <dt>Where it is</dt>
          <dd>
            {s.stored_path ? (
              <>
                kept with this project at <code safe>{s.stored_path}</code>
              </>
            ) : (
              <a class="bare" href={s.source.url} rel="noopener" safe>
                {s.source.url}
              </a>
            )}
          </dd>
          <dt>Official</dt>
          <dd>{s.source.official ? "yes" : "no (authored or third party)"}</dd>
          <dt>Licence</dt>
          <dd safe>{[s.source.license_class.replaceAll("_", " "), s.license].filter(Boolean).join(": ")}</dd>
          <dt>Vintage</dt>
          <dd safe>{s.vintage ?? "not recorded"}</dd>
          <dt>Retrieved</dt>
          <dd safe>{dateOf(s.source.retrieved_at) ?? "not recorded"}</dd>
          {s.sha256 ? (
            <>
              <dt>SHA-256 of the file used</dt>
              <dd>
                <code safe>{s.sha256}</code>
              </dd>
            </>
          ) : (
            ""
          )}
          <dt>Source id</dt>
          <dd>
            <code safe>{s.source_id}</code>
          </dd>
        </dl>
        <p>
          Records built from this source name it in the <code>sources</code> of every API answer that holds them.{" "}
          <a href={l.path("/")}>Back to the directory</a>.
        </p>
        <SourcesView sources={[]} asOf={deps.asOf} site={deps.links.site} pageUrl={own} />
      </>
    ),
  };
}
