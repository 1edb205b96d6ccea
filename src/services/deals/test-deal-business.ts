/**
 * The business standing behind a lender's test deal (a lead of the lender organisation, never listed
 * as a lead): written in the batch that creates the deal (./test-deals.ts), or, for a test deal made
 * before that was so, on its first simulation (services/sandbox/test-deal-simulation.ts).
 */
import type { Deps } from "../deps";
import type { Statement } from "../../db/batch";
import { sandboxBusinessStatements } from "../../db/deals/test-deal-leads";
import { isReferenceCollision } from "../../db/leads/leads";
import { sandboxBusinessLead } from "../../domain/deals/sandbox-business";
import type { Deal } from "../../domain/deals/types";
import type { Scope } from "../../domain/identity/caller";
import { newLeadReference } from "../../domain/leads/reference";
import { randomToken } from "../../lib/crypto";

/** A fresh lead reference can collide with a taken one (unique per environment); a few draws settle it. */
const REFERENCE_ATTEMPTS = 3;

/**
 * Runs `write` (one batch) with the statements giving test deal `deal` its business, drawing a fresh
 * lead reference while it collides. The first business statement is a conditional update of the deal
 * (its `lead_id` still null), the guard the rest depend on: in a batch that also makes the deal, put
 * them after the deal's insert.
 */
export async function withSandboxBusiness<T>(
  deps: Deps,
  scope: Scope,
  deal: Pick<Deal, "ref" | "lenderOrganisationId" | "environment" | "subject">,
  write: (business: Statement[]) => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const at = deps.clock().toISOString();
    const lead = sandboxBusinessLead(deal, crypto.randomUUID(), newLeadReference(), at);
    try {
      return await write(sandboxBusinessStatements(deps.db, scope, deal.ref, lead, randomToken(24), at));
    } catch (error) {
      if (!isReferenceCollision(error) || attempt >= REFERENCE_ATTEMPTS) throw error;
    }
  }
}
