// Minnesota county offices: one office per function for each of the 87 counties, named after Minnesota practice
// (the state rule's office name where it is a plain "County X"), with the county's .gov home page where the CISA
// registry gave one. No phone, e-mail, address or person is ever set here.
import { FUNCTIONS } from "../../src/domain/vocabulary";
import {
  AUTHORED_VINTAGE, PROJECT_PUBLISHER, type JurisdictionIn, Records, isHttpUrl, officeId, sourceRow,
} from "./records-common";
import { stateEntry } from "./records-state";

/** Generic Minnesota county office names by function (suffix after "<County> County "). */
export const MN_OFFICE_NAMES: Record<string, string> = {
  assessment: "Assessor",
  tax_collection: "Auditor/Treasurer",
  recording: "Recorder",
  zoning: "Planning and Zoning",
  permits: "Land Use Permits",
  gis: "GIS",
};

/** "County Assessor" -> "Assessor"; anything longer or with qualifiers is not used as a name. */
function ruleOfficeSuffix(rule: any): string | null {
  const o = typeof rule?.office === "string" ? rule.office.trim() : "";
  const m = /^County ([A-Z][A-Za-z/-]*(?: [A-Z][A-Za-z/-]*){0,2})$/.exec(o);
  return m ? m[1] : null;
}

function mnEvidenceUrl(mn: any): string | null {
  for (const k of ["assessment", "tax_collection", "recording"]) if (isHttpUrl(mn?.[k]?.evidence_url)) return mn[k].evidence_url;
  if (isHttpUrl(mn?.property_tax_page?.url)) return mn.property_tax_page.url;
  return null;
}

export function buildMnOffices(
  rec: Records, jurisdictions: Map<string, JurisdictionIn>, stateRules: any,
  homePage: (jurisdictionId: string) => string | null,
): Record<string, number> {
  const mn = stateEntry(stateRules, "MN");
  const names = { ...MN_OFFICE_NAMES };
  for (const fn of ["assessment", "tax_collection", "recording"]) {
    const s = ruleOfficeSuffix(mn?.[fn]);
    if (s) names[fn] = s;
  }
  const url = mnEvidenceUrl(mn);
  const sid = url
    ? rec.addSource(sourceRow({
      source_id: "derived-mn-county-offices",
      name: "Minnesota county offices derived from the authored state rules (data/state-rules.yaml); home pages from the CISA .gov registry",
      url, publisher: PROJECT_PUBLISHER, official: 0, retrieved_at: null, license_class: "open", license: null,
      vintage: AUTHORED_VINTAGE,
    }))
    : null;
  const documented = sid ? rec.sources.get(sid)!.documented : 0;
  const counts: Record<string, number> = { mn_counties: 0, mn_offices: 0, mn_offices_with_url: 0 };
  const counties = [...jurisdictions.values()]
    .filter((j) => j.type === "county" && /^county:27\d{3}$/.test(j.jurisdiction_id))
    .sort((a, b) => a.jurisdiction_id.localeCompare(b.jurisdiction_id));
  for (const c of counties) {
    counts.mn_counties++;
    const county = /county$/i.test(c.name) ? c.name : `${c.name} County`;
    const home = homePage(c.jurisdiction_id);
    for (const fn of FUNCTIONS) {
      rec.addOffice({
        office_id: officeId(c.jurisdiction_id, fn), jurisdiction_id: c.jurisdiction_id, name: `${county} ${names[fn]}`,
        kind: fn, function: fn, phone: null, email: null, address: null, url: home,
        verified_status: "not_yet_verified", verified_at: null, source_kind: "derived-from-state-rules",
        source_id: sid, documented,
      });
      counts.mn_offices++;
      if (home) counts.mn_offices_with_url++;
    }
  }
  return counts;
}
