/** The review step before the partner accepts an offer for the client. */
import { formatFor, LABELS } from "../../kit/format";
import { Confirm } from "../../kit/confirm";
import { PORTAL_ROUTE, type PortalContext } from "../context";
import { PortalPage } from "../layout";
import { acceptPath, type LeadView } from "./lead-view";

/** The review step before accepting on the client's behalf (as the hub's): every term of the offer, then the one button. */
export function AcceptReviewPage({ c, lead, offer }: { c: PortalContext; lead: LeadView; offer: LeadView["offers"][number] }) {
  const f = formatFor(lead.country);
  const name = lead.business.name ?? "Unnamed business";
  const facts: [string, string][] = [
    ["Business", name],
    ["Lead", lead.reference],
    ["Offer", offer.label],
    ["Amount", f.money(offer.amount, offer.currency)],
    ["Kind", LABELS.status(offer.maturity)],
  ];
  if (offer.term_months !== null) facts.push(["Term", `${offer.term_months} months`]);
  if (offer.annual_rate_pct !== null) facts.push(["Annual rate", `${offer.annual_rate_pct}%`]);
  if (offer.factor_rate !== null) facts.push(["Factor rate", String(offer.factor_rate)]);
  // The fees belong to the price the client agrees to (issue 45 item 11).
  if (offer.fees !== null) facts.push(["Fees", f.money(offer.fees, offer.currency)]);
  if (offer.total_repayment !== null) facts.push(["Total to repay", f.money(offer.total_repayment, offer.currency)]);
  if (offer.expires_at) facts.push(["Expires", f.time(offer.expires_at)]);
  return (
    <PortalPage title={`Review the offer for ${name}`} viewer={c.get("viewer")} formToken={c.get("formToken")}>
      <Confirm
        question={`Accept ${offer.label} for ${f.money(offer.amount, offer.currency)} on ${name}'s behalf?`}
        facts={facts}
        consequence="Accepting tells the lender the client takes this offer; the lead's other offers are withdrawn. Accept only with the client's agreement."
        irreversible
        next="the lender contacts the client to collect the documents and the payout account, then sends the agreement to sign."
        action={acceptPath(lead.id, offer.id)}
        hidden={{ _form_token: c.get("formToken") }}
        confirmLabel={`Accept ${offer.label} for ${f.money(offer.amount, offer.currency)}`}
        cancelHref={`${PORTAL_ROUTE}/leads/${encodeURIComponent(lead.id)}#offers`}
        cancelLabel="Cancel, back to the lead"
      />
    </PortalPage>
  );
}
