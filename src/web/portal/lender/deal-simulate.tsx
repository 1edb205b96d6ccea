/**
 * On a test deal's page: play the business. Each button posts one simulated
 * event, run by the service behind POST /v1/test/deals/{ref}/simulate (the
 * client hub's own functions acting for the business), so the deal moves and
 * its events and webhooks fire exactly as a real business's would.
 */
import type { DealView } from "../../../domain/deals/view";
import type { TestDealSimulatedEvent } from "../../../domain/deals/sandbox-business";
import { PORTAL_ROUTE } from "../context";
import { FormToken } from "../layout";
import { FormRefusal, Section, type DealRefusal, type FormState } from "./fields";

/** The business's steps in the order a deal meets them, worded for the button and for what it does. */
const SIMULATE_BUTTONS: readonly { event: TestDealSimulatedEvent; button: string; does: string }[] = [
  { event: "message.created", button: "Reply to you", does: "The business answers your messages from the client hub." },
  { event: "request.fulfilled", button: "Upload the requested document", does: "It uploads a file for your oldest open document request." },
  { event: "document.removed", button: "Take back the last file", does: "It removes the newest file it sent you; with none left, its request is asked for again." },
  { event: "offer.accepted", button: "Accept the offer", does: "It accepts your current offer, as its introducer would." },
  { event: "deal.account_submitted", button: "Give the payout account", does: "It gives the account to pay into, once an offer is accepted." },
  { event: "deal.agreement_signed", button: "Sign the agreement", does: "It signs the agreement you uploaded." },
];

export function SimulateSection(props: { deal: DealView; formToken: string; refusal: DealRefusal | null }) {
  const state: FormState = { form: "simulate", refusal: props.refusal };
  return (
    <Section id="simulate" title="Simulate the business">
      <p class="muted">This is a test deal: no business stands behind it. Act as the business with these buttons; each sends the events and webhooks a real business's step would.</p>
      <FormRefusal state={state} fields={[]} />
      <ul class="simulate">
        {SIMULATE_BUTTONS.map((b) => (
          <li>
            <form method="post" action={`${PORTAL_ROUTE}/deals/${props.deal.ref}/simulate`}>
              <FormToken token={props.formToken} />
              <input type="hidden" name="event" value={b.event} />
              <button type="submit" data-simulate={b.event}>
                {b.button}
              </button>{" "}
              <span class="muted">{b.does}</span>
            </form>
          </li>
        ))}
      </ul>
    </Section>
  );
}
