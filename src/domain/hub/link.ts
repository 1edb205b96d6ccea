/**
 * The client-hub link's rules. Pure: how long a link and a
 * hub session live, when the hub is read-only, and the rate limits.
 */
import type { Lead } from "../leads/types";
import type { LeadState } from "../reference/values";

export interface HubLinkState {
  /** 0 for the lead's first link; each rotation adds one (and changes the token). */
  generation: number;
  issuedAt: string;
}

/** A link works for 30 days after it was issued; a rotation issues a new one for another 30. */
const HUB_LINK_TTL_DAYS = 30;
/** The session cookie a link is exchanged for lives 12 hours, and never past the link's own expiry. */
const HUB_SESSION_HOURS = 12;

export const hubLinkExpiresAt = (link: HubLinkState) => new Date(Date.parse(link.issuedAt) + HUB_LINK_TTL_DAYS * 86_400_000).toISOString();
export const hubLinkExpired = (link: HubLinkState, now: number) => Date.parse(hubLinkExpiresAt(link)) <= now;

/** Seconds since the epoch at which a session opened now ends. */
export const hubSessionExpiry = (link: HubLinkState, now: number) =>
  Math.floor(Math.min(now + HUB_SESSION_HOURS * 3_600_000, Date.parse(hubLinkExpiresAt(link))) / 1000);

/**
 * Once the lead is funded, declined by every provider, or out of scope (no
 * provider: the closest thing this service has to withdrawn), the business can
 * still read its hub but can no longer change anything in it.
 */
const READ_ONLY_LEAD_STATES: readonly LeadState[] = ["funded", "declined", "out_of_scope"];
export const hubIsReadOnly = (lead: Pick<Lead, "state">) => READ_ONLY_LEAD_STATES.includes(lead.state);

/** Requests per minute on one lead's hub (a person reads a page every few seconds at most). */
export const HUB_REQUESTS_PER_LINK = 60;
/** Hub requests per minute from one client address, whatever link they name (an office behind one address included). */
export const HUB_REQUESTS_PER_ADDRESS = 120;
export const HUB_LIMIT_WINDOW_SECONDS = 60;
export const hubLinkBucket = (leadId: string) => `hub:link:${leadId}`;
export const hubAddressBucket = (address: string) => `hub:address:${address}`;
