/**
 * Decline and Funded, each on its own confirm page (issue 45 item 8): both are final, so the deal
 * page only links here (the kit's confirm pattern, web/kit/confirm.tsx) and the page holds the one
 * form that reports the outcome through the lender API's own service (reportStatus).
 *   GET/POST /deals/{ref}/decline: coded reasons from the `decline-reasons` list, an optional note.
 *   GET/POST /deals/{ref}/funded:  the amount and the day paid out; only after the accepted offer
 *                                  (domain/deals/status.ts portalFundingRefusal), warning about open requests.
 * Each post is the portal's one form shape (form-action.ts), audited in the report's batch; a refusal
 * shows the same page again with the message beside the field and what was typed; another lender's
 * deal, or one of the other environment, is the 404 page (the portal's error handler).
 */
import type { Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { normaliseDealReference } from "../../../domain/deals/reference";
import { dealHasOutcome } from "../../../domain/deals/work-queue";
import { portalFundingRefusal } from "../../../domain/deals/status";
import type { DealView } from "../../../domain/deals/view";
import { DECLINE_REASONS } from "../../../domain/reference/values";
import { scopeOfViewer } from "../../../domain/portal/viewer";
import { Refusal } from "../../../lib/refusal";
import { StatusBody } from "../../../api/shared/schemas/deal-actions";
import { loadDealView } from "../../../services/deals/reads";
import { reportStatus } from "../../../services/deals/status";
import { dealRequests } from "../../../services/documents/requests";
import { viewContext } from "../../../services/views/view-context";
import { CONFIRMED, Confirm } from "../../kit/confirm";
import { textFields, textsOf, type FormFields } from "../../kit/form";
import { readNumber } from "../../kit/number-input";
import { parseForm, type PageRefusal } from "../../kit/refusal";
import { LABELS } from "../../kit/format";
import { PORTAL_ROUTE, type PortalContext, type PortalEnv } from "../context";
import { FieldError, PortalPage, RequiredMark } from "../layout";
import { portalForm } from "../form-action";
import { money } from "./labels";

/** What a refused confirm page puts back: the text fields and every ticked reason. */
interface OutcomeDraft {
  fields: FormFields;
  reasons: string[];
}

const NO_DRAFT: OutcomeDraft = { fields: {}, reasons: [] };
const OPEN_REQUESTS = ["requested", "uploaded"];

const dealUrl = (ref: string, anchor = "") => `${PORTAL_ROUTE}/deals/${ref}${anchor}`;

/** The deal and its open requests; another lender's deal, or none, is not_found (the 404 page). */
async function dealOf(c: PortalContext, ref: string) {
  const scope = scopeOfViewer(c.get("viewer"));
  const ctx = viewContext(c.env, { deps: c.get("deps") });
  const deal = await loadDealView(ctx, scope, ref);
  if (!deal) throw new Refusal("not_found", "No such deal.");
  const { requests } = await dealRequests(ctx, scope, deal.ref);
  return { deal, open: requests.filter((r) => OPEN_REQUESTS.includes(r.status)) };
}

const invalid = (refusal: PageRefusal | null, name: string) =>
  refusal?.field === name ? { "aria-invalid": "true" as const, "aria-describedby": `${name}-error`, autofocus: true } : {};

/** The decline's reasons as the API's body: codes from the list (at least one), the note on the first, shared only when ticked. */
function declineReportOf(fields: FormFields, codes: readonly string[]) {
  const chosen = codes.map((c) => c.trim()).filter(Boolean);
  if (chosen.length === 0) throw new Refusal("invalid_request", "Choose at least one reason for declining.", { field: "reasons" });
  const detail = fields.note?.trim() ? fields.note.trim() : undefined;
  return {
    status: "declined",
    reasons: chosen.map((code, i) => ({ code, ...(i === 0 && detail !== undefined ? { detail, shareable: fields.shareable === "yes" } : {}) })),
  };
}

function declinePage(c: PortalContext, deal: DealView, status: ContentfulStatusCode, refusal: PageRefusal | null, draft: OutcomeDraft) {
  const viewer = c.get("viewer");
  const business = deal.business.name ?? "this business";
  return c.html(
    <PortalPage
      title="Decline this deal?"
      viewer={viewer}
      formToken={c.get("formToken")}
      feedback={{ notice: null, error: refusal ? { field: refusal.field, message: `Not declined: ${refusal.message}` } : null }}
    >
      <Confirm
        question={`Decline ${business}'s application?`}
        facts={[
          ["Business", business],
          ["Amount asked for", money(deal.request.amount, deal.request.currency)],
          ["Your status", LABELS.status(deal.lender_status)],
        ]}
        consequence="The introducer is told the deal was declined, with the labels of the reasons you choose (never your organisation's name). Open offers on it close."
        irreversible
        next="the deal leaves your work queue and shows its outcome; a declined deal cannot be reopened."
        action={`${dealUrl(deal.ref)}/decline`}
        hidden={{ _form_token: c.get("formToken"), ...CONFIRMED }}
        confirmLabel="Decline the deal"
        cancelHref={dealUrl(deal.ref)}
        cancelLabel="Cancel, keep the deal open"
        fields={
          <>
            <fieldset id="reasons" aria-describedby={refusal?.field === "reasons" ? "reasons-error" : undefined}>
              <legend>
                Why are you declining? Choose at least one reason
                <RequiredMark />
              </legend>
              {DECLINE_REASONS.map((r, i) => (
                <label>
                  <input type="checkbox" name="reasons" value={r.value} checked={draft.reasons.includes(r.value)} {...(i === 0 ? invalid(refusal, "reasons") : {})} /> {r.label}
                </label>
              ))}
              <FieldError field="reasons" error={refusal} />
            </fieldset>
            <label for="note">Note (optional)</label>
            <textarea id="note" name="note" rows={3} maxlength={500} {...invalid(refusal, "note")}>
              {draft.fields.note ?? ""}
            </textarea>
            <FieldError field="note" error={refusal} />
            <label>
              <input type="checkbox" name="shareable" value="yes" checked={draft.fields.shareable === "yes"} /> The introducer may read this note (never name your organisation in it)
            </label>
          </>
        }
      />
    </PortalPage>,
    status,
  );
}

/** Why the business's side is not finished, said before a person pays out (warnings, not refusals). */
function fundingWarnings(deal: DealView, open: { label: string }[]) {
  const warnings: string[] = [];
  if (open.length > 0) {
    warnings.push(
      `${open.length === 1 ? "One document request is" : `${open.length} document requests are`} still open: ${open.map((r) => r.label).join(", ")}. Reporting funded does not close ${open.length === 1 ? "it" : "them"}; waive ${open.length === 1 ? "it" : "them"} on the deal page if you no longer need ${open.length === 1 ? "it" : "them"}.`,
    );
  }
  if (!deal.completion.agreement_uploaded) warnings.push("You have not uploaded the agreement on this deal.");
  else if (!deal.completion.signed) warnings.push("The business has not signed the agreement yet.");
  if (!deal.completion.account_submitted) warnings.push("The business has not given its payout account in the hub.");
  return warnings;
}

function fundedPage(c: PortalContext, found: NonNullable<Awaited<ReturnType<typeof dealOf>>>, status: ContentfulStatusCode, refusal: PageRefusal | null, draft: OutcomeDraft) {
  const viewer = c.get("viewer");
  const { deal, open } = found;
  const business = deal.business.name ?? "this business";
  const notYet = portalFundingRefusal({ status: deal.status, lenderStatus: deal.lender_status });
  if (notYet) {
    // Nothing to confirm: the page says why, in words, and leads back (the post is refused the same way).
    return c.html(
      <PortalPage title="This deal cannot be reported funded yet" viewer={viewer} formToken={c.get("formToken")} feedback={{ notice: null, error: { field: null, message: notYet.detail } }}>
        <p id="funding-refused">
          <a href={dealUrl(deal.ref)}>Back to the deal</a>
        </p>
      </PortalPage>,
      status === 200 ? 409 : status,
    );
  }
  const accepted = deal.offers.find((o) => o.status === "accepted") ?? null;
  const warnings = fundingWarnings(deal, open);
  const today = new Date().toISOString().slice(0, 10);
  return c.html(
    <PortalPage
      title="Report this deal funded?"
      viewer={viewer}
      formToken={c.get("formToken")}
      feedback={{ notice: null, error: refusal ? { field: refusal.field, message: `Not reported: ${refusal.message}` } : null }}
    >
      <Confirm
        question={`Report ${business}'s deal funded?`}
        facts={[
          ["Business", business],
          ["Accepted offer", accepted ? `${money(accepted.amount, accepted.currency)}, ${LABELS.productFamily(accepted.kind)}` : "—"],
          ["Payout account", deal.completion.account_summary ?? "not given yet"],
        ]}
        consequence="The introducer is told the deal was funded, with the amount and the day. Report it once the money has left your account."
        irreversible
        next="the deal leaves your work queue and shows its outcome."
        action={`${dealUrl(deal.ref)}/funded`}
        hidden={{ _form_token: c.get("formToken"), ...CONFIRMED }}
        confirmLabel="Report funded"
        cancelHref={dealUrl(deal.ref)}
        cancelLabel="Cancel, not yet"
        fields={
          <>
            {warnings.length > 0 ? (
              <div class="warning" id="funding-warnings" role="note">
                <p>Before you report it:</p>
                <ul>
                  {warnings.map((w) => (
                    <li>{w}</li>
                  ))}
                </ul>
              </div>
            ) : null}
            <label for="funded_amount">
              Amount paid out ({deal.request.currency}, at most the accepted offer)
              <RequiredMark />
            </label>
            <input
              type="text"
              inputmode="decimal"
              id="funded_amount"
              name="funded_amount"
              required
              value={draft.fields.funded_amount ?? (accepted ? String(accepted.amount) : "")}
              {...invalid(refusal, "funded_amount")}
            />
            <FieldError field="funded_amount" error={refusal} />
            <label for="funded_on">
              Day the money was paid out
              <RequiredMark />
            </label>
            <input type="date" id="funded_on" name="funded_on" required max={today} value={draft.fields.funded_on ?? today} {...invalid(refusal, "funded_on")} />
            <FieldError field="funded_on" error={refusal} />
          </>
        }
      />
    </PortalPage>,
    status,
  );
}

const refOf = (c: PortalContext) => normaliseDealReference(c.req.param("ref") ?? "");

export function registerOutcomeConfirmations(portal: Hono<PortalEnv>) {
  portal.get("/deals/:ref/decline", async (c) => {
    const found = await dealOf(c, refOf(c));
    // A deal with an outcome has nothing to decline: back to its page, which shows the outcome.
    if (dealHasOutcome({ status: found.deal.status, lenderStatus: found.deal.lender_status })) return c.redirect(dealUrl(found.deal.ref, "#outcome"), 303);
    return declinePage(c, found.deal, 200, null, NO_DRAFT);
  });

  portal.get("/deals/:ref/funded", async (c) => {
    return fundedPage(c, await dealOf(c, refOf(c)), 200, null, NO_DRAFT);
  });

  const draftOf = (form: FormData): OutcomeDraft => ({ fields: textFields(form, { trim: true }), reasons: textsOf(form, "reasons") });
  const audit = (c: PortalContext) => ({ action: "deal.status_reported", target: refOf(c) });

  portal.post(
    "/deals/:ref/decline",
    portalForm<OutcomeDraft>({
      audit,
      draftOf,
      // Without the confirm page's field (a stale page, a script) nothing is decided: the person is shown the question.
      confirm: (c) => `${dealUrl(refOf(c))}/decline`,
      act: async (c, form) => {
        const ref = refOf(c);
        const { fields, reasons } = draftOf(form);
        const report = parseForm(StatusBody, declineReportOf(fields, reasons), "body");
        const deal = await reportStatus(c.get("deps"), scopeOfViewer(c.get("viewer")), ref, report).catch((error: unknown) => {
          // The service names the code's place in the API's words (`reasons.0.code`); the page has one list of boxes.
          if (error instanceof Refusal && error.code === "unknown_code") throw new Refusal("unknown_code", "Choose the reasons from the list.", { field: "reasons" });
          throw error;
        });
        return `${dealUrl(deal.ref)}?notice=declined#outcome`;
      },
      showAgain: async (c, refusal, draft) => {
        const found = await dealOf(c, refOf(c));
        return declinePage(c, found.deal, refusal.status as ContentfulStatusCode, refusal, draft);
      },
    }),
  );

  portal.post(
    "/deals/:ref/funded",
    portalForm<OutcomeDraft>({
      audit,
      draftOf,
      confirm: (c) => `${dealUrl(refOf(c))}/funded`,
      act: async (c, form) => {
        const ref = refOf(c);
        const { fields } = draftOf(form);
        const scope = scopeOfViewer(c.get("viewer"));
        const found = await dealOf(c, ref);
        const notYet = portalFundingRefusal({ status: found.deal.status, lenderStatus: found.deal.lender_status });
        if (notYet) throw notYet;
        if (!fields.funded_on) throw new Refusal("invalid_request", "Give the day the money was paid out.", { field: "funded_on" });
        const amount = fields.funded_amount ? (readNumber(fields.funded_amount) ?? fields.funded_amount) : undefined;
        if (amount === undefined) throw new Refusal("invalid_request", "Give the amount paid out.", { field: "funded_amount" });
        const report = parseForm(StatusBody, { status: "funded", funded_amount: amount, funded_on: fields.funded_on }, "body");
        const deal = await reportStatus(c.get("deps"), scope, ref, report);
        return `${dealUrl(deal.ref)}?notice=funded#outcome`;
      },
      showAgain: async (c, refusal, draft) => {
        const found = await dealOf(c, refOf(c));
        return fundedPage(c, found, refusal.status as ContentfulStatusCode, refusal, draft);
      },
    }),
  );
}
