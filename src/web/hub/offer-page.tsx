import type { Offer } from "../../domain/deals/types";
import { offerStanding } from "../../domain/hub/offer-standing";
import type { Lead } from "../../domain/leads/types";
import { FeedbackLines, FieldError, HubPage, invalidIf, type Feedback, type HubView } from "./layout";
import { OFFER_DECLINE_REASONS } from "../../domain/reference/values";
import { OfferCard } from "./offer-card";
import type { CommissionDisclosure } from "../../domain/commission/disclosure";

/**
 * The introducer's commission, told before the accept button (CONC 4.5.3R): its nature, and the
 * amount once the business asks "How much?" (4.5.4R), a link so the asking is recorded too.
 */
function CommissionSection(props: { base: string; offer: Offer; disclosures: readonly CommissionDisclosure[] }) {
  const nature = props.disclosures.find((d) => d.what === "nature");
  if (!nature) return null;
  const amount = props.disclosures.find((d) => d.what === "amount");
  return (
    <section aria-labelledby="commission-heading" class="card" id="commission" data-commission-disclosure={nature.disclosureVersion}>
      <h2 id="commission-heading">Your adviser's commission</h2>
      <p>{nature.text}</p>
      {amount ? (
        <p data-commission-amount="">{amount.text}</p>
      ) : (
        <p>
          <a href={`${props.base}/offers/${props.offer.id}/commission#commission`}>How much?</a>
        </p>
      )}
    </section>
  );
}

/** What the business can do with the offer where it stands: accept or decline it while open, else what happened. */
function NextStep(props: { view: HubView; offer: Offer; standing: ReturnType<typeof offerStanding>; f: Feedback; disclosures: readonly CommissionDisclosure[] }) {
  const { view, offer, standing, f } = props;
  const { base, readOnly = false } = view;
  if (standing === "accepted") {
    return (
      <p>
        You accepted this offer. The funding provider now prepares the agreement
        {offer.dealRef && !offer.simulated ? (
          <>
            ; follow it on the <a href={`${base}/deals/${offer.dealRef}/completion`}>completion page</a>
          </>
        ) : null}
        .
      </p>
    );
  }
  if (standing === "declined") return <p>You declined this offer. The funding provider and your adviser have been told.</p>;
  if (standing !== "open" || readOnly) return null;
  return (
    <>
      <CommissionSection base={base} offer={offer} disclosures={props.disclosures} />
      <form method="post" action={`${base}/offers/${offer.id}/acceptance`}>
        <p>Accepting this offer tells its funding provider to go ahead; every other offer on your application closes.</p>
        <button type="submit">Accept this offer</button>
      </form>
      <form method="post" action={`${base}/offers/${offer.id}/decline`} data-decline="">
        <h2>Not for you?</h2>
        <p>Declining tells the funding provider and your adviser that you do not want this offer. It cannot be accepted afterwards.</p>
        <fieldset>
          <legend>Why are you declining?</legend>
          {OFFER_DECLINE_REASONS.map((r, i) => (
            <label>
              <input type="radio" {...(i === 0 ? { id: "reason_code", ...invalidIf(f, "reason_code") } : {})} name="reason_code" value={r.value} /> {r.label}
            </label>
          ))}
          <FieldError f={f} name="reason_code" />
        </fieldset>
        <button type="submit">Decline this offer</button>
      </form>
    </>
  );
}

/**
 * One offer and, while it is open, the form that accepts it: the page the
 * business confirms on, and where it lands after accepting or being refused.
 */
export function offerPage(view: HubView, lead: Lead, offer: Offer, f: Feedback = {}, disclosures: readonly CommissionDisclosure[] = []) {
  const { base, readOnly = false } = view;
  const now = new Date();
  const standing = offerStanding(offer, lead.state, now);
  return (
    <HubPage title={`Offer: ${offer.label}`} base={base} readOnly={readOnly}>
      <h1>Your offer</h1>
      <FeedbackLines f={f} inputs={standing === "open" && !readOnly ? ["reason_code"] : []} />
      <section aria-label="Offer terms" class="card">
        <OfferCard view={view} offer={offer} leadState={lead.state} now={now} linked={false} />
      </section>
      <NextStep view={view} offer={offer} standing={standing} f={f} disclosures={disclosures} />
      <p>
        <a href={base}>Back to your application</a>
      </p>
    </HubPage>
  );
}
