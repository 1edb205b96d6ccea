/** Test deals: sandbox deals a lender creates for itself (at most TEST_DEAL_CAP at once) and deletes. */
import { isoNow, type Deps } from "../deps";
import { countTestDeals, dealChanged, deleteTestDeal, listTestDeals, TEST_DEAL_CAP, testDealInsert } from "../../db/deals/deals";
import { dealSummary } from "../../domain/deals/view";
import type { NewEvent } from "../../db/webhooks/events";
import { eventInsertWhere } from "../../db/guarded";
import type { Scope } from "../../domain/identity/caller";
import { newDealReference, normaliseDealReference } from "../../domain/deals/reference";
import type { DealSubject } from "../../domain/deals/types";
import { randomToken } from "../../lib/crypto";
import { Refusal } from "../../lib/refusal";
import type { ViewContext } from "../views/view-context";
import { runGuardedBatch } from "../../db/batch";
import { loadDealView } from "./reads";
import { TEST_DEAL_COMPANY_NUMBER, TEST_DEAL_VAT_NUMBER, testDealCompanyNumber, testDealRegisterInserts } from "./test-deal-register";

/** The business a test deal stands for, shaped by the optional body. */
export interface TestDealShape {
  country?: string;
  business?: DealSubject["business"];
  contact?: DealSubject["contact"];
  funding?: DealSubject["funding"];
  trading?: DealSubject["trading"];
}

/** A GB test business is the register's sandbox company `00000001` unless the shape names another number. */
function testBusiness(shape: TestDealShape): DealSubject["business"] {
  const country = shape.country ?? "GB";
  if (!shape.business) {
    return { name: "Test Trading Ltd", company_number: testDealCompanyNumber(country), entity_type: "private_limited_company", industry: "retail", ...(country === "GB" ? { vat: { number: TEST_DEAL_VAT_NUMBER } } : {}) };
  }
  return country === "GB" && !shape.business.company_number ? { ...shape.business, company_number: TEST_DEAL_COMPANY_NUMBER } : shape.business;
}

const testSubject = (shape: TestDealShape): DealSubject => ({
  country: shape.country ?? "GB",
  channel: { name: "Test channel", domain: "test.example" },
  business: testBusiness(shape),
  contact: shape.contact ?? { first_name: "Test", last_name: "Applicant", email: "applicant@test.example", phone: null },
  funding: shape.funding ?? { amount: 50_000, purpose: "working_capital", product_family: "business_loan" },
  trading: shape.trading ?? { monthly_revenue: 40_000, tib_months: 36 },
  consent: { obtained: true, obtained_at: null, soft_credit_search: true },
  significantPersons: [],
});

export async function createTestDeal(ctx: ViewContext, scope: Scope, shape: TestDealShape) {
  const db = ctx.db;
  const at = isoNow(ctx);
  const token = randomToken(24);
  const ref = newDealReference();
  const newDeal = { ref, lenderOrganisationId: scope.organisationId, environment: scope.environment, leadId: null, partnerOrganisationId: null, test: true, productIds: [], subject: testSubject(shape), at, token };
  const event: NewEvent = { organisationId: scope.organisationId, environment: scope.environment, api: "lender", event: "deal.created", subjectType: "deal", subjectId: ref, test: true, detail: {} };
  // The register's fixture answers ride in the deal's own batch, written only if the deal is.
  const register = await testDealRegisterInserts(ctx, ref, newDeal.subject, scope.environment, dealChanged(ref, token), at);
  const guardChanges = await runGuardedBatch(db, [testDealInsert(db, newDeal), eventInsertWhere(db, event, dealChanged(ref, token), at), ...register]);
  if (guardChanges !== 1) {
    throw new Refusal("cap_exceeded", `At most ${TEST_DEAL_CAP} test deals may exist at once; delete one (DELETE /v1/test/deals/{ref}) first.`, {
      extra: { limit: TEST_DEAL_CAP, current: await countTestDeals(db, scope) },
    });
  }
  return (await loadDealView(ctx, scope, ref))!;
}

export async function removeTestDeal(deps: Deps, scope: Scope, ref: string) {
  const { db } = deps;
  if (!(await deleteTestDeal(db, scope, normaliseDealReference(ref), isoNow(deps)))) {
    throw new Refusal("not_found", "No test deal with that reference in this account and environment.");
  }
}

/** The lender's test deals in the scope's environment, newest first, as the deals list shows them (the portal's sandbox page). */
export async function testDealsOf(deps: Deps, scope: Scope) {
  const { db } = deps;
  return { deals: (await listTestDeals(db, scope)).map((d) => dealSummary(d)), cap: TEST_DEAL_CAP };
}
