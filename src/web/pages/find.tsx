/** @jsxImportSource @kitajs/html */
// /find?address= | ?lat=&lon= | ?place=&state=: who covers a place, from the one domain call behind
// GET /v1/jurisdictions/resolve (the same rules, geocoding, caches and lookup limit), shown like a place page.
// The point fields take coordinates as people paste them (src/web/coordinates.ts).
import { Chain, FunctionsView, Section, SourcesView } from "../components";
import { FindForms } from "../forms";
import { linker, type Page, type PageInput } from "../site";
import { directoryOf } from "../../http/deps";
import { field, hasAny, problemPage } from "./problem-page";
import { pointOfForm } from "../coordinates";
import { DomainError } from "../../domain/errors";
import { resolveBy, type Selector } from "../../directory/resolve-by";

const KEYS = ["address", "lat", "lon", "place", "state"];

/** The one selector of the find forms, in words for people when there is none or more than one. */
function selectorOf(url: URL): Selector {
  const point = hasAny(url, ["lat", "lon"]),
    address = field(url, "address"),
    place = field(url, "place");
  if ([point, !!address, !!place].filter(Boolean).length !== 1)
    throw new DomainError("bad-parameter", "Fill in one form: an address, a point, or a place name.");
  if (point) return pointOfForm(field(url, "lat"), field(url, "lon"));
  if (address) {
    if (address.length < 3 || address.length > 200)
      throw new DomainError("bad-parameter", "An address has 3 to 200 characters.");
    return { address };
  }
  if (place.length < 2 || place.length > 100)
    throw new DomainError("bad-parameter", "A place name has 2 to 100 characters.");
  return { place, state: field(url, "state").toUpperCase() || undefined };
}

export async function findPage({ deps, url }: PageInput): Promise<Page> {
  const l = linker(deps.links.site);
  const given = Object.fromEntries(KEYS.map((k) => [k, url.searchParams.get(k) ?? ""]));
  if (!hasAny(url, ["address", "lat", "lon", "place"])) {
    return {
      title: "Find",
      body: (
        <>
          <h1>Find who covers a place</h1>
          <FindForms l={l} level={2} />
        </>
      ),
    };
  }
  let res;
  try {
    res = await resolveBy(directoryOf(deps), deps.addresses, selectorOf(url));
  } catch (e) {
    const choices = (e instanceof DomainError && e.extra.choices) || [];
    return problemPage(
      e,
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
        <FindForms l={l} v={given} level={2} />
      </>,
    );
  }
  const d = res.data as any;
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
        <SourcesView sources={res.sources} notices={res.notices} asOf={deps.asOf} site={deps.links.site} />
      </>
    ),
  };
}
