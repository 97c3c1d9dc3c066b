// Minnesota from MnDOT: the jurisdiction lookup (city cousub <-> place crosswalk, townships, unorganized
// territories) and the current city boundaries (one polygon per city per county part).
import type { Inputs } from "./inputs";
import { parseCsv } from "./csv";
import { newRow, offerBoundary, type JRow, type Stats } from "./model";
import type { Geometry } from "./geom";
import { toMulti } from "./geom";

export const MN_LOOKUP = "mndot-jurisdiction-lookup";
export const MN_CITIES = "mndot-city-boundaries";

const CLASS_WORD: Record<string, string> = {
  CITY: "city",
  TOWNSHIP: "township",
  "UNORGANIZED TERRITORY": "unorganized territory",
};

/** Returns the MnDOT city pairs [cousub id, place id]. */
export async function loadMnDot(inputs: Inputs, rows: Map<string, JRow>, stats: Stats): Promise<[string, string][]> {
  const pairs: [string, string][] = [];
  if (inputs.has(MN_LOOKUP)) {
    const st = stats.layer("mndot jurisdiction lookup");
    for (const r of parseCsv(await inputs.text(MN_LOOKUP))) {
      st.read();
      const word = CLASS_WORD[r.CTU_CLASS];
      if (!word) {
        st.reject(`${r.CTU_CLASS} row (not a cousub)`);
        continue;
      }
      const cousub = r.COUSUB_GEOID_DERIVED;
      if (!/^27\d{8}$/.test(cousub)) {
        st.reject("no cousub GEOID");
        continue;
      }
      const county = `county:${cousub.slice(0, 5)}`;
      const cid = `cousub:${cousub}`;
      if (!rows.has(cid))
        rows.set(
          cid,
          newRow({
            jurisdiction_id: cid,
            type: "cousub",
            name: `${r.FEATURE_NAME} ${word}`,
            legal_type: word,
            state: "MN",
            state_fips: "27",
            county_id: rows.has(county) ? county : null,
            tiger_vintage: "2026",
            source_id: MN_LOOKUP,
          }),
        );
      if (r.CTU_CLASS === "CITY" && /^27\d{5}$/.test(r.PLACE_GEOID_DERIVED)) {
        const pid = `place:${r.PLACE_GEOID_DERIVED}`;
        if (!rows.has(pid))
          rows.set(
            pid,
            newRow({
              jurisdiction_id: pid,
              type: "place",
              name: `${r.FEATURE_NAME} city`,
              legal_type: "city",
              state: "MN",
              state_fips: "27",
              incorporated: 1,
              tiger_vintage: "2026",
              source_id: MN_LOOKUP,
            }),
          );
        pairs.push([cid, pid]);
      }
      st.kept();
    }
    st.done();
  }
  if (inputs.has(MN_CITIES)) {
    const st = stats.layer("mndot city boundaries (full, current)");
    const parts = new Map<string, Geometry[]>();
    for (const f of (await inputs.json(MN_CITIES)).features) {
      st.read();
      const a = f.properties;
      const c = rows.get(`cousub:${a.COUSUB_GEOID}`);
      if (!c) {
        st.reject("cousub GEOID not in the lookup");
        continue;
      }
      offerBoundary(c, f.geometry, MN_CITIES, "full", false, true);
      c.tiger_vintage = "2026";
      if (!parts.has(a.PLACE_GEOID)) parts.set(a.PLACE_GEOID, []);
      parts.get(a.PLACE_GEOID)!.push(f.geometry);
      st.kept();
    }
    st.done();
    const pl = stats.layer("mndot city boundaries -> place polygons (union of county parts)");
    for (const [geoid, gs] of parts) {
      pl.read();
      const p = rows.get(`place:${geoid}`);
      if (!p) {
        pl.reject("place not listed");
        continue;
      }
      offerBoundary(p, toMulti(gs), MN_CITIES, "full", gs.length > 1, true);
      p.tiger_vintage = "2026";
      pl.kept();
    }
    pl.done();
  }
  return pairs;
}
