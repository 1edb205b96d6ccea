/**
 * The sandbox business behind a lender's test deal: what it is (a lead of the
 * lender's own organisation, marked by the deal it stands behind) and what it
 * answers when the lender simulates it acting (POST /v1/test/deals/{ref}/simulate).
 * The answers are fixed, plausible and pass the hub's own checks, so the hub
 * code that acts on them decides exactly as it does for a real business. Pure.
 */
import type { LenderEvent } from "../reference/values";
import type { Lead } from "../leads/types";
import { subjectOf } from "../leads/subject";
import { accountSchemeOf, type AccountScheme } from "../reference/account-schemes";
import type { Deal } from "./types";
import { OPEN_REQUEST_STATUSES, type DocumentRequest } from "../documents/types";

/** The events a lender can make the business fire on a test deal, in the order a deal meets them. */
export const TEST_DEAL_SIMULATED_EVENTS = [
  { value: "offer.accepted", label: "The business accepts the deal's current offer (as its partner would), so the deal reaches `offer_accepted`" },
  { value: "message.created", label: "The business replies to the lender from the client hub" },
  { value: "request.fulfilled", label: "The business uploads a file answering the deal's oldest open document request" },
  { value: "document.removed", label: "The business takes back the newest file it sent on the deal's document requests" },
  { value: "deal.account_submitted", label: "The business submits its payout account on the accepted deal" },
  { value: "deal.agreement_signed", label: "The business signs the agreement the lender uploaded" },
] as const satisfies readonly { value: LenderEvent; label: string }[];

export type TestDealSimulatedEvent = (typeof TEST_DEAL_SIMULATED_EVENTS)[number]["value"];
export const TEST_DEAL_SIMULATED_EVENT_VALUES = TEST_DEAL_SIMULATED_EVENTS.map((e) => e.value) as unknown as readonly [TestDealSimulatedEvent, ...TestDealSimulatedEvent[]];

/**
 * The lead standing for the test deal's business: the deal's own subject,
 * already matched (a routed deal's lead is at least matched, and offers can
 * be accepted from there), owned by the lender organisation.
 */
export const sandboxBusinessLead = (deal: Deal, id: string, reference: string, at: string): Lead => ({
  id,
  reference,
  organisationId: deal.lenderOrganisationId,
  environment: deal.environment,
  ...subjectOf(deal.subject),
  partnerReference: null,
  state: "matched",
  timeline: [],
  matchedOptions: 1,
  options: null,
  version: 1,
  submittedAt: at,
  renewalOf: null,
  createdAt: at,
  updatedAt: at,
});

/** The business's reply to the lender, as typed into the hub's message form. */
export const SANDBOX_REPLY = {
  subject: "Re: your questions",
  body: "Thanks for the update. We are happy to go ahead; ask us for anything else you need. (Sandbox reply)",
} as const;

/** A one-page PDF: every document type takes PDF, and a PDF statement is kept unparsed, so the hub accepts it for any request. */
const SANDBOX_PDF = "%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n";

export const sandboxUpload = (documentType: string) => ({
  name: `sandbox-${documentType.replace(/_/g, "-")}.pdf`,
  type: "application/pdf",
  bytes: new TextEncoder().encode(SANDBOX_PDF),
});

/** Well-formed payout details of each account scheme (they pass the scheme's format and checksum). */
const SANDBOX_ACCOUNTS: Record<AccountScheme, Record<string, string>> = {
  uk: { sort_code: "04-00-04", account_number: "12345678" },
  us: { routing_number: "021000021", account_number: "000123456789" },
  ca: { transit_number: "00011", institution_number: "001", account_number: "1234567" },
  au: { bsb: "062-000", account_number: "12345678" },
  iban: { iban: "DE89 3704 0044 0532 0130 00" },
};

const holderOf = (deal: Deal) => deal.subject.business?.name ?? "Sandbox Business";

/** The account form the business fills in for the deal's market. */
export const sandboxAccountForm = (deal: Deal): Record<string, string> => ({
  account_holder_name: holderOf(deal),
  ...SANDBOX_ACCOUNTS[accountSchemeOf(deal.subject.country)],
});

/** The signature form: the contact's typed name (or the business's) and the consent tick. */
export const sandboxSignatureForm = (deal: Deal) => {
  const contact = deal.subject.contact;
  const name = [contact?.first_name, contact?.last_name].filter(Boolean).join(" ");
  // The signature needs a first and a last name (signature.ts `signerNameWordsOf`): a contact with one name signs as the sandbox's own signer.
  return { full_name: name.includes(" ") ? name : "Sandbox Signer", consent: "yes" };
};

/**
 * The request the business answers: the oldest one still waiting for it, else
 * the oldest open one (an uploaded request still takes files, as in the hub),
 * so repeated uploads reach every waiting request in turn. `requests` are one
 * deal's, oldest first; null when none is open.
 */
export function requestToAnswer<R extends Pick<DocumentRequest, "status">>(requests: readonly R[]): R | null {
  return requests.find((r) => r.status === "requested") ?? requests.find((r) => OPEN_REQUEST_STATUSES.includes(r.status)) ?? null;
}
