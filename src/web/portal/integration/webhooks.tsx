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
import { recordPortalAction } from "../../../services/portal/audit";
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
import { notFoundPage } from "../refused-page";
import { optionalTextOf, readForm, textFields, textOf, textsOf } from "../../kit/form";
import { CONFIRMED, Confirm, isConfirmed } from "../../kit/confirm";
import { PortalPage } from "../layout";
import { noticeFrom, withNotice } from "./notices";
import { inputFeedback, parseForm, isNotFound, refusalForPage, type PageRefusal } from "../../kit/refusal";
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
  let endpoint, page, ping;
  try {
    endpoint = await requireEndpoint(ctx, id);
    page = await endpointDeliveryLog(ctx, id, refusal ? undefined : c.req.query("cursor"), DELIVERIES_PER_PAGE);
    // After "Send a test ping": the redirect names the ping's delivery, whose attempt says how it went.
    const pingId = refusal ? undefined : c.req.query("ping");
    ping = pingId ? await testPingOf(ctx, id, pingId) : null;
  } catch (error) {
    if (isNotFound(error)) return c.html(notFoundPage(), 404);
    if (refusal) throw error;
    // A cursor that is not ours: show the newest page, with the reason.
    return webhookPage(c, id, refusalForPage(error));
  }
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

/** Runs an action on one endpoint: not found → the 404 page, another refusal (409 deactivated) → the endpoint's page with the reason. */
async function onEndpoint(c: PortalContext, id: string, act: () => Promise<Response>) {
  try {
    return await act();
  } catch (error) {
    if (isNotFound(error)) return c.html(notFoundPage(), 404);
    return webhookPage(c, id, refusalForPage(error));
  }
}

export function registerWebhookPages(portal: Hono<PortalEnv>) {
  portal.get("/webhooks", (c) => webhooksPage(c, emptyEndpointForm(c.get("viewer").organisationKind)));

  portal.post("/webhooks", async (c) => {
    const viewer = c.get("viewer");
    const form = await readForm(c);
    const entry: EndpointFormEntry = {
      url: textOf(form, "url").trim(),
      description: textOf(form, "description"),
      events: textsOf(form, "events"),
      payload: textOf(form, "payload") || "full",
    };
    try {
      const asked = parseForm(webhookRegistration(viewer.organisationKind), { url: entry.url, description: entry.description, events: entry.events, payload: entry.payload }, "form");
      // The host kind as the API decides it: an endpoint registered through a sandbox host receives sandbox and test events only.
      const { endpoint, secret } = await registerEndpoint(contextOf(c), c.get("sandboxHost") ? "sandbox" : "production", asked);
      await recordPortalAction(c.get("deps"), viewer, "webhook.registered", endpoint.id);
      return c.html(<EndpointSecretPage viewer={viewer} formToken={c.get("formToken")} endpoint={endpointView(endpoint)} secret={secret} rotated={false} />, 201);
    } catch (error) {
      return webhooksPage(c, entry, refusalForPage(error));
    }
  });

  portal.get("/webhooks/:id", (c) => webhookPage(c, c.req.param("id")));

  portal.post("/webhooks/:id/rotate-secret", (c) =>
    onEndpoint(c, c.req.param("id"), async () => {
      const { endpoint, secret } = await rotateEndpointSecret(contextOf(c), c.req.param("id"));
      await recordPortalAction(c.get("deps"), c.get("viewer"), "webhook.secret_rotated", endpoint.id);
      return c.html(<EndpointSecretPage viewer={c.get("viewer")} formToken={c.get("formToken")} endpoint={endpointView(endpoint)} secret={secret} rotated />);
    }),
  );

  // Deleting asks first (the kit's confirm page); another organisation's or environment's endpoint is the 404 page.
  portal.get("/webhooks/:id/delete", async (c) => {
    let endpoint;
    try {
      endpoint = endpointView(await requireEndpoint(contextOf(c), c.req.param("id")));
    } catch (error) {
      if (isNotFound(error)) return c.html(notFoundPage(), 404);
      throw error;
    }
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

  portal.post("/webhooks/:id/delete", async (c) => {
    if (!isConfirmed(textFields(await readForm(c)))) return c.redirect(`${endpointPath(c.req.param("id"))}/delete`, 303);
    return onEndpoint(c, c.req.param("id"), async () => {
      await deleteEndpoint(contextOf(c), c.req.param("id"));
      await recordPortalAction(c.get("deps"), c.get("viewer"), "webhook.deleted", c.req.param("id"));
      return c.redirect(withNotice(`${PORTAL_ROUTE}/webhooks`, "webhook-deleted"), 303);
    });
  });

  portal.post("/webhooks/:id/reactivate", (c) =>
    onEndpoint(c, c.req.param("id"), async () => {
      const id = c.req.param("id");
      await changeEndpoint(contextOf(c), id, { active: true });
      await recordPortalAction(c.get("deps"), c.get("viewer"), "webhook.reactivated", id);
      return c.redirect(withNotice(endpointPath(id), "webhook-reactivated"), 303);
    }),
  );

  portal.post("/webhooks/:id/test", (c) =>
    onEndpoint(c, c.req.param("id"), async () => {
      const id = c.req.param("id");
      const { delivery } = await sendTestPing(contextOf(c), id);
      await recordPortalAction(c.get("deps"), c.get("viewer"), "webhook.test_sent", id);
      // The page reads the ping's outcome from its delivery: a notice when the receiver took it, an alert when not.
      return c.redirect(`${endpointPath(id)}?ping=${encodeURIComponent(delivery.id)}`, 303);
    }),
  );

  /** The edit form: the API's PATCH body and `changeEndpoint`, so a new URL passes the same address checks. */
  portal.post("/webhooks/:id/edit", async (c) => {
    const id = c.req.param("id");
    const viewer = c.get("viewer");
    const form = await readForm(c);
    // A form without the description field leaves it; an emptied one clears it.
    const description = optionalTextOf(form, "description");
    const entry: EndpointFormEntry = { url: textOf(form, "url").trim(), description: description ?? "", events: textsOf(form, "events"), payload: textOf(form, "payload") };
    try {
      const asked = parseForm(webhookChanges(viewer.organisationKind), { url: entry.url, description, events: entry.events, payload: entry.payload || undefined }, "form");
      await changeEndpoint(contextOf(c), id, asked);
      await recordPortalAction(c.get("deps"), viewer, "webhook.updated", id);
      return c.redirect(withNotice(endpointPath(id), "webhook-updated"), 303);
    } catch (error) {
      if (isNotFound(error)) return c.html(notFoundPage(), 404);
      return webhookPage(c, id, refusalForPage(error), entry);
    }
  });

  portal.post("/webhooks/:id/deliveries/:deliveryId/resend", (c) =>
    onEndpoint(c, c.req.param("id"), async () => {
      const id = c.req.param("id");
      await resendByHand(contextOf(c), id, c.req.param("deliveryId"));
      await recordPortalAction(c.get("deps"), c.get("viewer"), "webhook.delivery_resent", id);
      return c.redirect(withNotice(endpointPath(id), "delivery-resent"), 303);
    }),
  );
}
