// County subdivision polygons: Vermont towns (Census 2010 via VCGI/MGGG) and Minnesota MCDs (2016 precincts).
import type { Inputs } from "./inputs";
import { legalWord } from "./legal";
import { newRow, offerBoundary, type JRow, type Stats } from "./model";

export const VT_TOWNS = "mggg-vt-towns-2010";
export const MN_MCD = "mggg-mn-mcd-2016";

export async function loadVtTowns(inputs: Inputs, rows: Map<string, JRow>, stats: Stats) {
  if (!inputs.has(VT_TOWNS)) return;
  const st = stats.layer("vt towns 2010 (full)");
  for (const f of (await inputs.json(VT_TOWNS)).features) {
    st.read();
    const a = f.properties,
      id = `cousub:${a.GEOID10}`;
    let r = rows.get(id);
    if (!r) {
      const county = `county:${String(a.GEOID10).slice(0, 5)}`;
      r = newRow({
        jurisdiction_id: id,
        type: "cousub",
        name: a.NAMELSAD10,
        legal_type: legalWord(a.NAMELSAD10),
        state: "VT",
        state_fips: "50",
        county_id: rows.has(county) ? county : null,
        source_id: VT_TOWNS,
      });
      rows.set(id, r);
    }
    if (offerBoundary(r, f.geometry, VT_TOWNS, "full")) {
      r.tiger_vintage = "2010";
      st.kept();
    } else st.reject("boundary already held");
  }
  st.done();
}

export async function loadMnMcd(inputs: Inputs, rows: Map<string, JRow>, stats: Stats) {
  if (!inputs.has(MN_MCD)) return;
  const st = stats.layer("mn mcd 2016 from precincts (full)");
  for (const f of (await inputs.json(MN_MCD)).features) {
    st.read();
    const a = f.properties;
    if (!a.GEOID) {
      st.reject("no GEOID (precinct-level unorganized area, or township dissolved/renamed since 2016)");
      continue;
    }
    const id = `cousub:${a.GEOID}`;
    let r = rows.get(id);
    if (!r) {
      const word = a.MCD_TYPE === "township" ? "township" : a.MCD_TYPE === "city" ? "city" : "unorganized territory";
      const county = `county:${String(a.GEOID).slice(0, 5)}`;
      r = newRow({
        jurisdiction_id: id,
        type: "cousub",
        name: `${a.BASENAME} ${word}`,
        legal_type: word,
        state: "MN",
        state_fips: "27",
        county_id: rows.has(county) ? county : null,
        source_id: MN_MCD,
      });
      rows.set(id, r);
    }
    // MnDOT current city boundaries (loaded first) win over the 2016 precinct dissolve.
    if (offerBoundary(r, f.geometry, MN_MCD, "full")) {
      r.tiger_vintage = "2016";
      st.kept();
    } else st.reject("boundary already held (MnDOT city boundary)");
  }
  st.done();
}
