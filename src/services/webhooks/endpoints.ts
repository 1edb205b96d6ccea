/** Webhook endpoint management for both APIs: registration, changes, rotation, deliveries. */
import { attemptsOf, countEndpoints, findDelivery, findEndpoint, insertEndpointWithinCap, listDeliveries, listEndpoints, updateEndpoint, type WebhookEndpointRow } from "../../db/webhooks/webhooks";
import type { Scope } from "../../domain/identity/caller";
import { generateEndpointSecret } from "../../domain/webhooks/signature";
import { eventsOf, type HostKind, type PayloadMode, type WebhookApi } from "../../domain/webhooks/subscriptions";
import { nextKeysetCursor, readKeysetCursor } from "../../lib/cursor";
import { Refusal } from "../../lib/refusal";
import { signingSecretOf } from "../../lib/signing-secret";
import { newId } from "../../lib/ids";
import { resendDelivery } from "./delivery";
import { checkDestination } from "./destination";
import { ROTATION_OVERLAP_MS, sealEndpointSecret } from "./secrets";
import { isoNow, type Deps } from "../deps";
import { bodyOf } from "./bodies";

/** The request's Deps with the caller's account, environment and API. */
export interface EndpointContext extends Deps {
  scope: Scope;
  api: WebhookApi;
}

/** How long a caller is asked to wait when the DNS resolver could not answer: an outage, not a verdict. */
export const RESOLVER_RETRY_AFTER_SECONDS = 10;

async function requireAcceptableUrl(deps: Deps, url: string) {
  const verdict = await checkDestination(deps, url);
  if (verdict.ok) return verdict.url.toString();
  if (verdict.kind === "unavailable") {
    throw new Refusal("resolver_unavailable", `${verdict.reason}; nothing was saved, retry after ${RESOLVER_RETRY_AFTER_SECONDS} seconds.`, {
      retryAfterSeconds: RESOLVER_RETRY_AFTER_SECONDS,
    });
  }
  throw new Refusal("invalid_request", `${verdict.reason}.`, { field: "url" });
}

const notFound = (id: string) => new Refusal("not_found", `No webhook endpoint ${id}.`);

/** The caller's endpoints on this API, in this environment. */
export const ownEndpoints = (ctx: EndpointContext) => listEndpoints(ctx.db, ctx.scope, ctx.api);

export async function requireEndpoint(ctx: EndpointContext, id: string) {
  const endpoint = await findEndpoint(ctx.db, ctx.scope, ctx.api, id);
  if (!endpoint) throw notFound(id);
  return endpoint;
}

/** Stripe's figure: enough for every environment of a receiver fleet, few enough that a fan-out stays cheap. */
export const ENDPOINTS_PER_ACCOUNT = 16;

export interface RegistrationInput {
  url: string;
  events?: string[];
  payload: PayloadMode;
  /** Already trimmed and checked by the schema; "" or null is none. */
  description?: string | null;
}

export async function registerEndpoint(ctx: EndpointContext, hostKind: HostKind, input: RegistrationInput) {
  const url = await requireAcceptableUrl(ctx, input.url);
  const secret = generateEndpointSecret();
  const now = isoNow(ctx);
  const row = {
    id: newId("whe", 24),
    organisationId: ctx.scope.organisationId,
    environment: ctx.scope.environment,
    api: ctx.api,
    hostKind,
    url,
    events: input.events ? [...new Set(input.events)] : [...eventsOf(ctx.api)],
    payloadMode: input.payload,
    description: input.description || null,
    active: true,
    deactivatedReason: null,
    secretSealed: await sealEndpointSecret(ctx, secret),
    previousSecretSealed: null,
    previousSecretExpiresAt: null,
    failureCount: 0,
    consecutiveExhausted: 0,
    lastSuccessAt: null,
    lastFailureAt: null,
    createdAt: now,
    updatedAt: now,
    deletedAt: null,
  } satisfies WebhookEndpointRow;
  if (!(await insertEndpointWithinCap(ctx.db, row, ENDPOINTS_PER_ACCOUNT))) {
    throw new Refusal("cap_exceeded", `At most ${ENDPOINTS_PER_ACCOUNT} webhook endpoints may be registered per account, API and environment; delete one first.`, {
      extra: { limit: ENDPOINTS_PER_ACCOUNT, current: await countEndpoints(ctx.db, ctx.scope, ctx.api) },
    });
  }
  return { endpoint: row, secret };
}

