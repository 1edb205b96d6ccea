/**
 * The client hub: server-rendered pages for the business behind a lead. The
 * link `/hub/{leadId}/{token}` is the credential (the token is an HMAC of the
 * lead id and the link's generation), so a wrong token, a rotated-away one and
 * an unknown lead get the same plain 404 page. Opening the link (GET) trades
 * the token for an HttpOnly, SameSite=Strict session cookie scoped to
 * `/hub/{leadId}` and redirects to the same page without the token, so it
 * stays out of history, `Referer` and request logs; the pages live at
 * `/hub/{leadId}/…`. A post to the token path still works (a script holding
 * the link). Links expire 30 days after issue (410 page), the hub is read-only
 * once the lead is funded, declined or out of scope (409 on a post), and
 * requests are rate-limited per link and per client address (429 page).
 * No referrer leaves, nothing is cached, nothing loads from elsewhere, and
 * forms post only from our origin.
 */
import { Hono, type Context } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../../app-env";
import { HUB_ROUTE, HUB_SESSION_COOKIE } from "../../lib/signed-links";
import { clientAddress } from "../../lib/client-address";
import { hubIsReadOnly } from "../../domain/hub/link";
import { countHubRequestFromAddress, countHubRequestOnLink } from "../../services/hub/hub-links";
import { sameOriginPosts } from "../../middleware/same-origin-posts";
import { useEnvironment } from "../../middleware/database";
import type { Environment } from "../../domain/identity/keys";
import type { Deps } from "../../services/deps";
import { dispatchAfterWriteOf } from "../../middleware/dispatch-after-write";
import { takesFiles, type TooLargePage } from "../../middleware/body-limit";
import { localFormOf } from "../../domain/hub/local-form";
import {
  completionPage as loadCompletion,
  HUB_TOKEN,
  hubOverview,
  hubSessionFor,
  type HubOpening,
  messagesPage as loadMessages,
  openHub,
  openHubSession,
  replyToLender,
  requestPage as loadRequest,
  signAgreement,
  submitAccount,
  uploadToRequest,
} from "../../services/hub/client-hub";
import { acceptHubOffer, declineHubOffer, hubOfferWithDisclosure } from "../../services/hub/offers";
import { linksFor } from "../../services/views/links";
import { completionPage } from "./completion-page";
import type { HubContext, HubEnv } from "./context";
import { crossSitePage, expiredPage, failedPage, notFoundPage, openingPage, readOnlyPage, refusedPage, tooLargePage, tooManyPage } from "./layout";
import { Refusal } from "../../lib/refusal";
import type { RefusalStatus } from "../../lib/refusal-status";
import { formAction, optionalTextOf as text, pageAbove } from "../kit/form";
import { pageErrors } from "../kit/page-errors";
import { showRefusedPosts, type RefusedPosts } from "../kit/refused-posts";
import type { PageRefusal } from "../kit/refusal";
import type { Feedback } from "./layout";
import { messagesPage } from "./messages-page";
import { offerPage } from "./offer-page";
import { overviewPage } from "./overview-page";
import { removeFilePage, removeFilePath, requestPage } from "./request-page";
import { removeClientDocument } from "../../services/documents/lead-documents";
import { consentWithdrawalPage, consentWithdrawalPath } from "./consent-page";
import { withdrawHubConsent } from "../../services/hub/consent";


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
  file_removed: "The file was removed, and the funding provider was told.",
  sent: "Your message was sent.",
  account: "Your account details were submitted.",
  signed: "You signed the agreement.",
  declined: "You declined the offer. Its funding provider and your adviser have been told; nothing more happens with it.",
  consent_withdrawn: "You withdrew your consent. Your application will not be sent to funding providers, and your adviser has been told.",
  accepted:
    "You accepted the offer. Its funding provider has been told. What happens next: they check the last details, may ask you here for documents, then ask for the account to pay the money into and send the agreement to sign. Each request appears on this page as soon as it is made, and your adviser is kept informed.",
};
const noticeOf = (c: HubContext): Feedback => ({ notice: NOTICES[c.req.query("done") ?? ""] ?? null });

/** Every problem of the refusal goes to the page, each shown beside its field. */
const feedbackOf = (refusal: PageRefusal): Feedback => ({ error: { message: refusal.message, field: refusal.field, problems: refusal.problems } });

