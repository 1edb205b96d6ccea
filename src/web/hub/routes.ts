/**
 * The client hub, `GET|POST /hub/{leadId}/{token}/…`: server-rendered pages
 * for the business behind a lead. The link is the credential (the token is an
 * HMAC of the lead id), so a wrong token and an unknown lead get the same
 * plain 404 page. The token sits in the URL: no referrer leaves, nothing is
 * cached, nothing loads from elsewhere, and forms post only from our origin.
 */
import { Hono, type Context, type MiddlewareHandler } from "hono";
import { createMiddleware } from "hono/factory";
import { html } from "hono/html";
import type { AppEnv } from "../../app-env";
import { onError } from "../../api/problem";
import { HUB_ROUTE } from "../../lib/signed-links";
import { sameOriginPosts } from "../../middleware/same-origin-posts";
import { dispatchAfterWriteOf } from "../../middleware/dispatch-after-write";
import { localFormOf } from "../../domain/hub/local-form";
import {
  completionPage as loadCompletion,
  hubOverview,
  messagesPage as loadMessages,
  openHub,
  replyToLender,
  requestPage as loadRequest,
  signAgreement,
  submitAccount,
  uploadToRequest,
} from "../../services/hub/client-hub";
import { acceptHubOffer, hubOffer } from "../../services/hub/offers";
import { linksFor } from "../../services/views/links";
import { completionPage } from "./completion-page";
import { notFound, type HubContext, type HubEnv } from "./context";
import type { RefusalStatus } from "../../lib/refusal-status";
import { formAction, optionalTextOf as text, showRefused } from "../kit/form";
import type { PageRefusal } from "../kit/refusal";
import type { Feedback } from "./layout";
import { messagesPage } from "./messages-page";
import { offerPage } from "./offer-page";
import { overviewPage } from "./overview-page";
import { requestPage } from "./request-page";


export const HUB_HEADERS: Record<string, string> = {
  "Referrer-Policy": "no-referrer",
  "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
  "Cache-Control": "no-store",
};

const withHubHeaders = (res: Response) => {
  for (const [name, value] of Object.entries(HUB_HEADERS)) res.headers.set(name, value);
  return res;
};

/** Messages shown after a redirect (`?done=`): fixed texts, never echoed from the query. */
const NOTICES: Record<string, string> = {
  uploaded: "Thank you: your files were uploaded and sent on.",
  sent: "Your message was sent.",
  account: "Your account details were submitted.",
  signed: "You signed the agreement.",
  accepted: "You accepted the offer. Its funding provider has been told.",
};
const noticeOf = (c: HubContext): Feedback => ({ notice: NOTICES[c.req.query("done") ?? ""] ?? null });

const feedbackOf = (refusal: PageRefusal): Feedback => ({ error: { message: refusal.message, field: refusal.field } });

/** A refusal while showing a page: the plain 404 page, or the page with the reason. */
const refused = (c: HubContext, error: unknown, show: (f: Feedback) => Promise<Response>) => showRefused(c, error, notFound, (r) => show(feedbackOf(r)));

/** One hub form (web/kit/form.ts `formAction`), its page shown again with the refusal's status and message. */
const hubForm = <D>(
  act: (c: HubContext, form: FormData) => Promise<string>,
  showAgain: (c: HubContext, f: Feedback, status: RefusalStatus, draft: D) => Promise<Response>,
  draftOf: (form: FormData) => D,
) => formAction<HubContext, D>({ act, showAgain: (c, refusal, draft) => showAgain(c, feedbackOf(refusal), refusal.status, draft), draftOf, notFound });

const sameOriginHubPosts = sameOriginPosts<HubEnv>((c) =>
  c.html(html`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Refused</title></head><body><h1>Refused</h1><p>This form must be sent from the hub page itself.</p></body></html>`, 403),
);

const openLead = createMiddleware<HubEnv>(async (c, next) => {
  const { leadId, token } = c.req.param() as { leadId: string; token: string };
  const lead = await openHub(c.get("db"), c.env, leadId, token);
  // The sandbox host (SANDBOX_HOSTNAMES) serves sandbox data only: a live lead's link is unknown there.
  if (!lead || (c.get("sandboxHost") && lead.environment !== "sandbox")) return notFound(c);
  c.set("lead", lead);
  c.set("hubBase", `${HUB_ROUTE}/${lead.id}/${token}`);
  c.set("hubView", { base: c.get("hubBase"), local: localFormOf(lead.country) });
  return next();
});

