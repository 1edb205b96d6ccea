/**
 * The client-hub link's life: rate limits per link and per
 * client address, and the partner's rotation. No token is ever logged.
 */
import { rotateHubLink } from "../../db/hub/hub-links";
import { isoNow, type Deps } from "../deps";
import { countInBucket } from "../identity/bucket-limit";
import type { Scope } from "../../domain/identity/caller";
import {
  HUB_LIMIT_WINDOW_SECONDS,
  HUB_REQUESTS_PER_ADDRESS,
  HUB_REQUESTS_PER_LINK,
  hubAddressBucket,
  hubLinkBucket,
  hubLinkExpiresAt,
} from "../../domain/hub/link";
import { Refusal } from "../../lib/refusal";
import type { Links } from "../views/links";

// Fails closed, as every limiter of the service does.
const count = (deps: Deps, bucket: string, limit: number) =>
  countInBucket(deps, bucket, {
    limit,
    windowSeconds: HUB_LIMIT_WINDOW_SECONDS,
    unavailable: "The hub cannot count requests just now; try again in a few seconds.",
    limited: (resetSeconds) => `Too many requests; try again in ${resetSeconds} seconds.`,
  });

/** One hub request from this client address, whatever it names. */
export const countHubRequestFromAddress = (deps: Deps, address: string) => count(deps, hubAddressBucket(address), HUB_REQUESTS_PER_ADDRESS);

/** One request on a lead's hub, counted once its link or session has opened it (a wrong token cannot spend a lead's quota). */
export const countHubRequestOnLink = (deps: Deps, leadId: string) => count(deps, hubLinkBucket(leadId), HUB_REQUESTS_PER_LINK);

/**
 * `POST /partner/v1/leads/{id}/hub-link`: a new link for the lead, valid 30
 * days; the previous link and every hub session opened with it stop working
 * at once. `not_found` for a lead outside the caller's account and environment.
 */
export async function rotateLeadHubLink(deps: Deps, links: Links, scope: Scope, leadId: string) {
  const { db } = deps;
  const link = await rotateHubLink(db, scope, leadId, isoNow(deps));
  if (!link) throw new Refusal("not_found", "No lead with that id in this account and environment.");
  return { id: leadId, upload_url: await links.hub(leadId, link.generation), expires_at: hubLinkExpiresAt(link) };
}