/**
 * One hub form (web/kit/form.ts `formAction`), its page shown again with the refusal's status and message by the hub's error handler
 * (after a redirect to `page`, by default the path posted to).
 */
const hubForm = <D>(
  act: (c: HubContext, form: FormData) => Promise<string>,
  showAgain: (c: HubContext, f: Feedback, status: RefusalStatus, draft: D) => Promise<Response>,
  draftOf?: (form: FormData) => D,
  page?: (c: HubContext) => string,
) => formAction<HubContext, D>({ act, showAgain: (c, refusal, draft) => showAgain(c, feedbackOf(refusal), refusal.status, draft), draftOf, page });

/**
 * A refused post is kept for the hub session cookie that posted it; a post on a link's own address
 * (its token in the path, no cookie) is answered at once, so no page naming the token is stored.
 */
const hubRefusedPosts: RefusedPosts<HubContext> = {
  sessionOf: (c) => {
    const cookie = getCookie(c, HUB_SESSION_COOKIE);
    return cookie && c.get("lead") && !tokenPathOf(c.req.path) ? `hub:${cookie}` : null;
  },
};

/**
 * The hub's last word (web/kit/page-errors.ts): an unknown lead or thing is the plain 404 page, a
 * throttled request the "too many requests" page with Retry-After, anything else a page (never JSON),
 * all with the hub's headers.
 */
const hubErrors = pageErrors<HubEnv>({
  // A wrong token and an unknown lead get the same plain page: nothing says whether a lead exists.
  notFound: (c) => c.html(notFoundPage(), 404),
  refused: async (c, refusal) => withHubHeaders(await c.html(refusedPage(refusal.message), refusal.status)),
  tryLater: async (c, wait, status) => withHubHeaders(await c.html(tooManyPage(wait), status)),
  failed: async (c, requestId, maybeSaved) => withHubHeaders(await c.html(failedPage(requestId, maybeSaved), 500)),
  refusedPosts: hubRefusedPosts,
});

const sameOriginHubPosts = sameOriginPosts<HubEnv>((c) => c.html(crossSitePage(), 403));


/** `/hub/{leadId}/{token}[/rest]`: the second segment is a token (40 hex), never a page name. */
const tokenPathOf = (path: string) => {
  const [, leadId, token, ...rest] = path.slice(HUB_ROUTE.length).split("/");
  return token !== undefined && HUB_TOKEN.test(token) ? { leadId: leadId!, token, rest: rest.length ? `/${rest.join("/")}` : "" } : null;
};

/**
 * A post over its route's limit (the app's body limit answers with it, before the hub reads a byte,
 * so no lead is opened): the hub's page at the lead's token-free address, the way back to the form
 * being a GET of the address it posted to, which the session cookie opens.
 */
export const hubTooLargePage: TooLargePage = async (c, limit) => {
  const link = tokenPathOf(c.req.path);
  const [, leadId = "", ...rest] = c.req.path.slice(HUB_ROUTE.length).split("/");
  const base = `${HUB_ROUTE}/${encodeURIComponent(link?.leadId ?? leadId)}`;
  const back = `${base}${link ? link.rest : rest.length ? `/${rest.join("/")}` : ""}`;
  return withHubHeaders(await c.html(tooLargePage(base, back, limit), 413));
};

/**
 * Every hub request counts against its client address; a throttled one gets
 * the "too many requests" page with `Retry-After`.
 */
const limitByAddress = createMiddleware<HubEnv>(async (c, next) => {
  // The address every per-address limit reads: `CF-Connecting-IP` only beside `request.cf` (lib/client-address.ts).
  await countHubRequestFromAddress(c.get("deps"), clientAddress(c.req.raw));
  return next();
});

/**
 * A hub link names its lead, and the lead is in its environment's database (docs/capacity.md): the live
 * database is asked first, then the sandbox's (on a sandbox host only the sandbox's). The request then
 * reads the lead's database, as an API request reads its key's. Lead ids are random, so one id is in one
 * database; a sandbox page costs one more D1 round trip than a live one, the miss in the live database.
 */
