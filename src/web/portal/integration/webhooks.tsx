/**
 * `/portal/webhooks`: the same endpoint services as the API's `/webhooks`
 * routes (services/webhooks/endpoints.ts, services/webhooks/test-ping.ts),
 * with the context an API key of the member's organisation and environment
 * would give: partners' endpoints on the partner API, lenders' on the lender
 * API. Signing secrets are shown in the answer to the post that made them,
 * as keys are (see keys.tsx for why not a redirect).
 */
import type { Hono } from "hono";
import { scopeOfViewer } from "../../../domain/portal/viewer";
import {
  changeEndpoint,
  deleteEndpoint,
  endpointDeliveryLog,
  ownEndpoints,
  registerEndpoint,
  requireEndpoint,
  resendByHand,
  rotateEndpointSecret,
  type EndpointContext,
} from "../../../services/webhooks/endpoints";
import { sendTestPing, testPingOf } from "../../../services/webhooks/test-ping";
import { deliveryLogView, deliveryView, endpointView } from "../../../services/webhooks/views";
import { webhookChanges, webhookRegistration } from "../../../api/shared/schemas/webhooks";
import { PORTAL_ROUTE, type PortalContext, type PortalEnv } from "../context";
import { optionalTextOf, queryPage, textOf, textsOf, type FormNext } from "../../kit/form";
import { portalForm } from "../form-action";
import { CONFIRMED, Confirm } from "../../kit/confirm";
import { PortalPage } from "../layout";
import { noticeFrom, withNotice } from "./notices";
import { inputFeedback, parseForm, type PageRefusal } from "../../kit/refusal";
import { EndpointSecretPage, pingOutcome, WebhookPage } from "./webhook-page";
import { emptyEndpointForm, WebhooksPage } from "./webhooks-page";
import type { EndpointFormEntry } from "./endpoint-fields";

const DELIVERIES_PER_PAGE = 25;

/** The member's endpoints: their organisation and environment, on their organisation's API. */
const contextOf = (c: PortalContext): EndpointContext => {
  const viewer = c.get("viewer");
  return { ...c.get("deps"), scope: scopeOfViewer(viewer), api: viewer.organisationKind };
};

const endpointPath = (id: string) => `${PORTAL_ROUTE}/webhooks/${encodeURIComponent(id)}`;

async function webhooksPage(c: PortalContext, entry: EndpointFormEntry, refusal?: PageRefusal) {
  const endpoints = await ownEndpoints(contextOf(c));
  const feedback = refusal ? { error: inputFeedback(refusal) } : { notice: noticeFrom(c.req.query("notice")) };
  return c.html(
    <WebhooksPage viewer={c.get("viewer")} formToken={c.get("formToken")} endpoints={endpoints.map((e) => endpointView(e))} entry={entry} feedback={feedback} />,
    refusal?.status ?? 200,
  );
}

/**
 * One endpoint with a page of its deliveries; another organisation's or environment's endpoint is the 404 page.
 * `entry`: what the member typed in the edit form, shown again beside the refusal.
 */
async function webhookPage(c: PortalContext, id: string, refusal?: PageRefusal, entry?: EndpointFormEntry) {
  const ctx = contextOf(c);
  // Another organisation's or environment's endpoint (not_found) goes on to the portal's error handler.
  const endpoint = await requireEndpoint(ctx, id);
  const page = await endpointDeliveryLog(ctx, id, refusal ? undefined : c.req.query("cursor"), DELIVERIES_PER_PAGE);
  // After "Send a test ping": the redirect names the ping's delivery, whose attempt says how it went.
  const pingId = refusal ? undefined : c.req.query("ping");
  const ping = pingId ? await testPingOf(ctx, id, pingId) : null;
  const outcome = ping ? pingOutcome(deliveryView(ping.delivery, ping.attempts)) : null;
  const feedback = refusal ? { error: inputFeedback(refusal) } : { notice: outcome?.ok ? outcome.message : noticeFrom(c.req.query("notice")) };
  const shown = endpointView(endpoint);
  return c.html(
    <WebhookPage
      viewer={c.get("viewer")}
      formToken={c.get("formToken")}
      endpoint={shown}
      entry={entry ?? { url: shown.url, description: shown.description ?? "", events: shown.events, payload: shown.payload }}
      deliveries={page.deliveries.map((d) => deliveryLogView(d.delivery, d.attempts, d.body))}
      olderHref={page.nextCursor ? `${endpointPath(id)}?cursor=${encodeURIComponent(page.nextCursor)}` : null}
      feedback={feedback}
      pingFailure={outcome && !outcome.ok ? outcome : null}
    />,
    refusal?.status ?? 200,
  );
}

const idOf = (c: PortalContext) => c.req.param("id") ?? "";

/**
 * An action on one endpoint, the portal's one form shape: audited as `action` about the endpoint;
 * another organisation's or environment's endpoint is the 404 page, another refusal (409 deactivated)
 * the endpoint's page with the reason.
 */
const endpointAction = (action: string, act: (c: PortalContext, id: string) => Promise<FormNext>, confirm?: (c: PortalContext) => string) =>
  portalForm({
    audit: (c) => ({ action, target: idOf(c) }),
    confirm,
    showAgain: (c, refusal) => webhookPage(c, idOf(c), refusal),
    page: (c) => endpointPath(idOf(c)),
    act: (c) => act(c, idOf(c)),
  });

/** The endpoint form's entry as typed (shown again beside a refusal); the signing secret is never part of it. */
const entryOf = (form: FormData): EndpointFormEntry => ({
  url: textOf(form, "url").trim(),
  description: textOf(form, "description"),
  events: textsOf(form, "events"),
  payload: textOf(form, "payload"),
});

