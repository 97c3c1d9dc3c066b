// Whose page is a state rule's evidence? A state rule says who does a job in every county or town of the state; its
// evidence should be the state's own statute or agency page. Many rules were first documented with one local
// government's page (Jim Wells County's page for every Texas appraisal district). That page is evidence for its own
// body only: the rule gets `evidence_government` (the local government owning the host, from the staged own-host lists),
// and an answer naming another body does not show that page as evidence (src/directory/functions.ts, ruleEvidence).
import type { OwnHosts } from "./own-hosts";
import { hostOf } from "./own-hosts";

const RULE_KEYS = ["assessment", "tax_collection", "recording", "zoning", "exemptions", "gis"] as const;

/** Marks each rule whose evidence host belongs to local governments only; returns "ST.key host owner" lines. */
export function markRuleEvidenceGovernments(stateRules: Record<string, any>, own: OwnHosts): string[] {
  const lines: string[] = [];
  for (const [state, rules] of Object.entries(stateRules ?? {})) {
    if (!rules || typeof rules !== "object") continue;
    for (const key of RULE_KEYS) {
      // (a rule's `also` entries carry no evidence of their own: answers give them the rule's)
      const r = rules[key];
      if (!r?.evidence_url) continue;
      const host = hostOf(r.evidence_url);
      const owners = host ? [...own.owners(host)] : [];
      const local = owners.filter((id) => !id.startsWith("state:"));
      if (!local.length || local.length !== owners.length) continue;
      r.evidence_government = local.sort()[0];
      lines.push(`${state}.${key} ${host} ${r.evidence_government}`);
    }
  }
  return lines;
}
