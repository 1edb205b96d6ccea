/**
 * Each rendered portal form is single-use for its action. The first post of a
 * form claims (session, token nonce, action) before it acts and records its outcome after; a second
 * post of the same form (a double click, a resent page) is not acted on again: it waits for the first
 * to finish and is shown its outcome (the same redirect). A first post that was refused (4xx) wrote
 * nothing, so its claim is released and the corrected form may be sent again.
 */
import { isoNow, type Deps } from "../deps";
import { claimFormUse, deleteFormUsesBefore, findFormUse, recordFormOutcome, releaseFormUse, type FormUse } from "../../db/portal/form-uses";

export type { FormUse };

/** How long a second post waits for the first one's outcome before it is told the form is still being sent. */
export const FORM_USE_WAIT_MS = 10_000;
const POLL_MS = 100;

export type FormUseClaim = { kind: "first" } | { kind: "replay"; status: number; location: string | null } | { kind: "in_flight" };

export async function claimForm(deps: Deps, use: FormUse, waitMs = FORM_USE_WAIT_MS): Promise<FormUseClaim> {
  const { db } = deps;
  // The wait is elapsed time, not the time of day: a fixed test clock must not make it endless.
  const deadline = performance.now() + waitMs;
  for (;;) {
    if (await claimFormUse(db, use, isoNow(deps))) return { kind: "first" };
    const first = await findFormUse(db, use);
    if (first?.status != null) return { kind: "replay", status: first.status, location: first.location };
    // Released between our claim and our read (the first post was refused): claim again.
    if (first === null) continue;
    if (performance.now() >= deadline) return { kind: "in_flight" };
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/**
 * After the first post: a refused post frees the form; anything else is kept for the second post to be
 * shown. The door says which it was (`refused`) and what it answered; the service keeps the answer as
 * data and knows no HTTP status itself.
 */
export async function settleForm({ db }: Deps, use: FormUse, outcome: { refused: boolean; status: number; location: string | null }) {
  if (outcome.refused) await releaseFormUse(db, use);
  else await recordFormOutcome(db, use, outcome.status, outcome.location);
}

/** Form uses outlive no session: sessions last 7 days at most, so older rows are dropped by the cron. */
export const FORM_USE_RETENTION_MS = 8 * 24 * 60 * 60 * 1000;

export const sweepFormUses = (deps: Deps) => deleteFormUsesBefore(deps.db, new Date(deps.clock().getTime() - FORM_USE_RETENTION_MS).toISOString());
