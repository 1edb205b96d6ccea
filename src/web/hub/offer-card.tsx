import type { Offer } from "../../domain/deals/types";
import { costOf, offerStanding, STANDING_TEXT } from "../../domain/hub/offer-standing";
import type { HubView } from "./layout";

/** One offer under its structural label (never the funding provider's name): amount, cost, term, expiry and where it stands. */
export function OfferCard(props: { view: HubView; offer: Offer; leadState: string; now: Date; linked: boolean }) {
  const { view, offer, linked } = props;
  const { base, local } = view;
  const standing = offerStanding(offer, props.leadState, props.now);
  const money = (n: number | null) => (n === null ? null : local.money(n, offer.currency));
  const rows: [string, string | null][] = [
    ["Amount", money(offer.amount)],
    ["Cost", costOf(offer)],
    ["Fees", money(offer.fees)],
    ["Total to repay", money(offer.totalRepayment)],
    ["Term", offer.termMonths === null ? null : `${offer.termMonths} months`],
    ["Expires", offer.expiresAt ? local.time(offer.expiresAt) : "No expiry given"],
    ["Terms", offer.maturity === "firm" ? "Firm" : "Indicative (may change after review)"],
  ];
  return (
    <>
      <h3>{linked ? <a href={`${base}/offers/${offer.id}`}>{offer.label}</a> : offer.label}</h3>
      <dl>
        {rows
          .filter(([, value]) => value !== null)
          .map(([term, value]) => (
            <>
              <dt>{term}</dt>
              <dd>{value}</dd>
            </>
          ))}
        <dt>Status</dt>
        <dd class="status" data-standing={standing}>
          {STANDING_TEXT[standing]}
        </dd>
      </dl>
      {linked && standing === "open" ? (
        <p>
          <a href={`${base}/offers/${offer.id}`}>Review and accept this offer</a>
        </p>
      ) : null}
    </>
  );
}
