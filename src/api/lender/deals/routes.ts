import { createRoute, z } from "@hono/zod-openapi";
import { errorResponses, jsonBody, jsonContent, security } from "../../openapi";
import { AGREEMENT_MAX_BYTES, MessageBody, OfferBody, StatusBody } from "../../shared/schemas/deal-actions";
import { Completion, Deal, DealList, DealOffer, DealQuery, DealRefParam, Message, OfferList } from "../../shared/schemas/deal";

const tags = ["Deals"];

export const listDealsRoute = createRoute({
  method: "get",
  path: "/deals",
  summary: "List the deals routed to you",
  description: "Newest first, in the key's environment; keyset-paginated through the opaque `next_cursor` (valid only with the same `status` and `reasons` filters). `reasons` keeps the deals you declined with any of the given `decline-reasons` codes.",
  tags,
  security: security.lender,
  request: { query: DealQuery },
  responses: { 200: jsonContent(DealList, "A page of deals"), ...errorResponses("invalid_request") },
});

export const getDealRoute = createRoute({
  method: "get",
  path: "/deals/{ref}",
  summary: "Read a deal",
  description:
    "The full deal, exactly what `full` webhook payloads carry. While the deprecated top-level duplicates (`monthly_revenue`, `annual_turnover`, `market_block`, `market_region`) exist the response carries a `Deprecation` header and a `Link` to their notice.",
  tags,
  security: security.lender,
  request: { params: DealRefParam },
  responses: {
    200: {
      ...jsonContent(Deal, "The deal"),
      headers: {
        Deprecation: { schema: { type: "string" }, description: "RFC 9745: the date the top-level duplicates were deprecated." },
        Link: { schema: { type: "string" }, description: "`rel=\"deprecation\"` link to the notice." },
      },
    },
    ...errorResponses("not_found"),
  },
});

export const reportStatusRoute = createRoute({
  method: "post",
  path: "/deals/{ref}/status",
  summary: "Report your status of a deal",
  description:
    "Moves `lender_status`: new → in_review; new, in_review or offer_made → declined; offer_made → funded (with a positive `funded_amount`, at most the amount of the offer the partner accepted on the deal, or of the deal's current offer while none is accepted: above it is 422 `amount_above_offer` naming `funded_amount`, nothing written). Other moves are 409 `invalid_transition`. Funded and declined flow back to the lead (`declined` once every routed lender declined). `declined` takes `reasons: [{code, detail?, shareable?}]`, codes of the `decline-reasons` list (an unknown code is 422 `unknown_code` naming `reasons.N.code`); the partner reads each code's label as an anonymised outcome, and `detail` only when `shareable`. The free-text `reason` is deprecated and read as `other`. Emits `deal.updated` (with the codes).",
  tags,
  security: security.lender,
  request: { params: DealRefParam, body: jsonBody(StatusBody) },
  responses: { 200: jsonContent(Deal, "The deal after the change"), ...errorResponses("invalid_request", "not_found", "invalid_transition", "amount_above_offer", "unknown_code") },
});

export const listOffersRoute = createRoute({
  method: "get",
  path: "/deals/{ref}/offers",
  summary: "List your offers on a deal",
  description: "The current offer and every set of terms it replaced (marked `superseded`), oldest first.",
  tags: ["Offers"],
  security: security.lender,
  request: { params: DealRefParam },
  responses: { 200: jsonContent(OfferList, "The offers"), ...errorResponses("not_found") },
});

export const makeOfferRoute = createRoute({
  method: "post",
  path: "/deals/{ref}/offers",
  summary: "Make an offer",
  description:
    "Exactly one of `annual_rate_pct` and `factor_rate`. The new offer replaces the current one (which stays listed, `superseded: true`, `superseded_by` the new maturity); indicative terms cannot replace firm ones. Sets `lender_status` to `offer_made`; the partner sees the offer as `presented`. 409 `invalid_transition` once the deal is declined or funded or an offer on the lead was accepted.",
  tags: ["Offers"],
  security: security.lender,
  request: { params: DealRefParam, body: jsonBody(OfferBody) },
  responses: { 201: jsonContent(DealOffer, "The offer"), ...errorResponses("invalid_request", "not_found", "invalid_transition") },
});

export const listMessagesRoute = createRoute({
  method: "get",
  path: "/deals/{ref}/messages",
  summary: "Read the client conversation",
  tags: ["Messages"],
  security: security.lender,
  request: { params: DealRefParam },
  responses: { 200: jsonContent(z.object({ messages: z.array(Message) }).openapi("MessageList"), "The messages, oldest first"), ...errorResponses("not_found") },
});

export const sendMessageRoute = createRoute({
  method: "post",
  path: "/deals/{ref}/messages",
  summary: "Message the client",
  description: "Sends a `lender_to_borrower` message (1 to 5000 characters); the client replies in the hub.",
  tags: ["Messages"],
  security: security.lender,
  request: { params: DealRefParam, body: jsonBody(MessageBody) },
  responses: { 201: jsonContent(z.object({ message: Message }), "The message"), ...errorResponses("invalid_request", "not_found") },
});

export const completionRoute = createRoute({
  method: "get",
  path: "/deals/{ref}/completion",
  summary: "Read the completion state",
  description: "What has happened towards completion; false and null until it does.",
  tags: ["Completion"],
  security: security.lender,
  request: { params: DealRefParam },
  responses: { 200: jsonContent(z.object({ completion: Completion }), "The completion state"), ...errorResponses("not_found") },
});

export const putAgreementRoute = createRoute({
  method: "put",
  path: "/deals/{ref}/agreement",
  summary: "Upload the agreement",
  description: `The raw PDF as the body with \`Content-Type: application/pdf\` (415 otherwise), at most ${AGREEMENT_MAX_BYTES} bytes (413). An empty body or one that is not a PDF (no \`%PDF-\` header) is 400. Replaces an earlier upload until the business signs; after the signature the agreement is immutable and an upload is 409 \`agreement_signed\`.`,
  tags: ["Completion"],
  security: security.lender,
  request: {
    params: DealRefParam,
    body: { required: false, content: { "application/pdf": { schema: z.string().openapi({ format: "binary" }) } } },
  },
  responses: {
    200: jsonContent(z.object({ completion: Completion }), "The completion state"),
    ...errorResponses("invalid_request", "not_found", "agreement_signed", "unsupported_media_type"),
  },
});
