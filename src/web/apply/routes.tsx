/**
 * The pages behind the application link. The link `/apply/{token}` is the credential: its
 * token (stored hashed) is traded for a session cookie (HttpOnly, SameSite=Strict, Path=/apply) and
 * the browser moves on to `/apply` without it, as the client hub and portal invitations do. A newer
 * opening ends the older session: one browser per link at a time. Each step is its own page and is
 * saved when left; every step's body is the API's own (LeadPatch, SignificantPersonsPut) written by
 * the API's own services, so a rule the API refuses is refused here, beside the field. Every post is the
 * kit's formAction and every error the kit's pageErrors, as in the portal and the hub. A guessed, used,
 * expired, revoked or wrong-host link all show the one dead-link page. The pages speak the market's
 * language (messages.ts).
 */
import { Hono, type Context } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import { createMiddleware } from "hono/factory";
import type { AppEnv, Variables } from "../../app-env";
import { LeadPatch, SignificantPersonsPut } from "../../api/shared/schemas/lead";
import { APPLICATION_STEPS, STEP_FIELDS, stepAfter, stepBefore, type StepSlug } from "../../domain/leads/application-link";
import { consentTextIn } from "../../domain/leads/consent-texts";
import { missingForSubmit } from "../../domain/leads/submission";
import type { Lead, SignificantPerson } from "../../domain/leads/types";
import { marketFor } from "../../domain/reference/markets";
import { clientAddress } from "../../lib/client-address";
import { Refusal } from "../../lib/refusal";
import { takesFiles } from "../../middleware/body-limit";
import { dispatchAfterWriteOf } from "../../middleware/dispatch-after-write";
import { sameOriginPosts } from "../../middleware/same-origin-posts";
import { useEnvironment } from "../../middleware/database";
import {
  agreeAndComplete,
  APPLICATION_ROUTE,
  APPLICATION_TOKEN,
  countApplicationRequestFromAddress,
  CURRENT_COMMISSION_DISCLOSURE,
  CURRENT_CONSENT_TEXT,
  deadLinkReturnUrl,
  openApplicationLink,
  openApplicationSession,
  registerAnswerOf,
  saveApplicationPersons,
  saveApplicationStep,
  statementsOf,
  uploadApplicationStatements,
  withdrawConsent,
  type Opened,
} from "../../services/application-link/application-links";
import { formAction, jsonOfForm, textFields, type FormFields } from "../kit/form";
import { formatFor, inWords, sizeInWords } from "../kit/format";
import { pageErrors } from "../kit/page-errors";
import { showRefusedPosts, type RefusedPosts } from "../kit/refused-posts";
import { formProblems, parseForm, type PageRefusal } from "../kit/refusal";
import { registerStatusIn, stepFields, type FormStep, type StepField } from "./fields";
import { ApplyPage, DeadLinkPage, ErrorSummary, inputId, Say, StepInput, type StepProblems } from "./layout";
import { applyLocale, fill, waitIn, type ApplyLocale, type ApplyWords } from "./messages";
import { refusalInPageWords } from "./refusals";

export const APPLY_SESSION_COOKIE = "rfs_apply";

export const APPLY_HEADERS: Record<string, string> = {
  "Referrer-Policy": "no-referrer",
  "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  "Cache-Control": "no-store",
};

type ApplyEnv = { Bindings: AppEnv["Bindings"]; Variables: Variables & { opened: Opened } };
type ApplyContext = Context<ApplyEnv>;

const path = (rest = "") => `${APPLICATION_ROUTE}${rest}`;
const stepPath = (slug: StepSlug | "done") => path(`/${slug}`);
const progressOf = (t: ApplyWords, slug: StepSlug) => fill(t.progress, { i: APPLICATION_STEPS.findIndex((s) => s.slug === slug) + 1, n: APPLICATION_STEPS.length });
const titleOf = (t: ApplyWords, slug: StepSlug) => t[`step_${slug}`];

/**
 * The page's words and locale: the lead's market's language (or another it is offered in that the
 * browser prefers). Without an opened link (a dead link, a refused post), the browser's language only:
 * a dead link must not tell which market a real token belongs to.
 */
const localeOf = (c: Context): ApplyLocale => {
  const opened = (c.get as (key: string) => unknown)("opened") as Opened | undefined;
  return applyLocale(opened?.lead.country ?? null, c.req.header("Accept-Language"));
};

const dead = async (c: Context, returnUrl: string | null = null) => c.html(<DeadLinkPage l={applyLocale(null, c.req.header("Accept-Language"))} returnUrl={returnUrl} />, 404);

// The link and the session.

const limitByAddress = createMiddleware<ApplyEnv>(async (c, next) => {
  await countApplicationRequestFromAddress(c.get("deps"), clientAddress(c.req.raw));
  return next();
});

