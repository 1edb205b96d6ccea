/**
 * The payout account in full (issue 45 item 6). The hub seals it when the business gives it
 * (AES-256-GCM under a key derived from SIGNING_SECRET for this purpose alone, lib/secret-box.ts);
 * every view keeps showing the masked summary. Only the portal's reveal for a lender admin opens
 * it, and the reveal is audited before the account is shown.
 */
import type { Deps } from "../deps";
import type { AccountLine } from "../../domain/hub/account-details";
import type { Scope } from "../../domain/identity/caller";
import { sealedAccountOf } from "../../db/deals/payout-account";
import { openSecret, sealSecret } from "../../lib/secret-box";
import { signingSecretOf } from "../../lib/signing-secret";
import { requireDeal } from "./reads";

const PURPOSE = "payout-account";

export const sealPayoutAccount = (deps: Pick<Deps, "env">, lines: readonly AccountLine[]) => sealSecret(signingSecretOf(deps.env), PURPOSE, JSON.stringify(lines));

/**
 * The account lines of the lender's deal, or null when none was given or it was given before full
 * accounts were kept. Another lender's deal, or the other environment's: not_found.
 */
export async function payoutAccountInFull(deps: Deps, scope: Scope, ref: string): Promise<{ ref: string; summary: string | null; lines: AccountLine[] | null }> {
  const deal = await requireDeal(deps, scope, ref);
  const sealed = await sealedAccountOf(deps.db, scope, deal.ref);
  if (!sealed) return { ref: deal.ref, summary: deal.accountSummary, lines: null };
  return { ref: deal.ref, summary: deal.accountSummary, lines: JSON.parse(await openSecret(signingSecretOf(deps.env), PURPOSE, sealed)) as AccountLine[] };
}
