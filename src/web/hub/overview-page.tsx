import type { ToDo, ToDoKind } from "../../domain/hub/to-do";
import type { hubOverview } from "../../services/hub/client-hub";
import { fileSizeInWords, LABELS } from "../kit/format";
import { Copyable } from "../kit/copy";
import { RecordTable } from "../kit/table";
import { consentView } from "../../domain/leads/consent";
import { FeedbackLines, HubPage, type Feedback, type HubView } from "./layout";
import { OfferCard } from "./offer-card";
import { consentWithdrawalSection } from "./consent-page";

type Overview = Awaited<ReturnType<typeof hubOverview>>;

const CHANNEL_WORDS: Record<string, string> = { application_link: "by you, through your application link", partner_api: "declared by your adviser", portal: "declared by your adviser" };

/**
 * The consent receipt, the same facts the partner's lead and the lender's deal carry:
 * which text version, its hash, the locale, when, how, the soft search choice and the disclosure shown.
 */
function ConsentSection(props: { lead: Overview["lead"]; local: HubView["local"] }) {
  const { receipt, withdrawn_at } = consentView(props.lead.consent);
  if (!receipt) return null;
  const { local } = props;
  return (
    <>
      <h2>Your consent</h2>
      <dl class="card" id="consent-receipt">
        <dt>Consent text</dt>
        <dd>
          version {receipt.text_version} ({receipt.locale})
        </dd>
        <dt>Text fingerprint (sha256)</dt>
        <dd>
          <code>{receipt.text_sha256}</code>
        </dd>
        <dt>Agreed</dt>
        <dd>
          {local.time(receipt.agreed_at)}, {CHANNEL_WORDS[receipt.channel] ?? receipt.channel}
        </dd>
        <dt>Soft credit search</dt>
        <dd>{receipt.soft_credit_search ? "agreed" : "not agreed"}</dd>
        <dt>Commission disclosure shown</dt>
        <dd>{receipt.disclosure_version ? `version ${receipt.disclosure_version}${receipt.disclosure_locale ? ` (${receipt.disclosure_locale})` : ""}` : "none recorded"}</dd>
        {withdrawn_at ? (
          <>
            <dt>Withdrawn</dt>
            <dd>{local.time(withdrawn_at)}</dd>
          </>
        ) : null}
      </dl>
    </>
  );
}

/** Each thing to do as a link the business can follow, in its words. */
const TO_DO_TEXT: Record<ToDoKind, (about: string) => string> = {
  sign: (about) => `Sign the agreement for ${about}`,
  give_account: (about) => `Give the bank account to pay ${about} into`,
  upload: (about) => `Upload: ${about}`,
  reply: (about) => `Reply to the funding provider's message about ${about}`,
  review_offer: (about) => `Review the offer: ${about}`,
};

