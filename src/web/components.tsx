/** @jsxImportSource @kitajs/html */
// Pieces shared by the pages: a jurisdiction link, the chain, a link with its verification, resource and office
// lists, who does each job, and the sources credit of spec part 9. Text children are escaped by @kitajs/html
// (`safe`); attributes are always escaped by it.
import type { Children } from "@kitajs/html";
import type { SourceOut } from "../domain/source";
import type { JurisdictionOut } from "../directory/jurisdictions";
import type { ResourceOut } from "../directory/resources";
import { FUNCTIONS } from "../domain/vocabulary";
import { uniqueSources } from "../http/respond";
import { FUNCTION_LABEL, ROLE_LABEL, STATUS_LABEL, TYPE_LABEL, dateOf, type Linker } from "./site";

type Office = {
  office_id: string;
  name: string;
  kind?: string | null;
  jurisdiction_id: string;
  phone?: string | null;
  email?: string | null;
  address?: string | null;
  url?: string | null;
  verified_status?: string;
  verified_at?: string | null;
  page_url?: string;
};

export function JurLink({ j, l }: { j: Pick<JurisdictionOut, "name" | "page_url" | "state" | "type">; l: Linker }) {
  return (
    <a href={l.local(j.page_url)} safe>
      {j.name}
    </a>
  );
}

export function Chain({ chain, l }: { chain: JurisdictionOut[]; l: Linker }) {
  // a town that is the same government as a city in the chain is shown once, as the city
  const shown = chain.filter(
    (j) =>
      !(j.type === "cousub" && chain.some((c) => c.type === "place" && (j.same_as ?? []).includes(c.jurisdiction_id))),
  );
  return (
    <nav aria-label="Governments covering this place" class="chain">
      <ol>
        {shown.map((j) => (
          <li>
            <span class="kind" safe>
              {TYPE_LABEL[j.type] ?? j.type}
            </span>{" "}
            <JurLink j={j} l={l} />
          </li>
        ))}
      </ol>
    </nav>
  );
}

/** Verification status and date of a link, as spec part 9 asks ("with their verification date"). */
export function Verification({
  status,
  at,
  method,
  http,
}: {
  status?: string | null;
  at?: string | null;
  method?: string | null;
  http?: number | null;
}) {
  const s = status ?? "not_yet_verified";
  const bits = [
    STATUS_LABEL[s] ?? s,
    at ? `on ${dateOf(at)}` : null,
    method ? `(${method})` : null,
    http != null ? `HTTP ${http}` : null,
  ]
    .filter(Boolean)
    .join(" ");
  return (
    <span class={`status status-${s.replaceAll("_", "-")}`} safe>
      {bits}
    </span>
  );
}

function ResourceItem({ r, l }: { r: ResourceOut; l: Linker }) {
  return (
    <li class="resource">
      <a href={r.url} rel="noopener" safe>
        {r.name}
      </a>{" "}
      <Verification status={r.verified_status} at={r.verified_at} />
      {r.description ? (
        <p class="desc" safe>
          {r.description}
        </p>
      ) : (
        ""
      )}
      <p class="meta">
        {r.publisher ? <span safe>{r.publisher}</span> : ""}
        {r.official ? " · official" : " · unofficial"} ·{" "}
        <a href={l.local(r.page_url)}>
          details<span class="vh" safe>{` about ${r.name}`}</span>
        </a>
      </p>
    </li>
  );
}

export function ResourceList({ list, l, empty }: { list: ResourceOut[]; l: Linker; empty?: string }) {
  if (!list.length)
    return (
      <p class="none" safe>
        {empty ?? "None listed."}
      </p>
    );
  return (
    <ul class="resources">
      {list.map((r) => (
        <ResourceItem r={r} l={l} />
      ))}
    </ul>
  );
}

export function OfficeItem({ o, l }: { o: Office; l: Linker }) {
  return (
    <div class="office">
      <p>
        <strong safe>{o.name}</strong>
        {o.page_url ? (
          <>
            {" "}
            ·{" "}
            <a href={l.local(o.page_url)}>
              office page<span class="vh" safe>{` of ${o.name}`}</span>
            </a>
          </>
        ) : (
          ""
        )}
      </p>
      {o.url ? (
        <p>
          <a class="bare" href={o.url} rel="noopener" safe>
            {o.url}
          </a>{" "}
          <Verification status={o.verified_status} at={o.verified_at} />
        </p>
      ) : (
        ""
      )}
      {o.phone ? (
        <p>
          Phone: <span safe>{o.phone}</span>
        </p>
      ) : (
        ""
      )}
      {o.email ? (
        <p>
          Email: <span safe>{o.email}</span>
        </p>
      ) : (
        ""
      )}
      {o.address ? (
        <p>
          Address: <span safe>{o.address}</span>
        </p>
      ) : (
        ""
      )}
    </div>
  );
}

export type Entry = {
  function: string;
  jurisdiction_id: string | null;
  office_name: string | null;
  office?: Office | null;
  resources: ResourceOut[];
  role?: string;
  levy_scope?: string | null;
  basis?: string | null;
  evidence_url?: string | null;
  also?: Entry[];
};