/** GET /apply/{token}: traded for the session cookie, then on to /apply without the token. */
async function exchange(c: ApplyContext) {
  const token = c.req.param("token")!;
  const sandboxHost = Boolean(c.get("sandboxHost"));
  const opening = await openApplicationLink(c.get("deps"), token, sandboxHost);
  if (!opening) return dead(c, await deadLinkReturnUrl(c.get("deps"), token, sandboxHost));
  c.set("opened", opening.opened);
  setCookie(c, APPLY_SESSION_COOKIE, opening.session, {
    path: APPLICATION_ROUTE,
    httpOnly: true,
    sameSite: "Strict",
    secure: new URL(c.req.url).protocol === "https:",
    maxAge: Math.max(1, Math.floor((Date.parse(opening.expiresAt) - Date.now()) / 1000)),
  });
  // A link followed from another site (webmail): browsers withhold a SameSite=Strict cookie on a redirect another site started.
  if (c.req.header("Sec-Fetch-Site") === "cross-site") {
    const { t } = localeOf(c);
    return c.html(
      <ApplyPage l={localeOf(c)} title={t.openingTitle}>
        <meta http-equiv="refresh" content={`0;url=${path()}`} />
        <p>
          <a href={path()}>{t.continueTo}</a>
        </p>
      </ApplyPage>,
    );
  }
  return c.redirect(path(), 303);
}

/** The session behind the cookie; the done page and withdrawal also take a completed link's session. */
const session = (need: "live" | "live_or_completed") =>
  createMiddleware<ApplyEnv>(async (c, next) => {
    const opened = await openApplicationSession(c.get("deps"), getCookie(c, APPLY_SESSION_COOKIE) ?? "", Boolean(c.get("sandboxHost")), need);
    if (!opened) return dead(c);
    c.set("opened", opened);
    return next();
  });

// Reading and writing a step.

/** The value of a dotted path of the lead's parts, as an input shows it. */
function valueAt(lead: Lead, name: string): string {
  let node: unknown = { business: lead.business, contact: lead.contact, funding: lead.funding, trading: lead.trading };
  for (const key of name.split(".")) node = node && typeof node === "object" ? (node as Record<string, unknown>)[key] : undefined;
  return node === undefined || node === null ? "" : String(node);
}

/** Flat dotted names to the nested body an API schema reads. */
function nest(flat: Record<string, unknown>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(flat)) {
    const keys = name.split(".");
    let node = body;
    for (const key of keys.slice(0, -1)) node = (node[key] ??= {}) as Record<string, unknown>;
    node[keys.at(-1)!] = value;
  }
  return body;
}

/**
 * The body a step posts, for the API's LeadPatch: the step's own inputs only (through the kit's
 * jsonOfForm, numbers as people type them), an emptied input clearing its field, a locked field left
 * out unless the post names it (then the service refuses a change).
 */
function stepBody(fields: readonly StepField[], posted: FormFields, locked: readonly string[]) {
  const own = Object.fromEntries(fields.filter((f) => f.name in posted).map((f) => [f.name, posted[f.name]!.trim()]));
  const flat: Record<string, unknown> = jsonOfForm(own, { numbers: fields.filter((f) => f.kind === "number").map((f) => f.name) });
  for (const f of fields) if (!(f.name in flat) && !locked.includes(f.name)) flat[f.name] = null;
  return nest(flat);
}

const labelsOf = (fields: readonly StepField[]) => Object.fromEntries(fields.map((f) => [f.name, f.label]));

/** A refusal's problems beside the inputs the page has (`business.name`…), the rest in the summary. */
const locateIn = (names: readonly string[]) => (field: string | null | undefined) => {
  if (!field) return null;
  return names.find((n) => n === field) ?? names.find((n) => field.startsWith(`${n}.`) || n.startsWith(`${field}.`)) ?? null;
};

/**
 * A refusal's problems beside the page's inputs, in the page's language (refusals.ts: by each problem's
 * kind and field, never by the English words), the summary above them too.
 */
function stepProblems(c: ApplyContext, refusal: PageRefusal, locate: (field: string | null | undefined) => string | null): StepProblems {
  const opened = c.get("opened");
  const worded = refusalInPageWords(refusal, localeOf(c), { fields: opened.link.locked, by: opened.introducer });
  const placed = formProblems(worded, locate);
  return { byInput: placed.byInput, summary: worded === refusal ? placed.summary.message : worded.message };
}

function FormStepPage(props: { l: ApplyLocale; opened: Opened; step: FormStep; values: Record<string, string>; problems: StepProblems | null }) {
  const { l, opened, step, problems } = props;
  const { t } = l;
  const market = marketFor(opened.lead.country);
  const fields = stepFields(step, market, l);
  const focus = problems ? fields.find((f) => f.name in problems.byInput)?.name : undefined;
  return (
    <ApplyPage l={l} title={titleOf(t, step)} progress={progressOf(t, step)}>
      <ErrorSummary t={t} problems={problems} labels={labelsOf(fields)} />
      <form method="post" action={stepPath(step)} novalidate>
        {fields.map((field) => (
          <StepInput
            t={t}
            field={field}
            value={props.values[field.name] ?? ""}
            error={problems?.byInput[field.name]}
            locked={opened.link.locked.includes(field.name)}
            lockedBy={opened.introducer}
            focus={focus === field.name}
          />
        ))}
        <button type="submit" name="go" value="next">
          {t.saveContinue}
        </button>
        {stepBefore(step) ? (
          <button type="submit" name="go" value="back" class="secondary">
            {t.saveBack}
          </button>
        ) : null}
      </form>
      <p>{t.savedNote}</p>
    </ApplyPage>
  );
}

function stepValues(lead: Lead, step: FormStep) {
  return Object.fromEntries(STEP_FIELDS[step].map((name) => [name, valueAt(lead, name)]));
}