export function registerWebhookPages(portal: Hono<PortalEnv>) {
  portal.get("/webhooks", (c) => webhooksPage(c, emptyEndpointForm(c.get("viewer").organisationKind)));

  portal.post(
    "/webhooks",
    portalForm<EndpointFormEntry>({
      audit: () => ({ action: "webhook.registered" }),
      draftOf: (form) => ({ ...entryOf(form), payload: textOf(form, "payload") || "full" }),
      showAgain: (c, refusal, entry) => webhooksPage(c, entry, refusal),
      act: async (c, form, audit) => {
        const viewer = c.get("viewer");
        const entry = entryOf(form);
        const asked = parseForm(webhookRegistration(viewer.organisationKind), { url: entry.url, description: entry.description, events: entry.events, payload: entry.payload || "full" }, "form");
        // The host kind as the API decides it: an endpoint registered through a sandbox host receives sandbox and test events only.
        const { endpoint, secret } = await registerEndpoint(contextOf(c), c.get("sandboxHost") ? "sandbox" : "production", asked);
        audit.about(endpoint.id);
        // The signing secret is shown on this one answer, never in a redirect.
        return c.html(<EndpointSecretPage viewer={viewer} formToken={c.get("formToken")} endpoint={endpointView(endpoint)} secret={secret} rotated={false} />, 201);
      },
    }),
  );

  portal.get(
    "/webhooks/:id",
    queryPage<PortalContext>({
      // A cursor that is not ours: not a dead end but the newest page of deliveries, with the reason.
      showAgain: (c, refusal) => webhookPage(c, idOf(c), refusal),
      read: (c) => webhookPage(c, idOf(c)),
    }),
  );

  portal.post(
    "/webhooks/:id/rotate-secret",
    endpointAction("webhook.secret_rotated", async (c, id) => {
      const { endpoint, secret } = await rotateEndpointSecret(contextOf(c), id);
      return c.html(<EndpointSecretPage viewer={c.get("viewer")} formToken={c.get("formToken")} endpoint={endpointView(endpoint)} secret={secret} rotated />);
    }),
  );

  // Deleting asks first (the kit's confirm page); another organisation's or environment's endpoint is the 404 page.
  portal.get("/webhooks/:id/delete", async (c) => {
    const endpoint = endpointView(await requireEndpoint(contextOf(c), c.req.param("id")));
    return c.html(
      <PortalPage title="Delete a webhook endpoint" viewer={c.get("viewer")} formToken={c.get("formToken")}>
        <Confirm
          question={`Delete the endpoint ${endpoint.url}?`}
          facts={[
            ...(endpoint.description ? ([["Description", endpoint.description]] as [string, string][]) : []),
            ["URL", endpoint.url],
            ["Id", endpoint.id],
            ["Events", endpoint.events.join(", ")],
            ["Environment", c.get("viewer").environment],
          ]}
          consequence="No new events are sent to this URL and its pending deliveries are cancelled; the endpoint, its page and its delivery log are gone from the portal and the API."
          irreversible
          next="you are back on your webhook endpoints. To receive events again, register the URL anew: it gets a new signing secret."
          action={`${endpointPath(endpoint.id)}/delete`}
          hidden={{ _form_token: c.get("formToken"), ...CONFIRMED }}
          confirmLabel="Delete the endpoint"
          cancelHref={endpointPath(endpoint.id)}
          cancelLabel="Cancel, keep it"
        />
      </PortalPage>,
    );
  });

  portal.post(
    "/webhooks/:id/delete",
    endpointAction(
      "webhook.deleted",
      async (c, id) => {
        await deleteEndpoint(contextOf(c), id);
        return withNotice(`${PORTAL_ROUTE}/webhooks`, "webhook-deleted");
      },
      (c) => `${endpointPath(idOf(c))}/delete`,
    ),
  );

  portal.post(
    "/webhooks/:id/reactivate",
    endpointAction("webhook.reactivated", async (c, id) => {
      await changeEndpoint(contextOf(c), id, { active: true });
      return withNotice(endpointPath(id), "webhook-reactivated");
    }),
  );

  portal.post(
    "/webhooks/:id/test",
    endpointAction("webhook.test_sent", async (c, id) => {
      const { delivery } = await sendTestPing(contextOf(c), id);
      // The page reads the ping's outcome from its delivery: a notice when the receiver took it, an alert when not.
      return `${endpointPath(id)}?ping=${encodeURIComponent(delivery.id)}`;
    }),
  );

  /** The edit form: the API's PATCH body and `changeEndpoint`, so a new URL passes the same address checks. */
  portal.post(
    "/webhooks/:id/edit",
    portalForm<EndpointFormEntry>({
      audit: (c) => ({ action: "webhook.updated", target: idOf(c) }),
      draftOf: entryOf,
      showAgain: (c, refusal, entry) => webhookPage(c, idOf(c), refusal, entry),
      page: (c) => endpointPath(idOf(c)),
      act: async (c, form) => {
        const id = idOf(c);
        const entry = entryOf(form);
        // A form without the description field leaves it; an emptied one clears it.
        const description = optionalTextOf(form, "description");
        const asked = parseForm(webhookChanges(c.get("viewer").organisationKind), { url: entry.url, description, events: entry.events, payload: entry.payload || undefined }, "form");
        await changeEndpoint(contextOf(c), id, asked);
        return withNotice(endpointPath(id), "webhook-updated");
      },
    }),
  );

  portal.post(
    "/webhooks/:id/deliveries/:deliveryId/resend",
    endpointAction("webhook.delivery_resent", async (c, id) => {
      await resendByHand(contextOf(c), id, c.req.param("deliveryId") ?? "");
      return withNotice(endpointPath(id), "delivery-resent");
    }),
  );
}
