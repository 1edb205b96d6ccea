import type { DealView, messageView } from "../../../domain/deals/view";
import type { documentRequestView } from "../../../domain/documents/view";
import type { PortalViewer } from "../../../domain/portal/viewer";
import { PORTAL_ROUTE } from "../context";
import { PortalPage } from "../layout";
import { CompletionSection } from "./deal-completion";
import { MessagesSection } from "./deal-conversation";
import { DocumentsSection, RequestsSection } from "./deal-documents";
import { DealSummarySection, MarketSection, RegisterSection } from "./deal-facts";
import { OffersSection, StatusSection } from "./deal-offers";
import type { DealRefusal } from "./fields";

export interface DealPageProps {
  viewer: PortalViewer;
  formToken: string;
  deal: DealView;
  requests: ReturnType<typeof documentRequestView>[];
  messages: ReturnType<typeof messageView>[];
  notice?: string | null;
  refusal?: DealRefusal | null;
}

/** One deal, everything the lender API shows of it, and every action a lender takes on it. */
export const dealPage = (p: DealPageProps) => {
  const refusal = p.refusal ?? null;
  return (
    <PortalPage
      title={`Deal ${p.deal.ref}`}
      viewer={p.viewer}
      formToken={p.formToken}
      feedback={{ notice: p.notice ?? null, error: refusal ? { field: refusal.field, message: `Not saved: ${refusal.message}` } : null }}
    >
      <p>
        <a href={`${PORTAL_ROUTE}/deals`}>All deals</a>
      </p>
      <nav aria-label="On this page">
        <a href="#offers">Offers</a> <a href="#report">Status</a> <a href="#documents">Documents</a> <a href="#requests">Requests</a> <a href="#messages">Messages</a> <a href="#completion">Completion</a>
      </nav>
      <DealSummarySection deal={p.deal} />
      <MarketSection deal={p.deal} />
      <RegisterSection deal={p.deal} />
      <OffersSection deal={p.deal} formToken={p.formToken} refusal={refusal} />
      <StatusSection deal={p.deal} formToken={p.formToken} refusal={refusal} />
      <DocumentsSection deal={p.deal} />
      <RequestsSection dealRef={p.deal.ref} requests={p.requests} formToken={p.formToken} refusal={refusal} />
      <MessagesSection dealRef={p.deal.ref} messages={p.messages} formToken={p.formToken} refusal={refusal} test={p.deal.test} />
      <CompletionSection deal={p.deal} formToken={p.formToken} refusal={refusal} />
    </PortalPage>
  );
};
