/**
 * The operator's view of attribution (docs/leads.md, "Attribution"): the
 * active attributions of an environment, and their release, after which a
 * new lead for the company can be routed.
 */
import { DATA_ENVIRONMENTS, depsIn, type Deps } from "../deps";
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

/** The operator names the environment, which chooses the database the claims are read from (docs/capacity.md). */
export async function listAttributions(deps: Deps, environment: "sandbox" | "live", limit: number) {
  return (await listActiveClaims(depsIn(deps, environment).db, environment, limit)).map(view);
}

/** The claim with this id and the Deps of the database it is in: ids are random, so it is in one of them. */
async function claimWithDeps(deps: Deps, id: string) {
  for (const environment of DATA_ENVIRONMENTS) {
    const data = depsIn(deps, environment);
    const claim = await findClaim(data.db, id);
    if (claim) return { claim, data };
  }
  return null;
}

/**
 * Releases an active attribution with the operator's reason, audited in the holder's log in the same
 * batch, the entry written only if the release won. The audit log is in every database
 * (db/placement.ts), so a sandbox claim's release and its entry are one batch of the sandbox's database.
 */
export async function releaseAttribution(deps: Deps, id: string, reason: string) {
  const found = await claimWithDeps(deps, id);
  if (!found) throw new Refusal("not_found", "No attribution with that id.");
  const { claim, data } = found;
  if (!claim.active) throw new Refusal("conflict", "This attribution no longer holds: it was released or its lead ended.");
  const at = deps.clock().toISOString();
  if ((await runGuardedBatch(data.db, releaseStatements(data.db, claim, reason, at, newId("aud")))) !== 1) {
    throw new Refusal("conflict", "This attribution no longer holds: it was released or its lead ended.");
  }
  return view({ ...claim, active: false, endedAt: at, releasedAt: at, releaseReason: reason });
}
