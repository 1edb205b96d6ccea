export { createLenderClient, createPartnerClient, type ClientOptions, type LenderClient, type PartnerClient } from "./clients.js";
export { bearerFetch, clientIdOf, createTokenProvider, TokenExchangeError, type PartnerTokenOptions, type TokenProvider, type TokenResponse } from "./auth.js";
export { verifyWebhook, WebhookVerificationError, type VerifyOptions, type WebhookHeaders, type WebhookVerificationErrorCode } from "./webhooks/verify.js";
export type * from "./webhooks/events.js";
export type { paths as PartnerPaths, components as PartnerComponents, operations as PartnerOperations } from "./generated/partner.js";
export type { paths as LenderPaths, components as LenderComponents, operations as LenderOperations } from "./generated/lender.js";
