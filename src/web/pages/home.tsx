/** @jsxImportSource @kitajs/html */
// The front page: what this is, search, find by address / point / place, how to use the API and the MCP server,
// and the terms of use of spec part 9.
import { TOPICS } from "../../domain/vocabulary";
import { FindForms, PointForm, SearchForm } from "../forms";
import { dateOf, linker, type Page, type PageInput } from "../site";

export function homePage({ deps }: PageInput): Page {
  const l = linker(deps.links.site);
  const base = deps.config.base_url;
  const lim = deps.config.limits;
  const names = new Map(deps.content.topics.map((t) => [t.topic, t.name]));
  return {
    title: "Home",
    body: (
      <>
        <h1>Property, Land and GIS Directory</h1>
        <p class="lede">
          Which governments cover a place, which office does each job (assessment, property tax, deeds, zoning, permits,
          GIS and parcel maps), and links to their official pages, each with its verification status and date.
        </p>
        <p>
          It also has plain-language guides and point screening facts (flood, wetlands, soils, elevation, radon,
          Minnesota shoreland). It is a guide, not an authority: the named office has the final say. Data as of{" "}
          <span safe>{dateOf(deps.asOf) ?? deps.asOf}</span>.
        </p>

        <h2 id="search-h">Search by name</h2>
        <SearchForm l={l} />

        <h2 id="find-h">Find who covers a place</h2>
        <FindForms l={l} />

        <h2 id="screen-h">Screen a point</h2>
        <p>
          Flood zone, wetlands, soils, elevation, radon zone and, in Minnesota, shoreland for one exact point. Screening
          only, never a determination.
        </p>
        <PointForm l={l} action="/screening" button="Screen this point" />

        <h2 id="topics-h">Topics</h2>
        <ul class="topics">
          {TOPICS.map((t) => (
            <li>
              <a href={l.path(`/topics/${t}`)} safe>
                {names.get(t) ?? t}
              </a>
            </li>
          ))}
        </ul>

        <h2 id="api">Use the API</h2>
        <p>
          Every page here has a JSON twin under <code safe>{base}</code>, described by{" "}
          <a href={l.path("/v1/openapi.json")}>the OpenAPI document</a>. Anonymous use is allowed (
          <span
            safe
          >{`${lim.anon_address.per_minute} requests a minute and ${lim.anon_address.per_day} a day per address; ${lim.anon_list_address.per_minute} a minute and ${lim.anon_list_address.per_day} a day for place and resource lists`}</span>
          ; these pages count too). A key raises the limits, never changes a result; send it as{" "}
          <code>Authorization: Bearer …</code> from a server only.
        </p>
        <pre tabindex="0" safe>
          {[
            `curl '${base}/jurisdictions/resolve?lat=44.9778&lon=-93.265'`,
            `curl '${base}/places/county:27053'`,
            `curl '${base}/resources?jurisdiction_id=county:27053&topic=parcel_map'`,
            `curl '${base}/search?q=hennepin&state=MN'`,
            `curl '${base}/guides/assessor?state=VT'`,
            `curl '${base}/screening?lat=44.9778&lon=-93.265'`,
          ].join("\n")}
        </pre>
        <p>
          Answers carry <code>sources</code>, <code>as_of</code>, <code>notices</code> and a weak ETag; send it back in{" "}
          <code>If-None-Match</code> to get 304.
        </p>

        <h2 id="mcp">Use it from an assistant (MCP)</h2>
        <p>
          The same executable runs an assistant-protocol (MCP) server, <code>directory mcp</code>, over stdio or
          Streamable HTTP on its own port. Its tool <code>get_property_facts</code> is the only way to single-property
          facts (parcel number, acreage, value, last sale); it never gives owner names. Its calls count against the
          anonymous list limits.
        </p>

        <h2 id="terms">Terms of use</h2>
        <p>Formal terms are not yet published. Until then, if you use this data:</p>
        <ul>
          <li>Credit this service as the data origin, with a link to it.</li>
          <li>Show links as they come, with their verification date wherever you show a status.</li>
          <li>Keep screening results labelled as screening, with their caveat.</li>
          <li>Never send names of people to look up: the service never searches for people.</li>
        </ul>
      </>
    ),
  };
}
