/**
 * The operator's view of attribution (docs/leads.md, "Attribution"): the
 * active attributions of an environment, and their release, after which a
 * new lead for the company can be routed.
 */
import { DATA_ENVIRONMENTS, depsIn, type Deps } from "../deps";
import { insertAuditEntry } from "../../db/portal/audit";
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
 * Releases an active attribution with the operator's reason, audited in the holder's log. A live claim
 * and the audit log share `DB`, so they go in one batch, the audit written only if the release won; a
 * sandbox claim is in the sandbox's database and the audit log in `DB` (a control table), so the release
 * runs first and its audit entry is written once it won: an entry can be missing if that second write
 * fails, never one for a release that did not happen.
 */
export async function releaseAttribution(deps: Deps, id: string, reason: string) {
  const found = await claimWithDeps(deps, id);
  if (!found) throw new Refusal("not_found", "No attribution with that id.");
  const { claim, data } = found;
  if (!claim.active) throw new Refusal("conflict", "This attribution no longer holds: it was released or its lead ended.");
  const at = deps.clock().toISOString();
  const auditId = newId("aud");
  const [release, audit] = releaseStatements(data.db, claim, reason, at, auditId);
  const together = claim.environment === "live";
  if ((await runGuardedBatch(data.db, together ? [release, audit] : [release])) !== 1) {
    throw new Refusal("conflict", "This attribution no longer holds: it was released or its lead ended.");
  }
  if (!together) {
    await insertAuditEntry(deps.db, { id: auditId, organisationId: claim.organisationId, memberId: "operator", environment: claim.environment, action: "attribution.released", target: claim.id, at });
  }
  return view({ ...claim, active: false, endedAt: at, releasedAt: at, releaseReason: reason });
}
