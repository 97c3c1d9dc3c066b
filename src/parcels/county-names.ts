// County names for the parcel side, from the directory domain (place-name matching of src/directory/places.ts).
import type { Directory } from "../directory/directory";
import type { CountyNames } from "./county-data";
import type { JurisdictionRow } from "../directory/store";

export function countyNamesOf(dir: Directory | null | undefined): CountyNames {
  return {
    label(id) {
      const j = dir?.store.jurisdiction(id);
      return dir && j && j.type === "county" && j.documented ? dir.names.label(j) : null;
    },
    find(name, state) {
      if (!dir) return [];
      try {
        // a consolidated city-county is listed as its place: take the county twin (same_as)
        const countyOf = (j: JurisdictionRow) =>
          j.type === "county"
            ? j
            : ((dir.store.sameAs.get(j.jurisdiction_id) ?? [])
                .map((id) => dir.store.jurisdiction(id))
                .find((t) => t?.type === "county") ?? null);
        const seen = new Set<string>();
        return dir.names
          .candidates(name, state ?? undefined)
          .list.map(countyOf)
          .filter((j): j is JurisdictionRow => !!j && !seen.has(j.jurisdiction_id) && !!seen.add(j.jurisdiction_id))
          .map((j) => ({ id: j.jurisdiction_id, label: dir.names.label(j) }));
      } catch {
        return [];
      } // an unknown state or an empty name: no county
    },
  };
}
