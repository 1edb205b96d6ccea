/** Endpoint signing secrets: sealed at rest, opened only to sign or to hand back once. */
import type { WebhookEndpointRow } from "../../db/webhooks/webhooks";
import { openSecret, sealSecret } from "../../lib/secret-box";
import { signingSecretOf } from "../../lib/signing-secret";
import type { Deps } from "../deps";

const PURPOSE = "webhook-endpoint-secret";
/** After a rotation the previous secret keeps signing for this long, so receivers can switch over. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

export const sealEndpointSecret = ({ env }: Deps, secret: string) => sealSecret(signingSecretOf(env), PURPOSE, secret);

/** The secrets deliveries are signed with now: the current one, then the previous one while it overlaps. */
export async function endpointSecrets({ env, clock }: Deps, endpoint: Pick<WebhookEndpointRow, "secretSealed" | "previousSecretSealed" | "previousSecretExpiresAt">, now = clock()) {
  const secrets = [await openSecret(signingSecretOf(env), PURPOSE, endpoint.secretSealed)];
  if (endpoint.previousSecretSealed && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now.toISOString()) {
    secrets.push(await openSecret(signingSecretOf(env), PURPOSE, endpoint.previousSecretSealed));
  }
  return secrets;
}
