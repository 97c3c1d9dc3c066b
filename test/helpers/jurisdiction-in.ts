// A jurisdiction row as the builder takes it (scripts/build/records-common.ts JurisdictionIn), for build tests.
import type { JurisdictionIn } from "../../scripts/build/records-common";

export const jurisdictionIn = (
  jurisdiction_id: string,
  type: string,
  name: string,
  legal_type: string | null,
  state: string | null,
  county_id: string | null = null,
): JurisdictionIn => ({
  jurisdiction_id,
  type,
  name,
  legal_type,
  state,
  state_fips: jurisdiction_id.match(/:(\d{2})/)?.[1] ?? null,
  county_id,
});
