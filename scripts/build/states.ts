// The state table lives in src/domain/states.ts (shared with the server); the build adds OCD ids.
import type { StateInfo } from "../../src/domain/states";
export { STATES, BY_FIPS, BY_POSTAL, type StateInfo } from "../../src/domain/states";

/** OCD division id of a state, DC or territory (OCD uses district:dc and territory:xx for those). */
export function stateOcdId(s: StateInfo): string {
  const p = s.postal.toLowerCase();
  if (s.kind === "district") return `ocd-division/country:us/district:${p}`;
  if (s.kind === "territory") return `ocd-division/country:us/territory:${p}`;
  return `ocd-division/country:us/state:${p}`;
}