/**
 * A step's post (the kit's formAction): the step's inputs through the API's LeadPatch and amendLead,
 * then on to the next step (or back); a refusal is the step's page again with what was typed, each
 * message beside its input (the area's error handler, web/kit/page-errors.ts, answers it).
 */
const postFormStep = (step: FormStep) =>
  formAction<ApplyContext, FormFields>({
    draftOf: (form) => textFields(form),
    act: async (c, form) => {
      const opened = c.get("opened");
      const posted = textFields(form);
      const body = stepBody(stepFields(step, marketFor(opened.lead.country), localeOf(c)), posted, opened.link.locked);
      await saveApplicationStep(c.get("deps"), opened, parseForm(LeadPatch, body, "body"));
      if (posted.go === "back") return stepPath(stepBefore(step) ?? step);
      if (step === "business" && (body.business as Record<string, unknown> | undefined)?.company_number) return path("/business/check");
      return stepPath(stepAfter(step));
    },
    showAgain: (c, refusal, posted) => {
      const opened = c.get("opened");
      const locate = locateIn(STEP_FIELDS[step]);
      return c.html(<FormStepPage l={localeOf(c)} opened={opened} step={step} values={{ ...stepValues(opened.lead, step), ...posted }} problems={stepProblems(c, refusal, locate)} />, refusal.status);
    },
  });

// Significant persons.

const personFields = (t: ApplyWords): StepField[] => [
  { name: "full_name", label: t.fullName, kind: "text", autocomplete: "name" },
  { name: "date_of_birth", label: t.dateOfBirth, kind: "text", hint: t.dateOfBirthHint },
  { name: "residential_address.line1", label: t.line1, kind: "text", autocomplete: "address-line1" },
  { name: "residential_address.line2", label: t.line2, kind: "text", autocomplete: "address-line2" },
  { name: "residential_address.city", label: t.city, kind: "text", autocomplete: "address-level2" },
  { name: "residential_address.postal_code", label: t.postalCode, kind: "text", autocomplete: "postal-code" },
  { name: "ownership_percent", label: t.ownership, kind: "number", hint: t.ownershipHint },
];
/** The persons form's input names (the words do not change them). */
const PERSON_INPUTS = personFields({} as ApplyWords).map((f) => f.name);

const personValues = (p: SignificantPerson | undefined): Record<string, string> =>
  p
    ? {
        full_name: p.full_name,
        date_of_birth: p.date_of_birth,
        "residential_address.line1": p.residential_address.line1,
        "residential_address.line2": p.residential_address.line2 ?? "",
        "residential_address.city": p.residential_address.city ?? "",
        "residential_address.postal_code": p.residential_address.postal_code,
        ownership_percent: p.ownership_percent === null || p.ownership_percent === undefined ? "" : String(p.ownership_percent),
      }
    : {};

function PersonsPage(props: { l: ApplyLocale; opened: Opened; editing: number | null; values: Record<string, string>; problems: StepProblems | null; notice?: string }) {
  const { l, opened, editing, problems } = props;
  const { t } = l;
  const persons = opened.lead.significantPersons;
  const locked = opened.link.locked.includes("significant_persons");
  const fields = personFields(t);
  const focus = problems ? fields.find((f) => f.name in problems.byInput)?.name : undefined;
  return (
    <ApplyPage l={l} title={titleOf(t, "persons")} progress={progressOf(t, "persons")}>
      <ErrorSummary t={t} problems={problems} labels={labelsOf(fields)} />
      {props.notice ? (
        <p class="notice" role="status">
          {props.notice}
        </p>
      ) : null}
      <p>{t.personsIntro}</p>
      {persons.length === 0 ? <p>{t.noOneYet}</p> : null}
      <ul style="list-style:none;padding:0">
        {persons.map((p, i) => (
          <li class="card">
            <strong>{p.full_name}</strong>
            <br />
            {fill(t.born, { date: p.date_of_birth })}
            {p.ownership_percent !== null && p.ownership_percent !== undefined ? fill(t.owns, { percent: p.ownership_percent }) : ""}
            {locked ? null : (
              <form method="post" action={path("/persons/remove")}>
                <a href={`${path("/persons")}?edit=${i}#${inputId("full_name")}`} aria-label={fill(t.changeNamed, { who: p.full_name })}>
                  {t.change}
                </a>{" "}
                <input type="hidden" name="index" value={String(i)} />
                <button type="submit" class="secondary" aria-label={fill(t.removeNamed, { who: p.full_name })}>
                  {t.remove}
                </button>
              </form>
            )}
          </li>
        ))}
      </ul>
      {locked ? (
        <p class="locked">
          <Say text={t.lockedList} name={opened.introducer} />
        </p>
      ) : (
        <form method="post" action={path("/persons")} novalidate>
          <h2>{editing === null ? t.addPerson : fill(t.changeNamed, { who: persons[editing]?.full_name ?? t.thisPerson })}</h2>
          {editing === null ? null : <input type="hidden" name="index" value={String(editing)} />}
          {fields.map((field) => (
            <StepInput t={t} field={field} value={props.values[field.name] ?? ""} error={problems?.byInput[field.name]} focus={focus === field.name} />
          ))}
          <button type="submit" name="go" value="save" class="secondary">
            {editing === null ? t.addThisPerson : t.saveChanges}
          </button>
        </form>
      )}
      <p>
        <a class="button" href={stepPath("documents")}>
          {t.continue}
        </a>{" "}
        <a href={stepPath("trading")}>{t.back}</a>
      </p>
    </ApplyPage>
  );
}

