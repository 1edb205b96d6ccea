/**
 * The operator's view of attribution (docs/leads.md, "Attribution"): the
 * active attributions of an environment, and their release, after which a
 * new lead for the company can be routed.
 */
import type { Deps } from "../deps";
import { findClaim, listActiveClaims, releaseStatements } from "../../db/leads/claims";
import type { CompanyClaimRow } from "../../db/schema/claims";
import { runGuardedBatch } from "../../db/batch";
import { newId } from "../../lib/ids";
import { Refusal } from "../../lib/refusal";

const view = (c: CompanyClaimRow) => ({
  id: c.id,
  environment: c.environment,
  company_key: c.companyKey,
  lead_id: c.leadId,
  organisation_id: c.organisationId,
  since: c.since,
  active: c.active,
  released_at: c.releasedAt,
  release_reason: c.releaseReason,
});

export async function listAttributions(deps: Deps, environment: "sandbox" | "live", limit: number) {
  return (await listActiveClaims(deps.db, environment, limit)).map(view);
}

/** Releases an active attribution with the operator's reason, audited in the holder's log in the same batch. */
export async function releaseAttribution(deps: Deps, id: string, reason: string) {
  const claim = await findClaim(deps.db, id);
  if (!claim) throw new Refusal("not_found", "No attribution with that id.");
  if (!claim.active) throw new Refusal("conflict", "This attribution no longer holds: it was released or its lead ended.");
  const at = deps.clock().toISOString();
  if ((await runGuardedBatch(deps.db, releaseStatements(deps.db, claim, reason, at, newId("aud")))) !== 1) {
    throw new Refusal("conflict", "This attribution no longer holds: it was released or its lead ended.");
  }
  return view({ ...claim, active: false, endedAt: at, releasedAt: at, releaseReason: reason });
}