export interface EndpointChanges {
  url?: string;
  events?: string[];
  payload?: PayloadMode;
  /** undefined leaves it; "" or null clears it. */
  description?: string | null;
  active?: boolean;
}

export async function changeEndpoint(ctx: EndpointContext, id: string, changes: EndpointChanges) {
  await requireEndpoint(ctx, id);
  const set: Partial<WebhookEndpointRow> = { updatedAt: isoNow(ctx) };
  if (changes.url !== undefined) set.url = await requireAcceptableUrl(ctx, changes.url);
  if (changes.events !== undefined) set.events = [...new Set(changes.events)];
  if (changes.payload !== undefined) set.payloadMode = changes.payload;
  if (changes.description !== undefined) set.description = changes.description || null;
  if (changes.active === true) {
    // Reactivation starts a fresh count; deliveries cancelled meanwhile can be re-sent by hand.
    Object.assign(set, { active: true, deactivatedReason: null, consecutiveExhausted: 0, failureCount: 0 });
  } else if (changes.active === false) {
    Object.assign(set, { active: false, deactivatedReason: "manual" });
  }
  const updated = await updateEndpoint(ctx.db, ctx.scope, ctx.api, id, set);
  if (!updated) throw notFound(id);
  return updated;
}

export async function deleteEndpoint(ctx: EndpointContext, id: string) {
  const now = isoNow(ctx);
  const deleted = await updateEndpoint(ctx.db, ctx.scope, ctx.api, id, { deletedAt: now, active: false, updatedAt: now });
  if (!deleted) throw notFound(id);
}

/** The old secret keeps signing beside the new one for 24 hours; a second rotation drops the oldest. */
export async function rotateEndpointSecret(ctx: EndpointContext, id: string) {
  const endpoint = await requireEndpoint(ctx, id);
  const secret = generateEndpointSecret();
  const now = ctx.clock().getTime();
  const updated = await updateEndpoint(ctx.db, ctx.scope, ctx.api, id, {
    secretSealed: await sealEndpointSecret(ctx, secret),
    previousSecretSealed: endpoint.secretSealed,
    previousSecretExpiresAt: new Date(now + ROTATION_OVERLAP_MS).toISOString(),
    updatedAt: new Date(now).toISOString(),
  });
  if (!updated) throw notFound(id);
  return { endpoint: updated, secret };
}

export async function endpointDeliveries(ctx: EndpointContext, id: string, cursor: string | undefined, limit: number) {
  const endpoint = await requireEndpoint(ctx, id);
  const cursorScope = `deliveries:${ctx.scope.organisationId}:${ctx.scope.environment}:${endpoint.id}`;
  const page = await listDeliveries(ctx.db, endpoint.id, await readKeysetCursor(cursor, cursorScope, signingSecretOf(ctx.env)), limit + 1);
  const deliveries = page.slice(0, limit);
  const attempts = await attemptsOf(ctx.db, deliveries.map((d) => d.id));
  const last = deliveries[deliveries.length - 1];
  return {
    deliveries: deliveries.map((delivery) => ({ delivery, attempts: attempts.filter((a) => a.deliveryId === delivery.id) })),
    nextCursor: await nextKeysetCursor(last && { createdAt: last.createdAt, seq: last.seq }, page.length > limit, cursorScope, signingSecretOf(ctx.env)),
  };
}

/** A page of deliveries as the portal's log shows them: each with the body it sends, read from R2 (bodies.ts). */
export async function endpointDeliveryLog(ctx: EndpointContext, id: string, cursor: string | undefined, limit: number) {
  const page = await endpointDeliveries(ctx, id, cursor, limit);
  const bodies = await Promise.all(page.deliveries.map((d) => bodyOf(ctx, d.delivery)));
  return { ...page, deliveries: page.deliveries.map((d, i) => ({ ...d, body: bodies[i] })) };
}

export async function resendByHand(ctx: EndpointContext, id: string, deliveryId: string) {
  const endpoint = await requireEndpoint(ctx, id);
  const delivery = await findDelivery(ctx.db, endpoint.id, deliveryId);
  if (!delivery) throw new Refusal("not_found", `No delivery ${deliveryId} on webhook endpoint ${id}.`);
  if (!endpoint.active) throw new Refusal("conflict", "The endpoint is deactivated; reactivate it (PATCH active: true) before re-sending.");
  await resendDelivery(ctx, endpoint, delivery);
  const refreshed = await findDelivery(ctx.db, endpoint.id, deliveryId);
  return { delivery: refreshed!, attempts: await attemptsOf(ctx.db, [deliveryId]) };
}