export function createHubRoutes() {
  const hub = new Hono<HubEnv>();
  hub.use("*", async (c, next) => {
    await next();
    withHubHeaders(c.res);
  });
  // The body limit (20 MiB on the upload route, 64 KB for other forms) is the app's, applied before this.
  hub.use("*", sameOriginHubPosts);
  hub.use("/:leadId/:token/*", openLead);
  // A successful hub write (a lead was opened, the answer is a redirect) delivers its events' webhooks at once, as the APIs' writes do.
  hub.use("/:leadId/:token/*", dispatchAfterWriteOf<HubEnv>((c) => Boolean(c.get("lead"))));

  hub.get("/:leadId/:token", async (c) => c.html(overviewPage(c.get("hubView"), await hubOverview(c.get("db"), c.get("lead")), noticeOf(c))));

  const showRequest = async (c: HubContext, f: Feedback, status: 200 | RefusalStatus = 200) =>
    c.html(requestPage(c.get("hubView"), await loadRequest(c.get("db"), c.get("lead"), c.req.param("requestId")!), f), status);
  hub.get("/:leadId/:token/requests/:requestId", async (c) => showRequest(c, noticeOf(c)).catch((e) => refused(c, e, (f) => showRequest(c, f))));
  hub.post(
    "/:leadId/:token/requests/:requestId",
    hubForm(
      async (c, form) => {
        const requestId = c.req.param("requestId")!;
        // A file input left empty still sends a nameless, empty part.
        const files = (form.getAll("file") as unknown as (File | string)[]).filter((v): v is File => typeof v !== "string" && !(v.name === "" && v.size === 0));
        await uploadToRequest(c.get("db"), c.env.DOCUMENTS, c.get("lead"), requestId, files);
        return `${c.get("hubBase")}/requests/${requestId}?done=uploaded`;
      },
      (c, f, status) => showRequest(c, f, status),
      () => ({}),
    ),
  );

  const showOffer = async (c: HubContext, f: Feedback, status: 200 | RefusalStatus = 200) =>
    c.html(offerPage(c.get("hubView"), c.get("lead"), await hubOffer(c.get("db"), c.get("lead"), c.req.param("offerId")!), f), status);
  hub.get("/:leadId/:token/offers/:offerId", async (c) => showOffer(c, noticeOf(c)).catch((e) => refused(c, e, (f) => showOffer(c, f))));
  hub.post(
    "/:leadId/:token/offers/:offerId/acceptance",
    hubForm(
      async (c) => {
        const offerId = c.req.param("offerId")!;
        await acceptHubOffer(c.get("db"), c.get("lead"), offerId);
        return `${c.get("hubBase")}/offers/${offerId}?done=accepted`;
      },
      (c, f, status) => showOffer(c, f, status),
      () => ({}),
    ),
  );

  const showMessages = async (c: HubContext, f: Feedback, status: 200 | RefusalStatus = 200, draft: { subject?: string; body?: string } = {}) =>
    c.html(messagesPage(c.get("hubView"), await loadMessages(c.get("db"), c.get("lead"), c.req.param("ref")!), f, draft), status);
  hub.get("/:leadId/:token/deals/:ref/messages", async (c) => showMessages(c, noticeOf(c)).catch((e) => refused(c, e, (f) => showMessages(c, f))));
  hub.post(
    "/:leadId/:token/deals/:ref/messages",
    hubForm(
      async (c, form) => {
        const message = await replyToLender(c.get("db"), c.get("lead"), c.req.param("ref")!, { subject: text(form, "subject"), body: text(form, "body") });
        return `${c.get("hubBase")}/deals/${c.req.param("ref")}/messages?done=sent#${message.id}`;
      },
      showMessages,
      (form) => ({ subject: text(form, "subject"), body: text(form, "body") }),
    ),
  );

  const showCompletion = async (c: HubContext, f: Feedback, status: 200 | RefusalStatus = 200, draft: Record<string, string> = {}) =>
    c.html(completionPage(c.get("hubView"), await loadCompletion(c.get("db"), linksFor(c.env), c.get("lead"), c.req.param("ref")!), f, draft), status);
  hub.get("/:leadId/:token/deals/:ref/completion", async (c) => showCompletion(c, noticeOf(c)).catch((e) => refused(c, e, (f) => showCompletion(c, f))));
  hub.post(
    "/:leadId/:token/deals/:ref/completion/account",
    hubForm(
      async (c, form) => {
        const fields = Object.fromEntries([...form.keys()].map((k) => [k, text(form, k)]));
        await submitAccount(c.get("db"), c.get("lead"), c.req.param("ref")!, fields);
        return `${c.get("hubBase")}/deals/${c.req.param("ref")}/completion?done=account`;
      },
      showCompletion,
      // Only the holder's name is shown again after a refusal; bank numbers are never echoed back.
      (form) => ({ account_holder_name: text(form, "account_holder_name") ?? "" }),
    ),
  );
  hub.post(
    "/:leadId/:token/deals/:ref/completion/signature",
    hubForm(
      async (c, form) => {
        await signAgreement(c.get("db"), c.env.DOCUMENTS, c.get("lead"), c.req.param("ref")!, { full_name: text(form, "full_name"), consent: text(form, "consent") });
        return `${c.get("hubBase")}/deals/${c.req.param("ref")}/completion?done=signed`;
      },
      showCompletion,
      (form) => ({ full_name: text(form, "full_name") ?? "" }),
    ),
  );

  hub.all("*", notFound);
  // Body-limit refusals and unexpected failures answer as the rest of the service does, with the hub's headers.
  hub.onError((error, c) => withHubHeaders(onError(error, c as unknown as Context<AppEnv>)));
  return hub;
}