const personIndex = (raw: string | undefined, persons: readonly unknown[]) => {
  const i = /^\d{1,3}$/.test(raw ?? "") ? Number(raw) : null;
  return i !== null && i < persons.length ? i : null;
};

/**
 * Where a persons refusal is shown: a person's own field beside its input; the list's total (the
 * API's SignificantPersonsPut names it `significant_persons`) beside the share; with the list locked
 * (no form on the page) everything above it.
 */
const locatePerson = (opened: Opened) => {
  const names = locateIn(PERSON_INPUTS);
  return (field: string | null | undefined) => {
    if (opened.link.locked.includes("significant_persons") || !field) return null;
    if (field === "significant_persons") return "ownership_percent";
    return names(field.replace(/^significant_persons\.\d+\./, ""));
  };
};

/** Adds a person, or changes the one `index` names: the person through the API's schema, then the whole list through the API's PUT body. */
const postPerson = formAction<ApplyContext, FormFields>({
  draftOf: (form) => textFields(form, { trim: true }),
  act: async (c, form) => {
    const opened = c.get("opened");
    const posted = textFields(form, { trim: true });
    const editing = personIndex(posted.index, opened.lead.significantPersons);
    const own = Object.fromEntries(PERSON_INPUTS.filter((name) => name in posted).map((name) => [name, posted[name]!]));
    const list: unknown[] = [...opened.lead.significantPersons];
    list[editing ?? list.length] = nest(jsonOfForm(own, { numbers: ["ownership_percent"] }));
    // The whole list through the API's PUT body: the person's own fields and the ownership total, worded as the portal's persons form words them.
    const { significant_persons } = parseForm(SignificantPersonsPut, { significant_persons: list }, "body");
    await saveApplicationPersons(c.get("deps"), opened, significant_persons as SignificantPerson[]);
    return `${path("/persons")}?done=${editing === null ? "added" : "changed"}`;
  },
  showAgain: (c, refusal, posted) => {
    const opened = c.get("opened");
    const editing = personIndex(posted.index, opened.lead.significantPersons);
    return c.html(<PersonsPage l={localeOf(c)} opened={opened} editing={editing} values={posted} problems={stepProblems(c, refusal, locatePerson(opened))} />, refusal.status);
  },
});

/** Removes the person `index` names; an index no longer on the list (removed in another tab) is simply back to the list. */
const removePerson = formAction<ApplyContext>({
  act: async (c, form) => {
    const opened = c.get("opened");
    const index = personIndex(textFields(form).index, opened.lead.significantPersons);
    if (index === null) return path("/persons");
    await saveApplicationPersons(c.get("deps"), opened, opened.lead.significantPersons.filter((_, i) => i !== index));
    return `${path("/persons")}?done=removed`;
  },
  showAgain: (c, refusal) => c.html(<PersonsPage l={localeOf(c)} opened={c.get("opened")} editing={null} values={{}} problems={stepProblems(c, refusal, () => null)} />, refusal.status),
  page: () => path("/persons"),
});

const PERSON_NOTICES: Record<string, keyof ApplyWords> = { added: "personAdded", changed: "personChanged", removed: "personRemoved" };

// Documents.

async function DocumentsPage(props: { c: ApplyContext; problems: StepProblems | null; notice?: string }) {
  const { c, problems } = props;
  const l = localeOf(c);
  const { t } = l;
  const statements = await statementsOf(c.get("deps"), c.get("opened"));
  return (
    <ApplyPage l={l} title={titleOf(t, "documents")} progress={progressOf(t, "documents")}>
      <ErrorSummary t={t} problems={problems} labels={{ file: t.step_documents }} />
      {props.notice ? (
        <p class="notice" role="status">
          {props.notice}
        </p>
      ) : null}
      <p>{t.documentsIntro}</p>
      <ul style="list-style:none;padding:0">
        {statements.map((d) => (
          <li class="card">
            <bdi>{d.filename}</bdi>: {d.state === "accepted" ? t.received : fill(t.notUsable, { reason: d.reason ?? t.unreadable })}
          </li>
        ))}
      </ul>
      <form method="post" action={path("/documents")} enctype="multipart/form-data">
        <label for={inputId("file")}>{t.step_documents}</label>
        <span class="hint" id={`${inputId("file")}-hint`}>
          {t.fileHint}
        </span>
        {problems?.byInput.file ? (
          <span class="field-error" id={`${inputId("file")}-error`}>
            {problems.byInput.file}
          </span>
        ) : null}
        <input
          type="file"
          id={inputId("file")}
          name="file"
          multiple
          accept=".pdf,.csv,.ofx"
          aria-describedby={`${inputId("file")}-hint${problems?.byInput.file ? ` ${inputId("file")}-error` : ""}`}
          aria-invalid={problems?.byInput.file ? "true" : undefined}
          autofocus={problems?.byInput.file ? true : undefined}
        />
        <button type="submit" class="secondary">
          {t.upload}
        </button>
      </form>
      <p>
        <a class="button" href={stepPath("review")}>
          {t.continue}
        </a>{" "}
        <a href={stepPath("persons")}>{t.back}</a>
      </p>
    </ApplyPage>
  );
}

