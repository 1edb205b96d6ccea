/**
 * The register facts of a test deal. No lead stands behind a test deal, so
 * its answers are stored under the deal's own reference, settled at creation
 * from the sandbox's fixtures (never a real register): a GB test deal is
 * company `00000001` unless the lender shaped another number, so a sandbox
 * lender sees a complete register answer.
 */
import type { Deps } from "../deps";
import { settledAnswerInsert } from "../../db/registers/answers";
import type { DealSubject } from "../../domain/deals/types";
import { registerNumbersOf } from "../../domain/registers/lookups";
import { sourceContextFrom } from "../../registers/context";
import { OTHER_MARKET_FIXTURES } from "../../registers/sources/sandbox";
import { randomToken } from "../../lib/crypto";
import { answerAsStored, answeredAt, askSource } from "../registers/attempts";
import { lookupSources } from "../registers/sources";

/** The sandbox fixture every GB test deal carries unless its shape names another company. */
export const TEST_DEAL_COMPANY_NUMBER = "00000001";

/** The default company number of a test deal in `country`: the market's complete active fixture. */
export const testDealCompanyNumber = (country: string) => OTHER_MARKET_FIXTURES[country]?.active ?? TEST_DEAL_COMPANY_NUMBER;
/** Its VAT number in the sandbox's VAT fixtures (valid, `Sandbox Trading Ltd`). */
export const TEST_DEAL_VAT_NUMBER = "GB100000001";

/** The answers a test deal is created with, each inserted only if the deal's own insert (`guard`) wins. */
export async function testDealRegisterInserts(deps: Deps, ref: string, subject: DealSubject, environment: "sandbox" | "live", guard: Parameters<typeof settledAnswerInsert>[4], at: string) {
  const { db } = deps;
  const ctx = sourceContextFrom({});
  const inserts = [];
  for (const n of registerNumbersOf(subject)) {
    // Always the sandbox's fixtures, whatever the key's environment: a test deal is never looked up for real.
    const outcome = await askSource(lookupSources, ctx, { kind: n.kind, environment: "sandbox", country: n.country, number: n.number });
    // Stored as a lead's would be: a registry object with a `reason` has no `checked_at` (decisions.md); the row says when.
    const answer = answerAsStored(n.kind, outcome.answer, new Date(at));
    inserts.push(settledAnswerInsert(db, { ownerId: ref, kind: n.kind, environment, country: n.country, number: n.number, lookupId: randomToken(16), at }, answer, answeredAt(n.kind, answer, new Date(at)) ?? at, guard));
  }
  return inserts;
}
