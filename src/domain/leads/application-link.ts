/**
 * The application link's rules (issue 44). Pure: which states a link has, how long it and the browser
 * session it is traded for live, which fields a partner may lock, the steps of the page behind it, and
 * the rate limit.
 */

type StoredLinkState = "sent" | "opened" | "completed" | "revoked";
type ApplicationLinkState = StoredLinkState | "expired";
export const APPLICATION_LINK_STATES: readonly ApplicationLinkState[] = ["sent", "opened", "completed", "expired", "revoked"];
export type SubmitMode = "auto" | "review";

export interface ApplicationLink {
  id: string;
  leadId: string;
  organisationId: string;
  environment: "sandbox" | "live";
  state: StoredLinkState;
  submitMode: SubmitMode;
  locked: string[];
  returnUrl: string | null;
  expiresAt: string;
  createdAt: string;
  openedAt: string | null;
  completedAt: string | null;
  revokedAt: string | null;
  sessionHash: string | null;
  sessionExpiresAt: string | null;
}

/** Seven days unless the partner says otherwise; at least an hour, at most 30 days (the hub link's life). */
export const DEFAULT_EXPIRES_IN_SECONDS = 7 * 86_400;
export const MIN_EXPIRES_IN_SECONDS = 3_600;
export const MAX_EXPIRES_IN_SECONDS = 30 * 86_400;
/** The browser session a link is traded for: 12 hours, never past the link's expiry. */
const SESSION_HOURS = 12;

/** What a link is now: a sent or opened link past its expiry is expired; completed and revoked stay so. */
export function linkStateAt(link: Pick<ApplicationLink, "state" | "expiresAt">, now: number): ApplicationLinkState {
  if ((link.state === "sent" || link.state === "opened") && Date.parse(link.expiresAt) <= now) return "expired";
  return link.state;
}

/** A link that still opens its pages: sent or opened, unexpired. */
export const linkIsUsable = (link: Pick<ApplicationLink, "state" | "expiresAt">, now: number) => {
  const state = linkStateAt(link, now);
  return state === "sent" || state === "opened";
};

export const sessionExpiresAt = (link: Pick<ApplicationLink, "expiresAt">, now: number) =>
  new Date(Math.min(now + SESSION_HOURS * 3_600_000, Date.parse(link.expiresAt))).toISOString();

/** The steps of the page behind the link, in order; each its own page, each saved when left. */
export const APPLICATION_STEPS = [
  { slug: "business", title: "Your business" },
  { slug: "contact", title: "How to reach you" },
  { slug: "funding", title: "The funding you need" },
  { slug: "trading", title: "How the business trades" },
  { slug: "persons", title: "People with significant control" },
  { slug: "documents", title: "Bank statements" },
  { slug: "review", title: "Check your answers" },
  { slug: "consent", title: "Agree and send" },
] as const;
export type StepSlug = (typeof APPLICATION_STEPS)[number]["slug"];

export const stepAfter = (slug: StepSlug): StepSlug | "done" => {
  const i = APPLICATION_STEPS.findIndex((s) => s.slug === slug);
  return APPLICATION_STEPS[i + 1]?.slug ?? "done";
};
export const stepBefore = (slug: StepSlug): StepSlug | null => APPLICATION_STEPS[APPLICATION_STEPS.findIndex((s) => s.slug === slug) - 1]?.slug ?? null;

/** The fields of each form step, as dotted paths of the lead's body (the API's names). */
export const STEP_FIELDS = {
  business: ["business.name", "business.company_number", "business.entity_type", "business.industry"],
  contact: ["contact.first_name", "contact.last_name", "contact.email", "contact.phone"],
  funding: ["funding.amount", "funding.purpose", "funding.product_family"],
  trading: ["trading.monthly_revenue", "trading.annual_turnover", "trading.tib_months", "trading.credit_score_band"],
} as const satisfies Partial<Record<StepSlug, readonly string[]>>;

/** What a partner may lock: every field the steps ask, and the list of significant persons as a whole. */
export const LOCKABLE_FIELDS: readonly string[] = [...Object.values(STEP_FIELDS).flat(), "significant_persons"];

/** Requests per minute on one link (a person moves between steps every few seconds at most). */
export const APPLICATION_REQUESTS_PER_LINK = 60;
export const APPLICATION_REQUESTS_PER_ADDRESS = 120;
export const APPLICATION_LIMIT_WINDOW_SECONDS = 60;
export const applicationLinkBucket = (linkId: string) => `apply:link:${linkId}`;
export const applicationAddressBucket = (address: string) => `apply:address:${address}`;