function ToDoCard(props: { base: string; items: readonly ToDo[]; readOnly: boolean }) {
  if (props.readOnly) return null;
  return (
    <section class="card todo" id="to-do" aria-labelledby="to-do-heading">
      <h2 id="to-do-heading">To do</h2>
      {props.items.length === 0 ? (
        <p>Nothing for you to do right now. When a funding provider asks for something, it appears here.</p>
      ) : (
        <ul>
          {props.items.map((item) => (
            <li data-to-do={item.kind}>
              <a href={`${props.base}${item.path}`}>{TO_DO_TEXT[item.kind](item.about)}</a>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The business's home: who its adviser is, what it has to do now, then its offers, requests, deals, notifications and uploads. */
export function overviewPage(view: HubView, o: Overview, f: Feedback = {}) {
  const { base, local } = view;
  const business = o.lead.business?.name ?? "Your business";
  const now = new Date();
  return (
    <HubPage title={`${business}: your application`} base={base} readOnly={view.readOnly}>
      <h1>
        <bdi>{business}</bdi>
      </h1>
      {o.adviser ? (
        <p id="adviser">
          Your adviser:{" "}
          <strong>
            <bdi>{o.adviser}</bdi>
          </strong>
        </p>
      ) : null}
      {/* The reference is what the business quotes to its adviser: the kit's copy control holds it. */}
      <p>
        Application reference <Copyable value={o.lead.reference} anchor="application-reference" what="the application reference" />, status{" "}
        <strong>{o.everyOfferDeclined ? "Every offer declined by you" : LABELS.leadState(o.lead.state)}</strong>.
      </p>
      <FeedbackLines f={f} />
      <ToDoCard base={base} items={o.toDo} readOnly={view.readOnly ?? false} />
      <ConsentSection lead={o.lead} local={local} />
      {consentWithdrawalSection(view, o.lead)}
      <h2>Your offers</h2>
      {o.everyOfferDeclined ? (
        <p id="all-declined" class="notice">
          You declined every offer on your application. Your adviser has been told; speak to them if you still need funding.
        </p>
      ) : null}
      {o.offers.length === 0 ? (
        <p class="muted">No offer yet. Offers appear here as soon as a funding provider makes one.</p>
      ) : (
        <ul class="cards" id="offers">
          {o.offers.map((offer) => (
            <li>
              <OfferCard view={view} offer={offer} leadState={o.lead.state} now={now} linked />
            </li>
          ))}
        </ul>
      )}
      <h2>Documents requested from you</h2>
      {o.openRequests.length === 0 ? (
        <p class="muted">Nothing is requested at the moment.</p>
      ) : (
        <ul class="cards" id="requests">
          {o.openRequests.map(({ request, deal }) => (
            <li>
              <h3>
                <a href={`${base}/requests/${request.id}`}>{request.label}</a>
              </h3>
              <dl>
                {request.note ? (
                  <>
                    <dt>Note</dt>
                    <dd dir="auto">{request.note}</dd>
                  </>
                ) : null}
                <dt>Requested</dt>
                <dd>{local.time(request.requestedAt)}</dd>
                <dt>Status</dt>
                <dd>{LABELS.requestStatus(request.status)}</dd>
                <dt>For</dt>
                <dd>
                  {deal.label} ({deal.deal.ref})
                </dd>
              </dl>
            </li>
          ))}
        </ul>
      )}
      <h2>Your applications</h2>
      {o.deals.length === 0 ? (
        <p class="muted">No funding provider is looking at your application yet.</p>
      ) : (
        <>
          <ul class="cards" id="deals">
            {o.deals.map(({ deal, label, completionReachable }) => (
              <li>
                <h3>{label}</h3>
                <dl>
                  <dt>Reference</dt>
                  <dd>
                    <Copyable value={deal.ref} anchor={`deal-${deal.ref}`} what="the reference" />
                  </dd>
                </dl>
                <p>
                  <a href={`${base}/deals/${deal.ref}/messages`}>Messages</a>
                  {completionReachable ? (
                    <>
                      {" · "}
                      <a href={`${base}/deals/${deal.ref}/completion`}>Completion</a>
                    </>
                  ) : null}
                </p>
              </li>
            ))}
          </ul>
          {o.hiddenDeals > 0 ? (
            <p class="muted" id="other-deals-closed">
              You accepted an offer, so the other funding {o.hiddenDeals === 1 ? "provider's application is" : "providers' applications are"} closed and no longer shown.
            </p>
          ) : null}
        </>
      )}
      <h2>Notifications</h2>
      {o.notifications.length === 0 ? (
        <p class="muted">No notifications.</p>
      ) : (
        <ul>
          {o.notifications.map((n) => (
            <li>
              {local.time(n.createdAt)}: <a href={`${base}${n.deepLink}`}>{n.subject}</a>
            </li>
          ))}
        </ul>
      )}
      <h2>Documents you uploaded</h2>
      {o.uploads.length === 0 ? (
        <p class="muted">You have not uploaded anything yet.</p>
      ) : (
        <RecordTable
          label="Documents you uploaded"
          rows={o.uploads}
          rowData={(d) => ({ upload: d.id })}
          columns={[
            { header: "File", rowHeader: true, cell: (d) => <bdi>{d.filename}</bdi> },
            { header: "Type", cell: (d) => LABELS.documentType(d.documentType) },
            { header: "Size", cell: (d) => fileSizeInWords(d.byteSize) },
            { header: "Uploaded", cell: (d) => local.time(d.receivedAt) },
          ]}
        />
      )}
      <p class="muted">Times are shown in {local.timeZone} time.</p>
    </HubPage>
  );
}
