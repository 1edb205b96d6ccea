import { Copyable } from "../../kit/copy";
import type { DealView, messageView } from "../../../domain/deals/view";
import type { documentRequestView } from "../../../domain/documents/view";
import type { PortalViewer } from "../../../domain/portal/viewer";
import { dealHasOutcome, WORK_STAGES, workStageOf } from "../../../domain/deals/work-queue";
import { PORTAL_ROUTE } from "../context";
import { PortalPage } from "../layout";
import { CompletionSection } from "./deal-completion";
import { MessagesSection } from "./deal-conversation";
import { DocumentsSection, RequestsSection } from "./deal-documents";
import { ApiFieldsSection, DealSummarySection, MarketSection, RegisterSection } from "./deal-facts";
import { OffersSection, OutcomeSection, StatusSection } from "./deal-offers";
import { SimulateSection } from "./deal-simulate";
import type { DealRefusal } from "./fields";
import type { DealForUnderwriting } from "../../../services/deals/underwriting";
import { DirectorsSection, StatementMonthsSection } from "./deal-underwriting";
import type { WorkingSet } from "../../../services/deals/working-set";
import { WorkingSetSection } from "./deal-working-set";

interface DealPageProps {
  viewer: PortalViewer;
  formToken: string;
  deal: DealView;
  underwriting: DealForUnderwriting;
  working: WorkingSet;
  requests: ReturnType<typeof documentRequestView>[];
  messages: ReturnType<typeof messageView>[];
  notice?: string | null;
  refusal?: DealRefusal | null;
}

/** What the deal waits on the lender for (the work queue's stage), read from the view. */
const stageOfView = (d: DealView, p: Pick<DealPageProps, "requests" | "messages">) =>
  workStageOf({
    status: d.status,
    lenderStatus: d.lender_status,
    agreementUploadedAt: d.completion.agreement_uploaded_at,
    accountSubmittedAt: d.completion.account_submitted_at,
    signedAt: d.completion.signed_at,
  }, {
    documentsArrived: p.requests.some((r) => r.status === "uploaded"),
    clientReplied: (p.messages.at(-1)?.direction ?? "lender_to_borrower") === "borrower_to_lender",
  });

/**
 * One deal, everything the lender API shows of it, and every action a lender
 * takes on it. A funded or declined deal shows its outcome and no forms that
 * would only be refused; a test deal adds the buttons that play the business.
 */
export const dealPage = (p: DealPageProps) => {
  const refusal = p.refusal ?? null;
  const d = p.deal;
  const closed = dealHasOutcome({ status: d.status, lenderStatus: d.lender_status });
  const stage = WORK_STAGES.find((s) => s.value === stageOfView(d, p)) ?? null;
  const open = !closed;
  return (
    <PortalPage
      title={`Deal ${d.ref}`}
      viewer={p.viewer}
      formToken={p.formToken}
      feedback={{ notice: p.notice ?? null, error: refusal ? { field: refusal.field, message: `Not saved: ${refusal.message}` } : null }}
    >
      <p class="reference-line">
        <span class="muted">Reference </span>
        <Copyable value={d.ref} anchor="deal-reference" what="the deal reference" />
      </p>
      <p>
        <a href={`${PORTAL_ROUTE}/deals`}>All deals</a>
        {d.test ? (
          <>
            {" · "}
            <a href={`${PORTAL_ROUTE}/sandbox`}>Test deals</a>
          </>
        ) : null}
      </p>
      {stage ? (
        <p class="next-step" data-stage={stage.value}>
          <strong>Waiting on you: {stage.label}.</strong> {stage.action}
        </p>
      ) : null}
      <nav aria-label="On this page">
        {closed ? <a href="#outcome">Outcome</a> : null} {d.test && open ? <a href="#simulate">Simulate</a> : null} <a href="#working">Your team</a> <a href="#directors">Directors</a> <a href="#statements">Statements</a> <a href="#offers">Offers</a> {open ? <a href="#report">Status</a> : null}{" "}
        <a href="#documents">Documents</a> <a href="#requests">Requests</a> <a href="#messages">Messages</a> <a href="#completion">Completion</a>
      </nav>
      {closed ? <OutcomeSection deal={d} /> : null}
      <DealSummarySection deal={d} introducedBy={p.underwriting.introducedBy} />
      <WorkingSetSection dealRef={d.ref} viewer={p.viewer} working={p.working} formToken={p.formToken} refusal={refusal} />
      {d.test && open ? <SimulateSection deal={d} formToken={p.formToken} refusal={refusal} /> : null}
      <MarketSection deal={d} />
      <RegisterSection deal={d} />
      <DirectorsSection deal={p.underwriting} />
      <StatementMonthsSection deal={p.underwriting} />
      <OffersSection deal={d} formToken={p.formToken} refusal={refusal} closed={closed} />
      {open ? <StatusSection deal={d} formToken={p.formToken} refusal={refusal} /> : null}
      <DocumentsSection deal={d} />
      <RequestsSection dealRef={d.ref} requests={p.requests} formToken={p.formToken} refusal={refusal} closed={closed} />
      <MessagesSection dealRef={d.ref} messages={p.messages} formToken={p.formToken} refusal={refusal} test={d.test} />
      <CompletionSection deal={d} formToken={p.formToken} refusal={refusal} closed={closed} admin={p.viewer.role === "admin"} />
      {p.viewer.role === "admin" ? <ApiFieldsSection deal={d} /> : null}
    </PortalPage>
  );
};