async function openedInItsDatabase(c: HubContext, open: (deps: Deps) => Promise<HubOpening | null>): Promise<HubOpening | null> {
  const environments: Environment[] = c.get("sandboxHost") ? ["sandbox"] : ["live", "sandbox"];
  for (const environment of environments) {
    useEnvironment(c as unknown as Context<AppEnv>, environment);
    const opening = await open(c.get("deps"));
    if (opening) return opening;
  }
  return null;
}

/**
 * GET on a link: the token is checked and traded for the session cookie, and
 * the browser goes on to the same page without the token. An expired link is
 * a 410 page; a wrong one the 404 page. A link followed from another site
 * (an e-mail in a webmail tab, `Sec-Fetch-Site: cross-site`) is answered with
 * a page that moves on by itself (`<meta http-equiv="refresh">`), because a
 * browser withholds a SameSite=Strict cookie on a redirect chain another site
 * started; from our own pages, a bookmark or a typed address it is a 303.
 */
const exchangeLink = createMiddleware<HubEnv>(async (c, next) => {
  const linkPath = c.req.method === "GET" || c.req.method === "HEAD" ? tokenPathOf(c.req.path) : null;
  if (!linkPath) return next();
  const opening = await openedInItsDatabase(c, (deps) => openHub(deps, linkPath.leadId, linkPath.token));
  if (!opening || (c.get("sandboxHost") && opening.lead.environment !== "sandbox")) throw new Refusal("not_found", "No such hub link.");
  if (opening.expired) return c.html(expiredPage(), 410);
  await countHubRequestOnLink(c.get("deps"), opening.lead.id);
  const session = await hubSessionFor(c.get("deps"), opening);
  const base = `${HUB_ROUTE}/${opening.lead.id}`;
  setCookie(c, HUB_SESSION_COOKIE, session.value, {
    path: base,
    httpOnly: true,
    sameSite: "Strict",
    secure: new URL(c.req.url).protocol === "https:",
    maxAge: session.maxAgeSeconds,
  });
  const target = `${base}${linkPath.rest}${new URL(c.req.url).search}`;
  if (c.req.header("Sec-Fetch-Site") === "cross-site") return c.html(openingPage(target), 200);
  return c.redirect(target, 303);
});

/**
 * Opens the lead of a hub page: from the session cookie on `/hub/{leadId}/…`,
 * or from the token on a post to `/hub/{leadId}/{token}/…`. Counts the request
 * against the link, and refuses any post once the lead is funded, declined or
 * out of scope (the hub is read-only then).
 */
const openLead = createMiddleware<HubEnv>(async (c, next) => {
  const linkPath = tokenPathOf(c.req.path);
  const leadId = linkPath?.leadId ?? c.req.path.slice(HUB_ROUTE.length).split("/")[1] ?? "";
  const opening = await openedInItsDatabase(c, (deps) => (linkPath ? openHub(deps, leadId, linkPath.token) : openHubSession(deps, leadId, getCookie(c, HUB_SESSION_COOKIE) ?? "")));
  // The sandbox host (SANDBOX_HOSTNAMES) serves sandbox data only: a live lead's link is unknown there.
  if (!opening || (c.get("sandboxHost") && opening.lead.environment !== "sandbox")) throw new Refusal("not_found", "No such hub link.");
  if (opening.expired) return c.html(expiredPage(), 410);
  await countHubRequestOnLink(c.get("deps"), opening.lead.id);
  const lead = opening.lead;
  const readOnly = hubIsReadOnly(lead);
  if (readOnly && c.req.method !== "GET" && c.req.method !== "HEAD") return c.html(readOnlyPage(`${HUB_ROUTE}/${lead.id}`), 409);
  c.set("lead", lead);
  c.set("hubBase", linkPath ? `${HUB_ROUTE}/${lead.id}/${linkPath.token}` : `${HUB_ROUTE}/${lead.id}`);
  c.set("hubView", { base: c.get("hubBase"), local: localFormOf(lead.country), readOnly });
  return next();
});

