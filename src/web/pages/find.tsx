/** @jsxImportSource @kitajs/html */
// /find?address= | ?lat=&lon= | ?place=&state=: who covers a place, answered by GET /v1/jurisdictions/resolve
// in-process (the same selector rules, geocoding and limits as the API), shown like a place page.
import { Chain, FunctionsView, Section, SourcesView } from "../components";
import { FindForms } from "../forms";
import { linker, type Page, type PageInput } from "../site";
import { apiQuery, hasAny, problemAsPage } from "./via-api";

const KEYS = ["address", "lat", "lon", "place", "state"];
const SELECTORS = ["address", "lat", "lon", "place"];
export const findViaApi = (url: URL) => hasAny(url, SELECTORS);

export async function findPage({ deps, url, api }: PageInput): Promise<Page> {
  const l = linker(deps.links.site);
  const given = Object.fromEntries(KEYS.map((k) => [k, url.searchParams.get(k) ?? ""]));
  if (!findViaApi(url)) {
    return {
      title: "Find",
      body: (
        <>
          <h1>Find who covers a place</h1>
          <FindForms l={l} />
        </>
      ),
    };
  }
  const res = await api(`/v1/jurisdictions/resolve?${apiQuery(url, KEYS)}`);
  if (res.status !== 200) {
    const choices: { label: string; lat?: number; lon?: number; page_url?: string }[] = res.json?.choices ?? [];
    return problemAsPage(
      res,
      "Find who covers a place",
      <>
        {choices.length ? (
          <Section id="choices" title="Pick one">
            <ul>
              {choices.map((c) => (
                <li>
                  {c.page_url ? (
                    <a href={l.local(c.page_url)} safe>
                      {c.label}
                    </a>
                  ) : (
                    <a href={l.path(`/find?lat=${c.lat}&lon=${c.lon}`)} safe>
                      {c.label}
                    </a>
                  )}
                </li>
              ))}
            </ul>
          </Section>
        ) : (
          ""
        )}
        <FindForms l={l} v={given} />
      </>,
    );
  }
  const d = res.json.data;
  const chain = d.jurisdictions as any[];
  const smallest = chain[chain.length - 1];
  const [lon, lat] = d.point?.coordinates ?? [];
  return {
    title: d.match.label ? `Found: ${d.match.label}` : "Found",
    body: (
      <>
        <h1>Who covers this place</h1>
        <p class="lede">
          {d.match.label ? (
            <span safe>{`Matched ${d.match.by === "address" ? "address" : d.match.by}: ${d.match.label}`}</span>
          ) : (
            <span safe>{`Point ${lat}, ${lon}`}</span>
          )}
          {d.match.approximate ? <strong> (approximate: only a street or area matched)</strong> : ""}
        </p>
        <Chain chain={chain} l={l} />
        {smallest ? (
          <p>
            Full directory of the smallest body:{" "}
            <a href={l.local(smallest.page_url)} safe>
              {smallest.name}
            </a>
            .
          </p>
        ) : (
          ""
        )}
        {d.point ? (
          <p>
            <a href={l.path(`/screening?lat=${lat}&lon=${lon}`)}>Screen this point</a> (flood, wetlands, soils,
            elevation, radon).
          </p>
        ) : (
          ""
        )}
        <Section id="jobs" title="Who does each job">
          <FunctionsView functions={d.functions} chain={chain} l={l} />
        </Section>
        <SourcesView
          sources={res.json.sources ?? []}
          notices={res.json.notices}
          asOf={res.json.as_of ?? deps.asOf}
          site={deps.links.site}
        />
      </>
    ),
  };
}