// Review, consent, done.

function Answers(props: { l: ApplyLocale; opened: Opened; statements: number }) {
  const { l } = props;
  const { t } = l;
  const { lead } = props.opened;
  const market = marketFor(lead.country);
  const shown = (f: StepField) => {
    const v = valueAt(lead, f.name);
    if (!v) return t.notGiven;
    if (f.options) return f.options.find((o) => o.value === v)?.label ?? inWords(v);
    if (f.kind === "number" && f.name !== "trading.tib_months") return formatFor(lead.country).money(Number(v), market.currency);
    return v;
  };
  return (
    <>
      {(["business", "contact", "funding", "trading"] as const).map((step) => (
        <section aria-labelledby={`review-${step}`}>
          <h2 id={`review-${step}`}>{titleOf(t, step)}</h2>
          <dl>
            {stepFields(step, market, l).map((f) => (
              <>
                <dt>{f.label}</dt>
                <dd>
                  <bdi>{shown(f)}</bdi>
                </dd>
              </>
            ))}
          </dl>
          <p>
            <a href={stepPath(step)} aria-label={fill(t.changeSection, { section: titleOf(t, step) })}>
              {t.change}
            </a>
          </p>
        </section>
      ))}
      <section aria-labelledby="review-persons">
        <h2 id="review-persons">{titleOf(t, "persons")}</h2>
        <p>{lead.significantPersons.length === 0 ? t.noOneAdded : lead.significantPersons.map((p) => p.full_name).join(", ")}</p>
        <p>
          <a href={stepPath("persons")} aria-label={fill(t.changeSection, { section: titleOf(t, "persons") })}>
            {t.change}
          </a>
        </p>
      </section>
      <section aria-labelledby="review-documents">
        <h2 id="review-documents">{titleOf(t, "documents")}</h2>
        <p>{props.statements === 0 ? t.noneSent : fill(t.filesSent, { n: props.statements })}</p>
        <p>
          <a href={stepPath("documents")} aria-label={fill(t.changeSection, { section: titleOf(t, "documents") })}>
            {t.change}
          </a>
        </p>
      </section>
    </>
  );
}

const MISSING_STEP: Record<string, FormStep> = { business: "business", trading: "trading", funding: "funding", contact: "contact" };

