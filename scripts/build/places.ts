// Census TIGER/Line 2019 places: incorporated places only (CLASSFP C*); CDPs (U1/U2/M2) are left out.
import type { Inputs } from "./inputs";
import { legalWord } from "./legal";
import { BY_FIPS } from "./states";
import { newRow, offerBoundary, type JRow, type Stats } from "./model";

export const FULL_PLACE_FILES = ["mn", "vt", "ri", "ct", "wi", "ny"].map((s) => `census-tiger-2019-places-${s}`);
export const SIMPLIFIED_PLACES = "census-tiger-2019-places-us-simplified";

/** Internal points of places, for county_id assignment. */
export type IntPts = Map<string, [number, number]>;

export async function loadPlaces(inputs: Inputs, rows: Map<string, JRow>, stats: Stats, intpts: IntPts) {
  const layers: [string, string][] = [
    ...FULL_PLACE_FILES.map((id) => [id, "full"] as [string, string]),
    [SIMPLIFIED_PLACES, "simplified_20m"],
  ];
  const cdps = new Set<string>();
  for (const [src, precision] of layers) {
    if (!inputs.has(src)) {
      stats.note(`${src}: file not present, skipped`);
      continue;
    }
    const st = stats.layer(`places ${src} (${precision})`);
    const fc = await inputs.json(src);
    for (const f of fc.features) {
      st.read();
      const a = f.properties;
      const geoid: string = a.GEOID;
      const info = BY_FIPS.get(geoid.slice(0, 2));
      if (!info) {
        st.reject("unknown state FIPS");
        continue;
      }
      if (!String(a.CLASSFP).startsWith("C")) {
        cdps.add(geoid);
        st.reject(`census-designated place (CLASSFP ${a.CLASSFP}), not a government`);
        continue;
      }
      const id = `place:${geoid}`;
      let r = rows.get(id);
      if (!r) {
        r = newRow({
          jurisdiction_id: id,
          type: "place",
          name: a.NAMELSAD,
          legal_type: legalWord(a.NAMELSAD),
          state: info.postal,
          state_fips: info.fips,
          incorporated: 1,
          source_id: src,
        });
        rows.set(id, r);
      }
      r.funcstat = a.FUNCSTAT ?? r.funcstat;
      r.incorporated = 1;
      r.tiger_vintage = "2019";
      const lat = parseFloat(a.INTPTLAT),
        lon = parseFloat(a.INTPTLON);
      if (Number.isFinite(lat) && Number.isFinite(lon)) intpts.set(id, [lon, lat]);
      if (offerBoundary(r, f.geometry, src, precision)) st.kept();
      else st.reject("already held at equal or better precision");
    }
    st.done();
  }
  // An OCD place that TIGER 2019 calls a CDP would not be a government: report (none expected).
  let ocdCdp = 0;
  for (const g of cdps)
    if (rows.get(`place:${g}`)?.incorporated === 1 && rows.get(`place:${g}`)!.boundary_rank === 0) ocdCdp++;
  if (ocdCdp) stats.note(`ocd places that TIGER 2019 lists only as CDP: ${ocdCdp} (kept, no boundary)`);
  return { cdps: cdps.size };
}
