/** The deal page as the member sees it after a read, a redirect with a notice, or a refused action. */
import { messageView } from "../../../domain/deals/view";
import { scopeOfViewer } from "../../../domain/portal/viewer";
import { dealMessages } from "../../../services/deals/messages";
import { loadDealForUnderwriting } from "../../../services/deals/underwriting";
import { workingSetOf } from "../../../services/deals/working-set";
import { dealRequests } from "../../../services/documents/requests";
import { viewContext } from "../../../services/views/view-context";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { PortalContext } from "../context";
import { Refusal } from "../../../lib/refusal";
import { dealPage } from "./deal-page";
import type { DealRefusal } from "./fields";

/** What a successful action says after its redirect (`?notice=`): fixed sentences, nothing from the request. */
export const DEAL_NOTICES: Record<string, string> = {
  offer_made: "Your offer was made; the introducer sees it now.",
  status_reported: "Your status was reported.",
  assigned: "The deal's assignment was saved.",
  note_added: "Your note was saved; only your organisation's members can read it.",
  declined: "The deal was declined; the introducer is told with the reasons' labels.",
  funded: "The deal was reported funded; the introducer is told.",
  message_sent: "Your message was sent to the client.",
  document_requested: "The client was asked for the document.",
  request_waived: "The request was waived.",
  agreement_uploaded: "The agreement was uploaded; the client can sign it in the hub.",
  test_deal_created: "Your test deal was made. Make an offer, then play the business with the buttons below.",
  "simulated_message.created": "The business replied; its message is under Messages.",
  "simulated_request.fulfilled": "The business uploaded a file for your oldest open request.",
  "simulated_document.removed": "The business took back the newest file it had sent you.",
  "simulated_offer.accepted": "The business accepted your offer. Next: upload the agreement; the business gives its payout account.",
  "simulated_deal.account_submitted": "The business gave its payout account; it is under Completion.",
  "simulated_deal.agreement_signed": "The business signed the agreement. Next: pay out and report the deal funded.",
};

/** The deal page, with a refusal beside its form when an action was refused (and nothing written). */
export async function renderDeal(c: PortalContext, ref: string, status: ContentfulStatusCode, extra: { notice?: string | null; refusal?: DealRefusal | null } = {}) {
  const viewer = c.get("viewer");
  const scope = scopeOfViewer(viewer);
  const ctx = viewContext(c.env, { deps: c.get("deps") });
  const underwriting = await loadDealForUnderwriting(ctx, scope, ref);
  // Another lender's deal, the other environment's or none: the portal's error handler answers the 404 page.
  if (!underwriting) throw new Refusal("not_found", "No such deal.");
  const deal = underwriting.view;
  const [requests, messages, working] = await Promise.all([dealRequests(ctx, scope, deal.ref), dealMessages(ctx, scope, deal.ref), workingSetOf(c.get("deps"), scope, deal.ref)]);
  return c.html(
    dealPage({ viewer, formToken: c.get("formToken"), deal, underwriting, working, requests: requests.requests, messages: messages.map(messageView), ...extra }),
    status,
  );
}

