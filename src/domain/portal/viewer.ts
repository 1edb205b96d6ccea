import type { Scope } from "../identity/caller";
import type { Environment } from "../identity/keys";

export const PORTAL_ROLES = ["admin", "member"] as const;
export type PortalRole = (typeof PORTAL_ROLES)[number];

/** Who is looking at the portal: resolved once per request from the session cookie. */
export interface PortalViewer {
  memberId: string;
  email: string;
  role: PortalRole;
  organisationId: string;
  organisationName: string;
  organisationKind: "partner" | "lender";
  /** The environment the member picked (sandbox unless they switched): every read and write is scoped to it. */
  environment: Environment;
  /** The session's token hash: identifies the session to end or switch, and keys its form tokens. */
  sessionId: string;
  /** Epoch seconds of the session's last passkey proof (sign-in, enrolment or step-up): see `passkeyFresh`. */
  passkeyVerifiedAt: number;
  /** A lender's member: how many deals wait on the lender's action (the work queue's count in the navigation), read once per page. */
  awaiting?: number;
}

/** The same scope the API's services take from an API key: the portal reaches no further than a key would. */
export const scopeOfViewer = (viewer: PortalViewer): Scope => ({ organisationId: viewer.organisationId, environment: viewer.environment });

/** Sessions end after twelve idle hours. */
export const SESSION_IDLE_SECONDS = 12 * 60 * 60;
/** And 7 days after they began, however busy: a stolen cookie does not live on by being used. */
export const SESSION_LIFETIME_SECONDS = 7 * 24 * 60 * 60;
/** An admin's (keys, webhooks, members) ends 12 hours after it began: one working day. */
export const ADMIN_SESSION_LIFETIME_SECONDS = 12 * 60 * 60;

/** `createdAt` is the session's ISO start; `lastSeenAt` and `nowSeconds` are epoch seconds; the role is the member's now. */
export const sessionExpired = (lastSeenAt: number, nowSeconds: number, createdAt?: string, role: PortalRole = "member") =>
  nowSeconds - lastSeenAt > SESSION_IDLE_SECONDS ||
  (createdAt !== undefined && nowSeconds - Math.floor(Date.parse(createdAt) / 1000) > (role === "admin" ? ADMIN_SESSION_LIFETIME_SECONDS : SESSION_LIFETIME_SECONDS));

/**
 * How recent a passkey proof the step-up actions need: adding a passkey, making a new
 * sign-in link and creating a live key. A session's cookie alone (copied, or a device left open) does
 * not do them: the member confirms with their passkey on the page first.
 */
export const STEP_UP_SECONDS = 5 * 60;

export const passkeyFresh = (passkeyVerifiedAt: number, nowSeconds: number) => nowSeconds - passkeyVerifiedAt <= STEP_UP_SECONDS;
