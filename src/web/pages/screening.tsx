/** @jsxImportSource @kitajs/html */
// /screening?lat=&lon=: the form, and the facts of the one domain call behind GET /v1/screening (screenAt: the
// same lookups, caches and lookup limit as the API). Every fact is shown as screening with its caveat and who
// decides; a server without screening says so plainly. The point fields take coordinates as people paste them.
import { Chain, EntryView, ResourceList, SourcesView, type Entry } from "../components";
import { PointForm } from "../forms";
import { dateOf, linker, type Linker, type Page, type PageInput } from "../site";
import { directoryOf } from "../../http/deps";
import { field, hasAny, problemPage } from "./problem-page";
import { pointOfForm } from "../coordinates";
import { DRAWING_RADIUS_M, screenAt } from "../../directory/screen-at";
import { PointDrawing } from "../point-drawing";
import { radon } from "../../lookups/screening/radon";
import type { Reading } from "../../lookups/screening/types";

const Banner = () => (
  <p class="banner" role="note">
    <strong>Screening, not a determination.</strong> These facts are read from national and state maps for one exact
    point. Maps can be coarse, old or wrong for a single lot. The office named under “Who decides” makes the official
    decision.
  </p>
);

interface Fact extends Reading {
  caveat: string;
  decided_by: { description: string; function: string | null; office: Entry | null };
  resources: any[];
}

function FactView({ id, label, f, chain, l }: { id: string; label: string; f: Fact; chain: any[]; l: Linker }) {
  const values = Object.entries(f.values ?? {}).filter(
    ([, v]) => v !== null && v !== undefined && typeof v !== "object",
  );
  return (
    <section class="fact" aria-labelledby={`fact-${id}`}>
      <h2 id={`fact-${id}`} safe>
        {label}
      </h2>
      <p class="lede">
        <strong safe>{f.summary}</strong> <span class="meta" safe>{`(screening status: ${f.status})`}</span>
      </p>
      {f.detail ? <p safe>{f.detail}</p> : ""}
      <p class="caveat">
        <strong>Caveat:</strong> <span safe>{f.caveat}</span>
      </p>
      <div class="decides">
        <p>
          <strong>Who decides:</strong> <span safe>{f.decided_by.description}</span>
        </p>
        {f.decided_by.office ? <EntryView e={f.decided_by.office} l={l} chain={chain} /> : ""}
      </div>
      <dl class="facts">
        <dt>Data</dt>
        <dd safe>{f.dataset}</dd>
        <dt>Publisher</dt>
        <dd safe>{f.publisher}</dd>
        <dt>Map date</dt>
        <dd safe>{dateOf(f.as_of) ?? "not stated"}</dd>
        {values.map(([k, v]) => (
          <>
            <dt safe>{k.replaceAll("_", " ")}</dt>
            <dd safe>{String(v)}</dd>
          </>
        ))}
      </dl>
      {f.resources?.length ? (
        <>
          <h3>Where to confirm</h3>
          <ResourceList list={f.resources} l={l} />
        </>
      ) : (
        ""
      )}
    </section>
  );
}

export async function screeningPage({ deps, url }: PageInput): Promise<Page> {
  const l = linker(deps.links.site);
  const lat = field(url, "lat"),
    lon = field(url, "lon");
  const form = <PointForm l={l} lat={lat} lon={lon} action="/screening" button="Screen this point" />;
  if (!hasAny(url, ["lat", "lon"])) {
    return {
      title: "Point screening",
      body: (
        <>
          <h1>Point screening</h1>
          <Banner />
          {form}
        </>
      ),
    };
  }
  if (!deps.screening) {
    return {
      title: "Screening is not available",
      status: 404,
      noStore: true,
      body: (
        <>
          <h1>Screening is not available on this server</h1>
          <p class="lede">
            This server does not offer point screening. The directory of offices and links still works.
          </p>
          <p>
            <a href={l.path(`/find?lat=${encodeURIComponent(lat)}&lon=${encodeURIComponent(lon)}`)}>
              Find who covers this point
            </a>{" "}
            instead.
          </p>
        </>
      ),
    };
  }
  let res;
  try {
    const p = pointOfForm(lat, lon);
    res = await screenAt(directoryOf(deps), deps.screening, p.lon, p.lat, { drawing: true });
  } catch (e) {
    return problemPage(
      e,
      "Point screening",
      <>
        <Banner />
        {form}
      </>,
    );
  }
  const d = res.data as any;
  // every fact of the answer under its definition's label (src/lookups/screening): the services in their order,
  // then radon, a county-wide prediction
  const facts = [...deps.screening.services, radon].filter((f) => d.facts[f.name]);
  const chain = d.jurisdictions ?? [];
  const [plon, plat] = d.point.coordinates;
  return {
    title: `Screening at ${plat}, ${plon}`,
    cache: "screening",
    body: (
      <>
        <h1 safe>{`Screening at ${plat}, ${plon}`}</h1>
        <Banner />
        <section class="summary" aria-labelledby="summary-h">
          <h2 id="summary-h">In short</h2>
          <ul>
            {facts.map(({ name, label }) => (
              <li>
                <a href={`#fact-${name}`} safe>
                  {label}
                </a>
                <span safe>{`: ${d.facts[name].summary}`}</span>
              </li>
            ))}
          </ul>
          <p class="meta">Each is screening from a map; the details below name the map, its date and who decides.</p>
        </section>
        {res.drawing?.layers.length ? (
          <PointDrawing lon={plon} lat={plat} radiusM={DRAWING_RADIUS_M} {...res.drawing} />
        ) : (
          ""
        )}
        <Chain chain={chain} l={l} />
        {facts.map(({ name, label }) => (
          <FactView id={name} label={label} f={d.facts[name]} chain={chain} l={l} />
        ))}
        {form}
        <SourcesView sources={res.sources as any[]} notices={res.notices} asOf={deps.asOf} site={deps.links.site} />
      </>
    ),
  };
}
