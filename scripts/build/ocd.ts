// Open Civic Data division ids: names (with the Census legal word) and ocd_id for counties, cousubs and places.
import type { Inputs } from "./inputs";
import { parseCsv } from "./csv";
import { legalWord } from "./legal";
import { BY_FIPS } from "./states";
import { newRow, type JRow, type Stats } from "./model";

export const OCD = "ocd-division-ids";

export async function loadOcd(inputs: Inputs, rows: Map<string, JRow>, stats: Stats) {
  const recs = parseCsv(await inputs.text(OCD));
  const c = stats.layer("ocd counties"),
    s = stats.layer("ocd cousubs"),
    p = stats.layer("ocd places");
  let noCounty = 0;
  for (const r of recs) {
    const geoid = r.census_geoid.replace(/^place-/, "");
    const info = BY_FIPS.get(geoid.slice(0, 2));
    const layer = geoid.length === 5 ? c : geoid.length === 10 ? s : geoid.length === 7 ? p : null;
    if (!layer) continue;
    layer.read();
    if (!info) {
      layer.reject("unknown state FIPS");
      continue;
    }
    if (geoid.length === 5) {
      const row = rows.get(`county:${geoid}`);
      if (!row) {
        c.reject("county not in the 2023 atlas (old or renamed county)");
        continue;
      }
      row.name = r.name;
      row.legal_type = legalWord(r.name) ?? row.legal_type;
      row.ocd_id = r.id;
      c.kept();
      continue;
    }
    const type = geoid.length === 10 ? "cousub" : "place";
    const id = `${type}:${geoid}`;
    if (rows.has(id)) {
      layer.reject("duplicate GEOID");
      continue;
    }
    let county_id: string | null = null;
    if (type === "cousub") {
      county_id = rows.has(`county:${geoid.slice(0, 5)}`) ? `county:${geoid.slice(0, 5)}` : null;
      if (!county_id) noCounty++;
    }
    rows.set(
      id,
      newRow({
        jurisdiction_id: id,
        type,
        name: r.name,
        legal_type: legalWord(r.name),
        state: info.postal,
        state_fips: info.fips,
        county_id,
        ocd_id: r.id,
        incorporated: type === "place" ? 1 : null,
        source_id: OCD,
      }),
    );
    layer.kept();
  }
  c.done();
  s.done();
  p.done();
  if (noCounty) stats.note(`ocd cousubs whose county code is not in the 2023 atlas (county_id NULL): ${noCounty}`);
  return { noCounty };
}