function MissingList(props: { l: ApplyLocale; lead: Lead }) {
  const { l } = props;
  const missing = missingForSubmit(props.lead, marketFor(props.lead.country));
  if (missing.length === 0) return null;
  return (
    <div class="error-summary" role="alert" aria-labelledby="missing-title" tabindex={-1}>
      <h2 id="missing-title">{l.t.missingTitle}</h2>
      <ul>
        {missing.map((m) => {
          const step = MISSING_STEP[m.split(".")[0]!] ?? "business";
          const field = stepFields(step, marketFor(props.lead.country), l).find((f) => f.name === m);
          return (
            <li>
              <a href={`${stepPath(step)}#${inputId(m)}`}>{field?.label ?? inWords(m.split(".").at(-1)!)}</a>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

function ConsentPage(props: { l: ApplyLocale; opened: Opened; problems: StepProblems | null; soft?: boolean }) {
  const { l, opened, problems } = props;
  const { t } = l;
  // The text in the page's language: what is shown is what the receipt names (agreeAndComplete is given the same locale).
  const text = consentTextIn(CURRENT_CONSENT_TEXT, l.locale);
  const disclosure = consentTextIn(CURRENT_COMMISSION_DISCLOSURE, l.locale);
  const agreeError = problems?.byInput.agree;
  return (
    <ApplyPage l={l} title={titleOf(t, "consent")} progress={progressOf(t, "consent")}>
      <ErrorSummary t={t} problems={problems} labels={{ agree: t.agreement }} />
      <MissingList l={l} lead={opened.lead} />
      <h2>{t.whatYouAgree}</h2>
      <div class="consent-text" lang={text.locale} id="consent-text">
        {text.text.split("\n\n").map((p) => (
          <p>{p}</p>
        ))}
      </div>
      <h2>
        <Say text={t.howPaid} name={opened.introducer} />
      </h2>
      <p id="commission-disclosure" lang={disclosure.locale}>
        <Say text={disclosure.text} name={opened.introducer} />
      </p>
      <form method="post" action={stepPath("consent")} novalidate>
        <div class="check">
          {agreeError ? (
            <span class="field-error" id={`${inputId("agree")}-error`}>
              {agreeError}
            </span>
          ) : null}
          <label for={inputId("agree")}>
            <input
              type="checkbox"
              id={inputId("agree")}
              name="agree"
              value="yes"
              aria-invalid={agreeError ? "true" : undefined}
              aria-describedby={agreeError ? `${inputId("agree")}-error` : undefined}
              autofocus={agreeError ? true : undefined}
            />
            {/* One flex item: the label is a flex row (tick, words), and the name's <bdi> would be a column of its own. */}
            <span>
              <Say text={t.agreeLabel} name={opened.introducer} />
            </span>
          </label>
        </div>
        <div class="check">
          <label for={inputId("soft_credit_search")}>
            <input type="checkbox" id={inputId("soft_credit_search")} name="soft_credit_search" value="yes" checked={props.soft || undefined} />
            {t.softLabel}
          </label>
        </div>
        <input type="hidden" name="text_version" value={CURRENT_CONSENT_TEXT.version} />
        <button type="submit">{t.agreeSend}</button>
      </form>
      <p>
        <a href={stepPath("review")}>{t.backToAnswers}</a>
      </p>
    </ApplyPage>
  );
}

/** A refused agreement: the tick's message beside it; what is still missing is listed on the page itself (MissingList). */
function consentProblems(c: ApplyContext, refusal: PageRefusal): StepProblems {
  const problems = stepProblems(c, refusal, (field) => (field === "agree" ? "agree" : null));
  return refusal.code === "missing_fields" ? { ...problems, summary: localeOf(c).t.missingBelow } : problems;
}

function DonePage(props: { l: ApplyLocale; opened: Opened; notice?: string; problems?: StepProblems | null }) {
  const { l, opened } = props;
  const { t } = l;
  const { lead, link } = opened;
  const name = opened.introducer;
  const withdrawn = Boolean(lead.consent?.withdrawn_at) && lead.consent?.obtained !== true;
  const submitted = lead.state !== "draft";
  const receipt = lead.consent?.receipt;
  return (
    <ApplyPage l={l} title={withdrawn ? t.withdrawnTitle : t.sentTitle}>
      <ErrorSummary t={t} problems={props.problems ?? null} labels={{}} />
      {props.notice ? (
        <p class="notice" role="status">
          {props.notice}
        </p>
      ) : null}
      {withdrawn ? (
        <p>
          <Say text={t.withdrawnText} name={name} />
        </p>
      ) : (
        <>
          <h2>{t.whatNext}</h2>
          <p>
            <Say text={submitted ? t.submittedText : t.reviewText} name={name} />
          </p>
          <p>
            <Say text={t.contactText} name={name} />
          </p>
          {receipt ? (
            <p class="muted">{fill(receipt.soft_credit_search ? t.agreedWith : t.agreedWithout, { time: formatFor(lead.country).time(receipt.agreed_at), version: receipt.text_version })}</p>
          ) : null}
          {!submitted && lead.consent?.obtained === true ? (
            <form method="post" action={path("/withdraw")}>
              <h2>{t.changedMind}</h2>
              <p>{t.withdrawText}</p>
              <button type="submit" class="secondary">
                {t.withdrawButton}
              </button>
            </form>
          ) : null}
        </>
      )}
      {link.returnUrl ? (
        <p>
          <a href={link.returnUrl}>
            <Say text={t.goBackTo} name={name} />
          </a>
        </p>
      ) : null}
    </ApplyPage>
  );
}

/** A done page exists once the business agreed through the link, or once consent was withdrawn from it. */
const hasDonePage = (opened: Opened) => opened.link.state === "completed" || (Boolean(opened.lead.consent?.withdrawn_at) && opened.lead.consent?.obtained !== true);

/** A refusal that has no form to show again: its message, in the page's language, and the way back. */
function RefusedPage(props: { l: ApplyLocale; message: string }) {
  const { t } = props.l;
  return (
    <ApplyPage l={props.l} title={t.refusedTitle}>
      <p role="alert">{props.message}</p>
      <p>
        <a href={path()}>{t.backToApplication}</a>
      </p>
    </ApplyPage>
  );
}

function WelcomePage(props: { l: ApplyLocale; opened: Opened }) {
  const { l, opened } = props;
  const { t } = l;
  const name = opened.introducer;
  const expires = formatFor(opened.lead.country).time(opened.link.expiresAt);
  return (
    <ApplyPage l={l} title={t.welcomeTitle}>
      <p>
        <strong>
          <Say text={t.asked} name={name} />
        </strong>{" "}
        {t.sendOn}
      </p>
      <p>{t.takes}</p>
      <p>
        <Say text={t.savedUntil} name={name} values={{ time: expires }} />
      </p>
      <p>
        <strong>{t.noSearch}</strong>
        {t.noSearchRest}
      </p>
      <p>
        <a class="button" href={stepPath("business")}>
          {t.start}
        </a>
      </p>
    </ApplyPage>
  );
}

async function RegisterCheckPage(props: { c: ApplyContext }) {
  const { c } = props;
  const l = localeOf(c);
  const { t } = l;
  const opened = c.get("opened");
  const answer = await registerAnswerOf(c.get("deps"), opened);
  const number = opened.lead.business?.company_number ?? "";
  const local = formatFor(opened.lead.country);
  const found = answer && answer.status === "available" ? answer : null;
  const [before, after] = t.stillAsking.split("{number}");
  return (
    <ApplyPage l={l} title={t.checkTitle} progress={progressOf(t, "business")}>
      {found ? (
        <p class="card" id="register-answer">
          <strong>
            <bdi>{found.registered_name ?? number}</bdi>
          </strong>
          {found.company_status ? `, ${registerStatusIn(found.company_status, l)}` : ""}
          {found.incorporated_on ? fill(t.incorporated, { date: local.date(found.incorporated_on) }) : ""}
        </p>
      ) : (
        <p class="card" id="register-answer">
          {before}
          <bdi>{number}</bdi>
          {after}
        </p>
      )}
      <p>
        <a class="button" href={stepPath("contact")}>
          {t.yesContinue}
        </a>{" "}
        <a href={`${stepPath("business")}#${inputId("business.company_number")}`}>{t.noChange}</a>
      </p>
    </ApplyPage>
  );
}

function createPages() {
  const pages = new Hono<ApplyEnv>();
  pages.get("/", (c) => c.html(<WelcomePage l={localeOf(c)} opened={c.get("opened")} />));
  pages.get("/business/check", async (c) => c.html(await RegisterCheckPage({ c })));
  pages.get("/persons", (c) => {
    const opened = c.get("opened");
    const editing = personIndex(c.req.query("edit"), opened.lead.significantPersons);
    const l = localeOf(c);
    const notice = PERSON_NOTICES[c.req.query("done") ?? ""];
    return c.html(<PersonsPage l={l} notice={notice ? l.t[notice] : undefined} opened={opened} editing={editing} values={personValues(editing === null ? undefined : opened.lead.significantPersons[editing])} problems={null} />);
  });
  pages.post("/persons", postPerson);
  pages.post("/persons/remove", removePerson);
  pages.get("/documents", async (c) => c.html(await DocumentsPage({ c, problems: null, notice: c.req.query("done") === "uploaded" ? localeOf(c).t.uploaded : undefined })));
  pages.post(
    "/documents",
    takesFiles(),
    formAction<ApplyContext>({
      act: async (c, form) => {
        // A file input left empty still sends a nameless, empty part.
        const files = (form.getAll("file") as unknown as (File | string)[]).filter((v): v is File => typeof v !== "string" && !(v.name === "" && v.size === 0));
        // Nothing chosen is the form's own problem, said in the page's language (the service refuses it too, in English, for any other door).
        if (files.length === 0) throw new Refusal("invalid_request", localeOf(c).t.chooseFile, { field: "file" });
        await uploadApplicationStatements(
          c.get("deps"),
          c.get("opened"),
          await Promise.all(files.map(async (f) => ({ name: f.name, bytes: new Uint8Array(await f.arrayBuffer()) }))),
        );
        return `${path("/documents")}?done=uploaded`;
      },
      showAgain: async (c, refusal) => c.html(await DocumentsPage({ c, problems: stepProblems(c, refusal, () => "file") }), refusal.status),
    }),
  );
  pages.get("/review", async (c) => {
    const l = localeOf(c);
    const { t } = l;
    const opened = c.get("opened");
    const statements = (await statementsOf(c.get("deps"), opened)).length;
    return c.html(
      <ApplyPage l={l} title={titleOf(t, "review")} progress={progressOf(t, "review")}>
        <MissingList l={l} lead={opened.lead} />
        <Answers l={l} opened={opened} statements={statements} />
        <p>
          <a class="button" href={stepPath("consent")}>
            {t.continue}
          </a>{" "}
          <a href={stepPath("documents")}>{t.back}</a>
        </p>
      </ApplyPage>,
    );
  });
  pages.get("/consent", (c) => c.html(<ConsentPage l={localeOf(c)} opened={c.get("opened")} problems={null} />));
  pages.post(
    "/consent",
    formAction<ApplyContext, { soft: boolean }>({
      draftOf: (form) => ({ soft: textFields(form).soft_credit_search === "yes" }),
      act: async (c, form) => {
        const posted = textFields(form);
        const l = localeOf(c);
        // Agreement is its own tick: never implied by the soft search's, nor by sending the form.
        if (posted.agree !== "yes") throw new Refusal("invalid_request", l.t.tickToAgree, { field: "agree" });
        await agreeAndComplete(c.get("deps"), c.get("opened"), posted.soft_credit_search === "yes", l.locale);
        return stepPath("done");
      },
      showAgain: (c, refusal, draft) => {
        const l = localeOf(c);
        return c.html(<ConsentPage l={l} opened={c.get("opened")} soft={draft.soft} problems={consentProblems(c, refusal)} />, refusal.status);
      },
    }),
  );
  for (const step of ["business", "contact", "funding", "trading"] as const) {
    pages.get(`/${step}`, (c) => c.html(<FormStepPage l={localeOf(c)} opened={c.get("opened")} step={step} values={stepValues(c.get("opened").lead, step)} problems={null} />));
    pages.post(`/${step}`, postFormStep(step));
  }
  pages.all("*", (c) => dead(c));
  return pages;
}

function createAfterPages() {
  const after = new Hono<ApplyEnv>();
  after.get("/done", (c) => {
    const l = localeOf(c);
    const opened = c.get("opened");
    // A link still being filled in has nothing done to show: its steps, from the welcome.
    if (!hasDonePage(opened)) return c.redirect(path(), 303);
    return c.html(<DonePage l={l} opened={opened} notice={c.req.query("done") === "withdrawn" ? l.t.withdrawnNotice : undefined} />);
  });
  after.post(
    "/withdraw",
    formAction<ApplyContext>({
      act: async (c) => {
        await withdrawConsent(c.get("deps"), c.get("opened"));
        return `${stepPath("done")}?done=withdrawn`;
      },
      showAgain: (c, refusal) => {
        const l = localeOf(c);
        const opened = c.get("opened");
        const message = refusal.code === "invalid_transition" ? l.t.nothingToWithdraw : refusal.message;
        // A crafted post on a link never agreed: the refusal in its own page, not a done page saying the application was sent.
        if (!hasDonePage(opened)) return c.html(<RefusedPage l={l} message={message} />, refusal.status);
        return c.html(<DonePage l={l} opened={opened} problems={{ byInput: {}, summary: message }} />, refusal.status);
      },
      page: () => stepPath("done"),
    }),
  );
  return after;
}

const withApplyHeaders = (res: Response) => {
  for (const [name, value] of Object.entries(APPLY_HEADERS)) res.headers.set(name, value);
  return res;
};

/** A refused post is kept for the link's session cookie that posted it (the cookie is scoped to /apply). */
const applyRefusedPosts: RefusedPosts<ApplyContext> = {
  sessionOf: (c) => {
    const cookie = getCookie(c, APPLY_SESSION_COOKIE);
    return cookie ? `apply:${cookie}` : null;
  },
};

/**
 * The application's last word (web/kit/page-errors.ts), as the portal's and the hub's: a refused form
 * is its page again; `not_found` the one dead-link page; a throttled request (or a busy platform) a page
 * saying how long to wait, with `Retry-After`; another refusal a page with its message; anything else
 * a page naming the request id. Never JSON, always with the area's headers, in the page's language.
 */
const applyErrors = pageErrors<ApplyEnv>({
  notFound: async (c) => withApplyHeaders(await dead(c)),
  refused: async (c, refusal) => withApplyHeaders(await c.html(<RefusedPage l={localeOf(c)} message={refusal.message} />, refusal.status)),
  tryLater: async (c, wait, status) => {
    const l = localeOf(c);
    return withApplyHeaders(
      await c.html(
        <ApplyPage l={l} title={l.t.tooManyTitle}>
          <p role="alert">{fill(l.t.tooMany, { wait: waitIn(l.t, wait) })}</p>
        </ApplyPage>,
        status,
      ),
    );
  },
  failed: async (c, requestId, maybeSaved) => {
    const l = localeOf(c);
    return withApplyHeaders(
      await c.html(
        <ApplyPage l={l} title={l.t.failedTitle}>
          <p role="alert">{maybeSaved ? l.t.failedSaved : l.t.failedRead}</p>
          <p>
            {l.t.failedRef} <code>{requestId}</code>.
          </p>
        </ApplyPage>,
        500,
      ),
    );
  },
  refusedPosts: applyRefusedPosts,
});

const sameOriginApplyPosts = sameOriginPosts<ApplyEnv>((c) => {
  const l = localeOf(c);
  return c.html(
    <ApplyPage l={l} title={l.t.crossTitle}>
      <p>{l.t.crossText}</p>
    </ApplyPage>,
    403,
  );
});

/**
 * A body over its route's limit, in the link's own page: the statements step takes at most the upload limit
 * in all, a step's form the form limit; what to do, and the way back (the middleware drops whatever the
 * route answered, so this is the one 413 a business sees here). Answered before the link is opened, so in
 * the browser's language.
 */
export async function applyTooLargePage(c: Context<AppEnv>, limit: { bytes: number; files: boolean }) {
  const size = sizeInWords(limit.bytes);
  const l = applyLocale(null, c.req.header("Accept-Language"));
  const { t } = l;
  const page = limit.files ? (
    <ApplyPage l={l} title={t.tooLargeFilesTitle}>
      <p role="alert">{fill(t.tooLargeFiles, { size })}</p>
      <ul>
        <li>{t.tooLargeTip1}</li>
        <li>{t.tooLargeTip2}</li>
        <li>{t.tooLargeTip3}</li>
      </ul>
      <p>
        <a href={`${APPLICATION_ROUTE}/documents`}>{t.backToStatements}</a>
      </p>
    </ApplyPage>
  ) : (
    <ApplyPage l={l} title={t.tooLargeFormTitle}>
      <p role="alert">{fill(t.tooLargeForm, { size })}</p>
      <p>
        <a href={APPLICATION_ROUTE}>{t.backToApplication}</a>
      </p>
    </ApplyPage>
  );
  return withApplyHeaders(await c.html(page, 413));
}

export function createApplyRoutes() {
  const apply = new Hono<ApplyEnv>();
  apply.use("*", async (c, next) => {
    await next();
    for (const [name, value] of Object.entries(APPLY_HEADERS)) c.res.headers.set(name, value);
  });
  apply.use("*", sameOriginApplyPosts);
  // A link is served only on its environment's host (onItsHost), so the host names the database its lead is in (docs/capacity.md).
  apply.use("*", async (c, next) => {
    useEnvironment(c as unknown as Context<AppEnv>, c.get("sandboxHost") ? "sandbox" : "live");
    return next();
  });
  apply.use("*", limitByAddress);
  // A write that answers with a redirect dispatches its events' webhooks at once, as the APIs' writes do.
  apply.use("*", dispatchAfterWriteOf<ApplyEnv>((c) => Boolean(c.get("opened"))));
  apply.get("/:token{[0-9a-z]{48}}", exchange);
  apply.use("*", showRefusedPosts(applyRefusedPosts));
  apply.use("/done", session("live_or_completed"));
  apply.use("/withdraw", session("live_or_completed"));
  apply.route("/", createAfterPages());
  apply.use("*", session("live"));
  apply.route("/", createPages());
  apply.onError(applyErrors);
  return apply;
}

export { APPLICATION_TOKEN };
