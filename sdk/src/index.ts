export { createLenderClient, createPartnerClient, type ClientOptions, type LenderClient, type PartnerClient } from "./clients";
export { bearerFetch, clientIdOf, createTokenProvider, TokenExchangeError, type PartnerTokenOptions, type TokenProvider, type TokenResponse } from "./auth";
export { verifyWebhook, WebhookVerificationError, type VerifyOptions, type WebhookHeaders, type WebhookVerificationErrorCode } from "./webhooks/verify";
export type * from "./webhooks/events";
export type { paths as PartnerPaths, components as PartnerComponents, operations as PartnerOperations } from "./generated/partner";
export type { paths as LenderPaths, components as LenderComponents, operations as LenderOperations } from "./generated/lender";