/** The hub's pages, relative to a lead's base (mounted at `/{leadId}` and at `/{leadId}/{token}`). */
function createHubPages() {
  const hub = new Hono<HubEnv>();
  hub.get("/", async (c) => c.html(overviewPage(c.get("hubView"), await hubOverview(c.get("deps"), c.get("lead")), noticeOf(c))));

  const showRequest = async (c: HubContext, f: Feedback, status: 200 | RefusalStatus = 200) =>
    c.html(requestPage(c.get("hubView"), await loadRequest(c.get("deps"), c.get("lead"), c.req.param("requestId")!), f), status);
  hub.get("/requests/:requestId", async (c) => showRequest(c, noticeOf(c)));
  hub.post(
    "/requests/:requestId",
    takesFiles(),
    hubForm(
      async (c, form) => {
        const requestId = c.req.param("requestId")!;
        // A file input left empty still sends a nameless, empty part.
        const files = (form.getAll("file") as unknown as (File | string)[]).filter((v): v is File => typeof v !== "string" && !(v.name === "" && v.size === 0));
        await uploadToRequest(c.get("deps"), c.get("lead"), requestId, files);
        return `${c.get("hubBase")}/requests/${requestId}?done=uploaded`;
      },
      (c, f, status) => showRequest(c, f, status),
    ),
  );

  // Taking back a file sent on the request: the kit's confirm page, then the one post (the documents service's removal).
  const showRemoval = async (c: HubContext, f: Feedback, status: 200 | RefusalStatus = 200) => {
    const page = await loadRequest(c.get("deps"), c.get("lead"), c.req.param("requestId")!);
    const documentId = c.req.param("documentId")!;
    // A file not on this request (another's, or removed in another tab): the plain 404 page.
    if (!page.files.some((d) => d.id === documentId)) throw new Refusal("not_found", "No such file.");
    return c.html(removeFilePage(c.get("hubView"), page, documentId, f), status);
  };
  hub.get("/requests/:requestId/files/:documentId/remove", async (c) => showRemoval(c, {}));
  hub.post(
    "/requests/:requestId/files/:documentId/remove",
    formAction<HubContext>({
      confirm: (c) => removeFilePath(c.get("hubBase"), c.req.param("requestId")!, c.req.param("documentId")!),
      act: async (c) => {
        const requestId = c.req.param("requestId")!;
        await removeClientDocument(c.get("deps"), c.get("lead"), requestId, c.req.param("documentId")!);
        return `${c.get("hubBase")}/requests/${requestId}?done=file_removed`;
      },
      showAgain: (c, refusal) => showRemoval(c, feedbackOf(refusal), refusal.status),
    }),
  );

  // The page an offer is accepted on tells the business of the introducer's commission first, and its amount on "How much?" (docs/commission.md).
  const showOffer = async (c: HubContext, f: Feedback, status: 200 | RefusalStatus = 200, amount = false) => {
    const view = c.get("hubView");
    const { offer, disclosures } = await hubOfferWithDisclosure(c.get("deps"), c.get("lead"), c.req.param("offerId")!, { amount, readOnly: view.readOnly ?? false, money: view.local.money });
    return c.html(offerPage(view, c.get("lead"), offer, f, disclosures), status);
  };
  hub.get("/offers/:offerId", async (c) => showOffer(c, noticeOf(c)));
  hub.get("/offers/:offerId/commission", async (c) => showOffer(c, {}, 200, true));
  hub.post(
    "/offers/:offerId/acceptance",
    hubForm(
      async (c) => {
        const offerId = c.req.param("offerId")!;
        await acceptHubOffer(c.get("deps"), c.get("lead"), offerId);
        return `${c.get("hubBase")}/offers/${offerId}?done=accepted`;
      },
      (c, f, status) => showOffer(c, f, status),
      undefined,
      pageAbove(),
    ),
  );

  hub.post(
    "/offers/:offerId/decline",
    hubForm(
      async (c, form) => {
        const offerId = c.req.param("offerId")!;
        await declineHubOffer(c.get("deps"), c.get("lead"), offerId, text(form, "reason_code") ?? "");
        return `${c.get("hubBase")}/offers/${offerId}?done=declined`;
      },
      (c, f, status) => showOffer(c, f, status),
      undefined,
      pageAbove(),
    ),
  );

  const showMessages = async (c: HubContext, f: Feedback, status: 200 | RefusalStatus = 200, draft: { subject?: string; body?: string } = {}) =>
    c.html(messagesPage(c.get("hubView"), await loadMessages(c.get("deps"), c.get("lead"), c.req.param("ref")!), f, draft), status);
  hub.get("/deals/:ref/messages", async (c) => showMessages(c, noticeOf(c)));
  hub.post(
    "/deals/:ref/messages",
    hubForm(
      async (c, form) => {
        const message = await replyToLender(c.get("deps"), c.get("lead"), c.req.param("ref")!, { subject: text(form, "subject"), body: text(form, "body") });
        return `${c.get("hubBase")}/deals/${c.req.param("ref")}/messages?done=sent#${message.id}`;
      },
      showMessages,
      (form) => ({ subject: text(form, "subject"), body: text(form, "body") }),
    ),
  );

  const showCompletion = async (c: HubContext, f: Feedback, status: 200 | RefusalStatus = 200, draft: Record<string, string> = {}) =>
    c.html(completionPage(c.get("hubView"), await loadCompletion(c.get("deps"), linksFor(c.env), c.get("lead"), c.req.param("ref")!), f, draft), status);
  hub.get("/deals/:ref/completion", async (c) => showCompletion(c, noticeOf(c)));
  hub.post(
    "/deals/:ref/completion/account",
    hubForm(
      async (c, form) => {
        const fields = Object.fromEntries([...form.keys()].map((k) => [k, text(form, k)]));
        await submitAccount(c.get("deps"), c.get("lead"), c.req.param("ref")!, fields);
        return `${c.get("hubBase")}/deals/${c.req.param("ref")}/completion?done=account`;
      },
      showCompletion,
      // Only the holder's name is shown again after a refusal; bank numbers are never echoed back.
      (form) => ({ account_holder_name: text(form, "account_holder_name") ?? "" }),
      pageAbove(),
    ),
  );
  hub.post(
    "/deals/:ref/completion/signature",
    hubForm(
      async (c, form) => {
        await signAgreement(c.get("deps"), c.get("lead"), c.req.param("ref")!, { full_name: text(form, "full_name"), consent: text(form, "consent") });
        return `${c.get("hubBase")}/deals/${c.req.param("ref")}/completion?done=signed`;
      },
      showCompletion,
      (form) => ({ full_name: text(form, "full_name") ?? "" }),
      pageAbove(),
    ),
  );

  // Before submission the business withdraws its consent here too: a confirm page, then the one post.
  const showWithdrawal = async (c: HubContext, f: Feedback, status: 200 | RefusalStatus = 200) => c.html(consentWithdrawalPage(c.get("hubView"), c.get("lead"), f), status);
  hub.get("/consent/withdraw", (c) => showWithdrawal(c, {}));
  hub.post(
    "/consent/withdraw",
    formAction<HubContext>({
      confirm: (c) => consentWithdrawalPath(c.get("hubBase")),
      act: async (c) => {
        await withdrawHubConsent(c.get("deps"), c.get("lead"));
        return `${c.get("hubBase")}?done=consent_withdrawn`;
      },
      showAgain: (c, refusal) => showWithdrawal(c, feedbackOf(refusal), refusal.status),
    }),
  );

  hub.all("*", () => {
    throw new Refusal("not_found", "No such hub page.");
  });
  return hub;
}

export function createHubRoutes() {
  const hub = new Hono<HubEnv>();
  hub.use("*", async (c, next) => {
    await next();
    withHubHeaders(c.res);
  });
  // The body limit (20 MiB on the upload route, which says it takes files, 64 KB for other forms) is the app's, applied before this.
  hub.use("*", sameOriginHubPosts);
  hub.use("*", limitByAddress);
  hub.use("*", exchangeLink);
  hub.use("/:leadId", openLead);
  hub.use("/:leadId/*", openLead);
  hub.use("/:leadId/*", showRefusedPosts(hubRefusedPosts));
  // A successful hub write (a lead was opened, the answer is a redirect) delivers its events' webhooks at once, as the APIs' writes do.
  hub.use("/:leadId/*", dispatchAfterWriteOf<HubEnv>((c) => Boolean(c.get("lead"))));
  const pages = createHubPages();
  hub.route("/:leadId/:token{[0-9a-fA-F]{40}}", pages);
  hub.route("/:leadId", pages);
  hub.all("*", () => {
    throw new Refusal("not_found", "No such hub page.");
  });
  hub.onError(hubErrors);
  return hub;
}
