// County names for the parcel side, from the directory domain (place-name matching of src/directory/places.ts).
import type { Directory } from "../directory/directory";
import type { CountyNames } from "./county-data";

export function countyNamesOf(dir: Directory | null | undefined): CountyNames {
  return {
    label(id) {
      const j = dir?.store.jurisdiction(id);
      return dir && j && j.type === "county" && j.documented ? dir.names.label(j) : null;
    },
    find(name, state) {
      if (!dir) return [];
      try {
        return dir.names.candidates(name, state ?? undefined).list.filter((j) => j.type === "county")
          .map((j) => ({ id: j.jurisdiction_id, label: dir.names.label(j) }));
      } catch { return []; } // an unknown state or an empty name: no county
    },
  };
}