export function EntryView({
  e,
  l,
  chain,
  noBody,
}: {
  e: Entry;
  l: Linker;
  chain: JurisdictionOut[];
  /** what to say when no one body does the job for all of the place (a state's page: each county) */
  noBody?: string;
}) {
  const body = chain.find((j) => j.jurisdiction_id === e.jurisdiction_id);
  return (
    <div class="entry">
      <p>
        {e.role && e.role !== "primary" ? <span class="role" safe>{`${ROLE_LABEL[e.role] ?? e.role}: `}</span> : ""}
        {e.office_name ? (
          <>
            <strong safe>{e.office_name}</strong>
            {body ? (
              <>
                , <JurLink j={body} l={l} />
              </>
            ) : (
              ""
            )}
          </>
        ) : body ? (
          <>
            <strong>
              <JurLink j={body} l={l} />
            </strong>{" "}
            <span class="meta">(its office for this is not listed yet)</span>
          </>
        ) : e.jurisdiction_id ? (
          <a href={l.path(`/places/${e.jurisdiction_id}`)}>The government that does this job</a>
        ) : (
          <strong safe>{noBody ?? "Not named here"}</strong>
        )}
        {e.levy_scope && e.levy_scope !== "all" ? <span safe>{` (${e.levy_scope} taxes)`}</span> : ""}
      </p>
      {e.basis ? (
        <p class="basis" safe>
          {e.basis}
        </p>
      ) : (
        ""
      )}
      {e.evidence_url ? (
        <p class="meta">
          Evidence:{" "}
          <a class="bare" href={e.evidence_url} rel="noopener" safe>
            {e.evidence_url}
          </a>
        </p>
      ) : (
        ""
      )}
      {e.office ? <OfficeItem o={e.office} l={l} /> : ""}
      {e.resources.length ? <ResourceList list={e.resources} l={l} /> : ""}
    </div>
  );
}

/** Who does each job: one section per function, the primary body first, then any others (`also`). */
export function FunctionsView({
  functions,
  chain,
  l,
  noBody,
}: {
  functions: Record<string, unknown>;
  chain: JurisdictionOut[];
  l: Linker;
  noBody?: string;
}) {
  return (
    <div class="functions">
      {FUNCTIONS.filter((f) => functions[f]).map((f) => {
        const e = functions[f] as Entry;
        return (
          <section class="job" aria-labelledby={`job-${f}`}>
            <h3 id={`job-${f}`} safe>
              {FUNCTION_LABEL[f] ?? f}
            </h3>
            <EntryView e={e} l={l} chain={chain} noBody={noBody} />
            {(e.also ?? []).map((a) => (
              <EntryView e={a} l={l} chain={chain} />
            ))}
          </section>
        );
      })}
    </div>
  );
}

/** Where the page's data comes from (part 9: credit the service as the data origin with a link). */
export function SourcesView({
  sources,
  notices,
  asOf,
  site,
  pageUrl,
}: {
  sources: SourceOut[];
  notices?: string[];
  asOf: string;
  site: string;
  pageUrl?: string;
}) {
  // one entry per source name: a source cited with several pages (e.g. the authored rules, each with its evidence)
  // lists its pages after its name, not the name again
  const groups = new Map<string, SourceOut[]>();
  for (const s of uniqueSources(sources)) groups.set(s.name, [...(groups.get(s.name) ?? []), s]);
  const hostOf = (u: string) => {
    try {
      return new URL(u).host;
    } catch {
      return u;
    }
  };
  return (
    <section class="sources" aria-labelledby="sources-h">
      <h2 id="sources-h">Sources</h2>
      {(notices ?? []).map((n) => (
        <p class="notice" safe>
          {n}
        </p>
      ))}
      {sources.length ? (
        <ul>
          {[...groups.values()]
            .map(([s, ...more]) => [s!, more] as const)
            .map(([s, more]) => (
              <li>
                <a href={s.url} rel="noopener" safe>
                  {s.name}
                </a>
                {more.length
                  ? more.map((m) => (
                      <>
                        {", "}
                        <a href={m.url} rel="noopener" safe>
                          {hostOf(m.url)}
                        </a>
                      </>
                    ))
                  : ""}
                <span class="meta" safe>
                  {[
                    ` · ${s.publisher ?? "publisher not recorded"}`,
                    s.official ? "official" : "not official",
                    `licence: ${s.license_class.replaceAll("_", " ")}`,
                    s.retrieved_at ? `retrieved ${dateOf(s.retrieved_at)}` : null,
                  ]
                    .filter(Boolean)
                    .join(" · ")}
                </span>
                {s.verified_status ? (
                  <>
                    {" "}
                    <Verification status={s.verified_status} at={s.verified_at} />
                  </>
                ) : (
                  ""
                )}
              </li>
            ))}
        </ul>
      ) : (
        <p class="none">No outside sources.</p>
      )}
      <p class="cite">
        Cite as: Property, Land and GIS Directory,{" "}
        <a class="bare" href={pageUrl ?? site} safe>
          {pageUrl ?? site}
        </a>
        , data as of <span safe>{dateOf(asOf) ?? asOf}</span>. The named office has the final say; this directory is a
        guide, not an authority.
      </p>
    </section>
  );
}

export function Section({ id, title, children }: { id: string; title: string; children?: Children }) {
  return (
    <section aria-labelledby={id}>
      <h2 id={id} safe>
        {title}
      </h2>
      {children}
    </section>
  );
}
