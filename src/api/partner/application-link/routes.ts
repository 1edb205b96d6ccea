import { createRoute } from "@hono/zod-openapi";
import { errorResponses, jsonBody, jsonContent, security } from "../../openapi";
import { IdempotencyHeader } from "../../shared/schemas/common";
import { LeadIdParam } from "../../shared/schemas/lead";
import { ApplicationLinkCreate, ApplicationLinkCreated, ApplicationLinkStatus } from "../../shared/schemas/application-link";
import { ConsentText, ConsentTextVersionParam } from "../../shared/schemas/consent";

const tags = ["Application link"];
const guide = "The flow, the pages and the receipt: [Application link](/docs/guides/application-link).";

export const createApplicationLinkRoute = createRoute({
  method: "post",
  path: "/leads/{id}/application-link",
  summary: "Send the business a link to fill in its own application",
  description: `A single-purpose link for a draft lead: the business opens it on its phone, fills in each step (what you filled in is prefilled; \`locked\` fields are shown but not editable), reads the market's consent text with your commission disclosure, agrees, and the lead becomes ready to submit (or is submitted at once with \`submit: "auto"\`). A new link revokes the previous one. \`url\` is answered this once: only its hash is stored. Sandbox leads get links on the sandbox host. You receive \`lead.application_opened\`, \`lead.consent_captured\` and \`lead.application_completed\`. A submitted lead: 409 \`lead_submitted\`. ${guide}`,
  tags,
  security: security.partner,
  request: { params: LeadIdParam, headers: IdempotencyHeader, body: jsonBody(ApplicationLinkCreate) },
  responses: {
    201: jsonContent(ApplicationLinkCreated, "The link, its token in `url` (shown once)"),
    ...errorResponses("invalid_request", "not_found", "lead_submitted"),
  },
});

export const getApplicationLinkRoute = createRoute({
  method: "get",
  path: "/leads/{id}/application-link",
  summary: "The state of the lead's application link",
  description: `The newest link of the lead, without its token: \`sent\`, \`opened\`, \`completed\`, \`expired\` or \`revoked\`. 404 when the lead has none. ${guide}`,
  tags,
  security: security.partner,
  request: { params: LeadIdParam },
  responses: { 200: jsonContent(ApplicationLinkStatus, "The link's state"), ...errorResponses("invalid_request", "not_found") },
});

export const revokeApplicationLinkRoute = createRoute({
  method: "delete",
  path: "/leads/{id}/application-link",
  summary: "Revoke the lead's application link",
  description: `The live link stops working at once, and the business's open session with it; the link then reads like a guessed one. Answers the newest link's state (a completed or expired link stays so). 404 when the lead has no link. ${guide}`,
  tags,
  security: security.partner,
  request: { params: LeadIdParam },
  responses: { 200: jsonContent(ApplicationLinkStatus, "The link's state"), ...errorResponses("invalid_request", "not_found") },
});

export const getConsentTextRoute = createRoute({
  method: "get",
  path: "/consent-texts/{version}",
  summary: "A consent text or commission disclosure version, exactly as shown",
  description: `Every locale's text of the version with its sha256: a lead's \`consent.receipt\` names the version, locale and hash of the text the business agreed to (\`text_version\`, \`locale\`, \`text_sha256\`) and of the commission disclosure shown beside it (\`disclosure_version\`, \`disclosure_locale\`, \`disclosure_sha256\`); both are served here, told apart by \`kind\`. Versions are kept forever; an unknown one is 404. ${guide}`,
  tags,
  security: security.partner,
  request: { params: ConsentTextVersionParam },
  responses: { 200: jsonContent(ConsentText, "The version's texts"), ...errorResponses("invalid_request", "not_found") },
});
