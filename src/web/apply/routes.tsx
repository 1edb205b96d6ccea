/**
 * The pages behind the application link (issue 44). The link `/apply/{token}` is the credential: its
 * token (stored hashed) is traded for a session cookie (HttpOnly, SameSite=Strict, Path=/apply) and
 * the browser moves on to `/apply` without it, as the client hub and portal invitations do. A newer
 * opening ends the older session: one browser per link at a time. Each step is its own page and is
 * saved when left; every step's body is the API's own (LeadPatch, SignificantPersonInput) written by
 * the API's own services, so a rule the API refuses is refused here, beside the field. A guessed, used,
 * expired, revoked or wrong-host link all show the one dead-link page.
 */
import { Hono, type Context } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import { createMiddleware } from "hono/factory";
import type { AppEnv, Variables } from "../../app-env";
import { onError } from "../../api/problem";
import { LeadPatch, SignificantPersonInput, SignificantPersonsInput } from "../../api/shared/schemas/lead";
import { APPLICATION_STEPS, stepAfter, stepBefore, type StepSlug } from "../../domain/leads/application-link";
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
  commissionDisclosureFor,
  countApplicationRequestFromAddress,
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
import { jsonOfForm, readForm, textFields, type FormFields } from "../kit/form";
import { formatFor, inWords, sizeInWords } from "../kit/format";
import { formProblems, pageRefusal, parseForm } from "../kit/refusal";
import { isFormStep, stepFields, type FormStep, type StepField } from "./fields";
import { ApplyPage, DeadLinkPage, ErrorSummary, inputId, StepInput, type StepProblems } from "./layout";

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
const progressOf = (slug: StepSlug) => {
  const i = APPLICATION_STEPS.findIndex((s) => s.slug === slug);
  return `Step ${i + 1} of ${APPLICATION_STEPS.length}`;
};
const titleOf = (slug: StepSlug) => APPLICATION_STEPS.find((s) => s.slug === slug)!.title;

const dead = async (c: Context, returnUrl: string | null = null) => c.html(<DeadLinkPage returnUrl={returnUrl} />, 404);

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
    return c.html(
      <ApplyPage title="Opening your application">
        <meta http-equiv="refresh" content={`0;url=${path()}`} />
        <p>
          <a href={path()}>Continue to your application</a>
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

const asStepProblems = (p: { byInput: Record<string, string>; summary: { message: string } }): StepProblems => ({ byInput: p.byInput, summary: p.summary.message });

function FormStepPage(props: { opened: Opened; step: FormStep; values: Record<string, string>; problems: StepProblems | null }) {
  const { opened, step, problems } = props;
  const market = marketFor(opened.lead.country);
  const fields = stepFields(step, market);
  const focus = problems ? fields.find((f) => f.name in problems.byInput)?.name : undefined;
  return (
    <ApplyPage title={titleOf(step)} progress={progressOf(step)}>
      <ErrorSummary problems={problems} labels={labelsOf(fields)} />
      <form method="post" action={stepPath(step)} novalidate>
        {fields.map((field) => (
          <StepInput
            field={field}
            value={props.values[field.name] ?? ""}
            error={problems?.byInput[field.name]}
            locked={opened.link.locked.includes(field.name)}
            lockedBy={opened.introducer}
            focus={focus === field.name}
          />
        ))}
        <button type="submit" name="go" value="next">
          Save and continue
        </button>
        {stepBefore(step) ? (
          <button type="submit" name="go" value="back" class="secondary">
            Save and go back
          </button>
        ) : null}
      </form>
      <p>Your answers are saved each time you continue: you can close this page and come back with the same link.</p>
    </ApplyPage>
  );
}

function stepValues(lead: Lead, step: FormStep) {
  return Object.fromEntries(stepFields(step, marketFor(lead.country)).map((f) => [f.name, valueAt(lead, f.name)]));
}

/**
 * A refusal this area's pages show beside the form; anything else goes on to the area's onError.
 * (These pages are not yet on the kit's formAction and page-errors: the portal and the hub are.)
 */
function refusalForPage(error: unknown) {
  if (!(error instanceof Refusal)) throw error;
  return pageRefusal(error);
}

async function postFormStep(c: ApplyContext, step: FormStep) {
  const opened = c.get("opened");
  const fields = stepFields(step, marketFor(opened.lead.country));
  const posted = textFields(await readForm(c));
  const again = (problems: StepProblems, status: number) =>
    c.html(<FormStepPage opened={opened} step={step} values={{ ...stepValues(opened.lead, step), ...posted }} problems={problems} />, status as 400);
  const body = stepBody(fields, posted, opened.link.locked);
  const locate = locateIn(fields.map((f) => f.name));
  try {
    await saveApplicationStep(c.get("deps"), opened, parseForm(LeadPatch, body, "body"));
  } catch (error) {
    const refusal = refusalForPage(error);
    return again(asStepProblems(formProblems(refusal, locate)), refusal.status);
  }
  if (posted.go === "back") return c.redirect(stepPath(stepBefore(step) ?? step), 303);
  if (step === "business" && body.business && (body.business as Record<string, unknown>).company_number) return c.redirect(path("/business/check"), 303);
  return c.redirect(stepPath(stepAfter(step)), 303);
}

// Significant persons.

const PERSON_FIELDS: StepField[] = [
  { name: "full_name", label: "Full name", kind: "text", autocomplete: "name" },
  { name: "date_of_birth", label: "Date of birth", kind: "text", hint: "For example 1975-03-12." },
  { name: "residential_address.line1", label: "Home address, first line", kind: "text", autocomplete: "address-line1" },
  { name: "residential_address.line2", label: "Home address, second line", kind: "text", autocomplete: "address-line2" },
  { name: "residential_address.city", label: "Town or city", kind: "text", autocomplete: "address-level2" },
  { name: "residential_address.postal_code", label: "Postcode", kind: "text", autocomplete: "postal-code" },
  { name: "ownership_percent", label: "Share of the business they own (%)", kind: "number", hint: "For example 50." },
];

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

function PersonsPage(props: { opened: Opened; editing: number | null; values: Record<string, string>; problems: StepProblems | null; notice?: string }) {
  const { opened, editing, problems } = props;
  const persons = opened.lead.significantPersons;
  const locked = opened.link.locked.includes("significant_persons");
  const focus = problems ? PERSON_FIELDS.find((f) => f.name in problems.byInput)?.name : undefined;
  return (
    <ApplyPage title={titleOf("persons")} progress={progressOf("persons")}>
      <ErrorSummary problems={problems} labels={labelsOf(PERSON_FIELDS)} />
      {props.notice ? (
        <p class="notice" role="status">
          {props.notice}
        </p>
      ) : null}
      <p>Everyone who owns more than a quarter of the business or controls it. Funding providers check who they are.</p>
      {persons.length === 0 ? <p>No one added yet.</p> : null}
      <ul style="list-style:none;padding:0">
        {persons.map((p, i) => (
          <li class="card">
            <strong>{p.full_name}</strong>
            <br />
            Born {p.date_of_birth}
            {p.ownership_percent !== null && p.ownership_percent !== undefined ? `, owns ${p.ownership_percent}%` : ""}
            {locked ? null : (
              <form method="post" action={path("/persons/remove")}>
                <a href={`${path("/persons")}?edit=${i}#${inputId("full_name")}`} aria-label={`Change ${p.full_name}`}>
                  Change
                </a>{" "}
                <input type="hidden" name="index" value={String(i)} />
                <button type="submit" class="secondary" aria-label={`Remove ${p.full_name}`}>
                  Remove
                </button>
              </form>
            )}
          </li>
        ))}
      </ul>
      {locked ? (
        <p class="locked">{opened.introducer} filled this list in; ask them if it is wrong.</p>
      ) : (
        <form method="post" action={path("/persons")} novalidate>
          <h2>{editing === null ? "Add a person" : `Change ${persons[editing]?.full_name ?? "this person"}`}</h2>
          {editing === null ? null : <input type="hidden" name="index" value={String(editing)} />}
          {PERSON_FIELDS.map((field) => (
            <StepInput field={field} value={props.values[field.name] ?? ""} error={problems?.byInput[field.name]} focus={focus === field.name} />
          ))}
          <button type="submit" name="go" value="save" class="secondary">
            {editing === null ? "Add this person" : "Save the changes"}
          </button>
        </form>
      )}
      <p>
        <a class="button" href={stepPath("documents")}>
          Continue
        </a>{" "}
        <a href={stepPath("trading")}>Back</a>
      </p>
    </ApplyPage>
  );
}

const personIndex = (raw: string | undefined, persons: readonly unknown[]) => {
  const i = /^\d{1,3}$/.test(raw ?? "") ? Number(raw) : null;
  return i !== null && i < persons.length ? i : null;
};

async function postPerson(c: ApplyContext) {
  const opened = c.get("opened");
  const posted = textFields(await readForm(c), { trim: true });
  const editing = personIndex(posted.index, opened.lead.significantPersons);
  const again = (problems: StepProblems, status: number) => c.html(<PersonsPage opened={opened} editing={editing} values={posted} problems={problems} />, status as 400);
  const own = Object.fromEntries(PERSON_FIELDS.filter((f) => f.name in posted).map((f) => [f.name, posted[f.name]!]));
  const body = nest(jsonOfForm(own, { numbers: ["ownership_percent"] }));
  const locate = locateIn(PERSON_FIELDS.map((f) => f.name));
  let whole: SignificantPerson[];
  try {
    const person = parseForm(SignificantPersonInput, body, "body") as SignificantPerson;
    const list = [...opened.lead.significantPersons];
    if (editing === null) list.push(person);
    else list[editing] = person;
    try {
      whole = parseForm(SignificantPersonsInput, list, "body") as SignificantPerson[];
    } catch (error) {
      // The list as a whole fails only on the total ownership: the message goes beside that input.
      const refusal = refusalForPage(error);
      return again(asStepProblems(formProblems(refusal, () => "ownership_percent")), refusal.status);
    }
  } catch (error) {
    const refusal = refusalForPage(error);
    return again(asStepProblems(formProblems(refusal, locate)), refusal.status);
  }
  try {
    await saveApplicationPersons(c.get("deps"), opened, whole);
  } catch (error) {
    const refusal = refusalForPage(error);
    return again(asStepProblems(formProblems(refusal, locate)), refusal.status);
  }
  return c.redirect(`${path("/persons")}?done=${editing === null ? "added" : "changed"}`, 303);
}

async function removePerson(c: ApplyContext) {
  const opened = c.get("opened");
  const posted = textFields(await readForm(c));
  const index = personIndex(posted.index, opened.lead.significantPersons);
  if (index === null) return c.redirect(path("/persons"), 303);
  try {
    await saveApplicationPersons(c.get("deps"), opened, opened.lead.significantPersons.filter((_, i) => i !== index));
  } catch (error) {
    const refusal = refusalForPage(error);
    return c.html(<PersonsPage opened={opened} editing={null} values={{}} problems={{ byInput: {}, summary: refusal.message }} />, refusal.status);
  }
  return c.redirect(`${path("/persons")}?done=removed`, 303);
}

const PERSON_NOTICES: Record<string, string> = { added: "The person was added.", changed: "The changes were saved.", removed: "The person was removed." };

// Documents.

async function DocumentsPage(props: { c: ApplyContext; problems: StepProblems | null; notice?: string }) {
  const { c, problems } = props;
  const statements = await statementsOf(c.get("deps"), c.get("opened"));
  return (
    <ApplyPage title={titleOf("documents")} progress={progressOf("documents")}>
      <ErrorSummary problems={problems} labels={{ file: "Bank statements" }} />
      {props.notice ? (
        <p class="notice" role="status">
          {props.notice}
        </p>
      ) : null}
      <p>The last six months of the business account's statements help funding providers decide quickly. You can also skip this: they may ask for them later.</p>
      <ul style="list-style:none;padding:0">
        {statements.map((d) => (
          <li class="card">
            <bdi>{d.filename}</bdi>: {d.state === "accepted" ? "received" : `not usable (${d.reason ?? "the file could not be read"})`}
          </li>
        ))}
      </ul>
      <form method="post" action={path("/documents")} enctype="multipart/form-data">
        <label for={inputId("file")}>Bank statements</label>
        <span class="hint" id={`${inputId("file")}-hint`}>
          PDF, CSV or OFX bank export; at most 20 MB in all; files must not be empty.
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
        />
        <button type="submit" class="secondary">
          Upload
        </button>
      </form>
      <p>
        <a class="button" href={stepPath("review")}>
          Continue
        </a>{" "}
        <a href={stepPath("persons")}>Back</a>
      </p>
    </ApplyPage>
  );
}

// Review, consent, done.

function Answers(props: { opened: Opened; statements: number }) {
  const { lead } = props.opened;
  const market = marketFor(lead.country);
  const shown = (f: StepField) => {
    const v = valueAt(lead, f.name);
    if (!v) return "Not given";
    if (f.options) return f.options.find((o) => o.value === v)?.label ?? inWords(v);
    if (f.kind === "number" && f.name !== "trading.tib_months") return formatFor(lead.country).money(Number(v), market.currency);
    return v;
  };
  return (
    <>
      {(["business", "contact", "funding", "trading"] as const).map((step) => (
        <section aria-labelledby={`review-${step}`}>
          <h2 id={`review-${step}`}>{titleOf(step)}</h2>
          <dl>
            {stepFields(step, market).map((f) => (
              <>
                <dt>{f.label}</dt>
                <dd>
                  <bdi>{shown(f)}</bdi>
                </dd>
              </>
            ))}
          </dl>
          <p>
            <a href={stepPath(step)} aria-label={`Change ${titleOf(step).toLowerCase()}`}>
              Change
            </a>
          </p>
        </section>
      ))}
      <section aria-labelledby="review-persons">
        <h2 id="review-persons">{titleOf("persons")}</h2>
        <p>{lead.significantPersons.length === 0 ? "No one added." : lead.significantPersons.map((p) => p.full_name).join(", ")}</p>
        <p>
          <a href={stepPath("persons")} aria-label="Change the people">
            Change
          </a>
        </p>
      </section>
      <section aria-labelledby="review-documents">
        <h2 id="review-documents">{titleOf("documents")}</h2>
        <p>{props.statements === 0 ? "None sent." : `${props.statements} file${props.statements === 1 ? "" : "s"} sent.`}</p>
        <p>
          <a href={stepPath("documents")} aria-label="Change the bank statements">
            Change
          </a>
        </p>
      </section>
    </>
  );
}

const MISSING_STEP: Record<string, FormStep> = { business: "business", trading: "trading", funding: "funding", contact: "contact" };

function MissingList(props: { lead: Lead }) {
  const missing = missingForSubmit(props.lead, marketFor(props.lead.country));
  if (missing.length === 0) return null;
  return (
    <div class="error-summary" role="alert" aria-labelledby="missing-title" tabindex={-1}>
      <h2 id="missing-title">Some answers are still needed</h2>
      <ul>
        {missing.map((m) => {
          const step = MISSING_STEP[m.split(".")[0]!] ?? "business";
          const field = stepFields(step, marketFor(props.lead.country)).find((f) => f.name === m);
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

function ConsentPage(props: { opened: Opened; problems: StepProblems | null; soft?: boolean }) {
  const { opened, problems } = props;
  const market = marketFor(opened.lead.country);
  const text = consentTextIn(CURRENT_CONSENT_TEXT, market.locale);
  const disclosure = commissionDisclosureFor(opened.introducer);
  const agreeError = problems?.byInput.agree;
  return (
    <ApplyPage title={titleOf("consent")} progress={progressOf("consent")}>
      <ErrorSummary problems={problems} labels={{ agree: "Your agreement" }} />
      <MissingList lead={opened.lead} />
      <h2>What you agree to</h2>
      <div class="consent-text" lang={text.locale} id="consent-text">
        {text.text.split("\n\n").map((p) => (
          <p>{p}</p>
        ))}
      </div>
      <h2>How {opened.introducer} is paid</h2>
      <p id="commission-disclosure">{disclosure.text}</p>
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
            I have read the text above and how {opened.introducer} is paid, and I agree.
          </label>
        </div>
        <div class="check">
          <label for={inputId("soft_credit_search")}>
            <input type="checkbox" id={inputId("soft_credit_search")} name="soft_credit_search" value="yes" checked={props.soft || undefined} />
            I also agree to a soft credit search (optional: it is not seen by other lenders and does not change any credit score).
          </label>
        </div>
        <input type="hidden" name="text_version" value={CURRENT_CONSENT_TEXT.version} />
        <button type="submit">Agree and send my application</button>
      </form>
      <p>
        <a href={stepPath("review")}>Back to your answers</a>
      </p>
    </ApplyPage>
  );
}

function DonePage(props: { opened: Opened; notice?: string; problems?: StepProblems | null }) {
  const { opened } = props;
  const { lead, link } = opened;
  const withdrawn = Boolean(lead.consent?.withdrawn_at) && lead.consent?.obtained !== true;
  const submitted = lead.state !== "draft";
  return (
    <ApplyPage title={withdrawn ? "You withdrew your consent" : "Your application was sent"}>
      <ErrorSummary problems={props.problems ?? null} labels={{}} />
      {props.notice ? (
        <p class="notice" role="status">
          {props.notice}
        </p>
      ) : null}
      {withdrawn ? (
        <p>
          Nothing more happens with this application. {opened.introducer} was told. If you change your mind, ask {opened.introducer} for a new link.
        </p>
      ) : (
        <>
          <h2>What happens next</h2>
          <p>
            {submitted
              ? `Your application went to funding providers who may be able to help. ${opened.introducer} follows it for you.`
              : `${opened.introducer} checks your answers and sends your application to funding providers who may be able to help.`}
          </p>
          <p>
            {opened.introducer} or a funding provider will contact you by email or phone, usually within two working days. If a provider makes an offer you get a link to
            read it; nothing is agreed until you accept an offer yourself.
          </p>
          {lead.consent?.receipt ? (
            <p class="muted">
              You agreed on {formatFor(lead.country).time(lead.consent.receipt.agreed_at)} to consent text version {lead.consent.receipt.text_version}
              {lead.consent.receipt.soft_credit_search ? ", with a soft credit search" : ", without a credit search"}.
            </p>
          ) : null}
          {!submitted && lead.consent?.obtained === true ? (
            <form method="post" action={path("/withdraw")}>
              <h2>Changed your mind?</h2>
              <p>Until the application is sent to funding providers you can withdraw your consent. Nothing is then sent anywhere.</p>
              <button type="submit" class="secondary">
                Withdraw my consent
              </button>
            </form>
          ) : null}
        </>
      )}
      {link.returnUrl ? (
        <p>
          <a href={link.returnUrl}>Go back to {opened.introducer}</a>
        </p>
      ) : null}
    </ApplyPage>
  );
}

function WelcomePage(props: { opened: Opened }) {
  const { opened } = props;
  const expires = formatFor(opened.lead.country).time(opened.link.expiresAt);
  return (
    <ApplyPage title="Apply for business funding">
      <p>
        <strong>
          <bdi>{opened.introducer}</bdi> asked you to fill in your application for business funding.
        </strong>{" "}
        They will send it to funding providers who may be able to help your business.
      </p>
      <p>It takes about 10 minutes. You need the company number, a rough idea of monthly sales, and the business account's bank statements if you have them to hand.</p>
      <p>
        Each step is saved when you continue, so you can stop and come back with the same link until {expires}. At the end you read what you agree to and how{" "}
        <bdi>{opened.introducer}</bdi> is paid before anything is sent.
      </p>
      <p>
        <strong>Nothing here is a credit search</strong> unless you choose one at the end.
      </p>
      <p>
        <a class="button" href={stepPath("business")}>
          Start
        </a>
      </p>
    </ApplyPage>
  );
}

async function RegisterCheckPage(props: { c: ApplyContext }) {
  const { c } = props;
  const opened = c.get("opened");
  const answer = await registerAnswerOf(c.get("deps"), opened);
  const number = opened.lead.business?.company_number ?? "";
  const local = formatFor(opened.lead.country);
  const found = answer && answer.status === "available" ? answer : null;
  return (
    <ApplyPage title="Is this your company?" progress={progressOf("business")}>
      {found ? (
        <p class="card" id="register-answer">
          <strong>
            <bdi>{found.registered_name ?? number}</bdi>
          </strong>
          {found.company_status ? `, ${inWords(found.company_status).toLowerCase()}` : ""}
          {found.incorporated_on ? `, incorporated ${local.date(found.incorporated_on)}` : ""}
        </p>
      ) : (
        <p class="card" id="register-answer">
          We are still asking the company register about <bdi>{number}</bdi>. You can carry on; it is checked again before anything is sent.
        </p>
      )}
      <p>
        <a class="button" href={stepPath("contact")}>
          Yes, continue
        </a>{" "}
        <a href={`${stepPath("business")}#${inputId("business.company_number")}`}>No, change the number</a>
      </p>
    </ApplyPage>
  );
}

function createPages() {
  const pages = new Hono<ApplyEnv>();
  pages.get("/", (c) => c.html(<WelcomePage opened={c.get("opened")} />));
  pages.get("/business/check", async (c) => c.html(await RegisterCheckPage({ c })));
  pages.get("/persons", (c) => {
    const opened = c.get("opened");
    const editing = personIndex(c.req.query("edit"), opened.lead.significantPersons);
    const notice = PERSON_NOTICES[c.req.query("done") ?? ""];
    return c.html(<PersonsPage opened={opened} editing={editing} values={personValues(editing === null ? undefined : opened.lead.significantPersons[editing])} problems={null} notice={notice} />);
  });
  pages.post("/persons", postPerson);
  pages.post("/persons/remove", removePerson);
  pages.get("/documents", async (c) => c.html(await DocumentsPage({ c, problems: null, notice: c.req.query("done") === "uploaded" ? "Thank you: your files were received." : undefined })));
  pages.post("/documents", takesFiles(), async (c) => {
    const form = await readForm(c);
    const files = (form.getAll("file") as unknown as (File | string)[]).filter((v): v is File => typeof v !== "string" && !(v.name === "" && v.size === 0));
    try {
      await uploadApplicationStatements(
        c.get("deps"),
        c.get("opened"),
        await Promise.all(files.map(async (f) => ({ name: f.name, bytes: new Uint8Array(await f.arrayBuffer()) }))),
      );
    } catch (error) {
      const refusal = refusalForPage(error);
      return c.html(await DocumentsPage({ c, problems: asStepProblems(formProblems(refusal, () => "file")) }), refusal.status);
    }
    return c.redirect(`${path("/documents")}?done=uploaded`, 303);
  });
  pages.get("/review", async (c) => {
    const opened = c.get("opened");
    const statements = (await statementsOf(c.get("deps"), opened)).length;
    return c.html(
      <ApplyPage title={titleOf("review")} progress={progressOf("review")}>
        <MissingList lead={opened.lead} />
        <Answers opened={opened} statements={statements} />
        <p>
          <a class="button" href={stepPath("consent")}>
            Continue
          </a>{" "}
          <a href={stepPath("documents")}>Back</a>
        </p>
      </ApplyPage>,
    );
  });
  pages.get("/consent", (c) => c.html(<ConsentPage opened={c.get("opened")} problems={null} />));
  pages.post("/consent", async (c) => {
    const opened = c.get("opened");
    const posted = textFields(await readForm(c));
    const soft = posted.soft_credit_search === "yes";
    if (posted.agree !== "yes") {
      return c.html(<ConsentPage opened={opened} soft={soft} problems={{ byInput: { agree: "Tick the box to agree before you send your application." }, summary: "" }} />, 400);
    }
    try {
      await agreeAndComplete(c.get("deps"), opened, soft);
    } catch (error) {
      const refusal = refusalForPage(error);
      return c.html(<ConsentPage opened={opened} soft={soft} problems={{ byInput: {}, summary: refusal.message }} />, refusal.status);
    }
    return c.redirect(stepPath("done"), 303);
  });
  for (const step of ["business", "contact", "funding", "trading"] as const) {
    pages.get(`/${step}`, (c) => c.html(<FormStepPage opened={c.get("opened")} step={step} values={stepValues(c.get("opened").lead, step)} problems={null} />));
    pages.post(`/${step}`, (c) => postFormStep(c, step));
  }
  pages.all("*", (c) => dead(c));
  return pages;
}

function createAfterPages() {
  const after = new Hono<ApplyEnv>();
  after.get("/done", (c) => c.html(<DonePage opened={c.get("opened")} notice={c.req.query("done") === "withdrawn" ? "Your consent was withdrawn." : undefined} />));
  after.post("/withdraw", async (c) => {
    const opened = c.get("opened");
    try {
      await withdrawConsent(c.get("deps"), opened);
    } catch (error) {
      const refusal = refusalForPage(error);
      return c.html(<DonePage opened={opened} problems={{ byInput: {}, summary: refusal.message }} />, refusal.status);
    }
    return c.redirect(`${stepPath("done")}?done=withdrawn`, 303);
  });
  return after;
}

const sameOriginApplyPosts = sameOriginPosts<ApplyEnv>((c) =>
  c.html(
    <ApplyPage title="Refused">
      <p>This form must be sent from the application page itself.</p>
    </ApplyPage>,
    403,
  ),
);

/**
 * A body over its route's limit, in the link's own page: the statements step takes at most the upload limit
 * in all, a step's form the form limit; what to do, and the way back (the middleware drops whatever the
 * route answered, so this is the one 413 a business sees here).
 */
export async function applyTooLargePage(c: Context<AppEnv>, limit: { bytes: number; files: boolean }) {
  const size = sizeInWords(limit.bytes);
  const page = limit.files ? (
    <ApplyPage title="Your files are too large">
      <p role="alert">This upload takes at most {size} in all, and what you sent was larger. Nothing was uploaded.</p>
      <ul>
        <li>Make the file smaller: a scan in black and white, or a photo at a lower resolution.</li>
        <li>Send a PDF instead of photos: a scanning app makes one small PDF of several pages.</li>
        <li>Send the statements in several uploads, a few at a time.</li>
      </ul>
      <p>
        <a href={`${APPLICATION_ROUTE}/documents`}>Back to the statements</a>
      </p>
    </ApplyPage>
  ) : (
    <ApplyPage title="What you sent is too large">
      <p role="alert">This form takes at most {size}, and what you sent was larger. Nothing was saved.</p>
      <p>
        <a href={APPLICATION_ROUTE}>Back to your application</a>
      </p>
    </ApplyPage>
  );
  const res = await c.html(page, 413);
  for (const [name, value] of Object.entries(APPLY_HEADERS)) res.headers.set(name, value);
  return res;
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
  apply.use("/done", session("live_or_completed"));
  apply.use("/withdraw", session("live_or_completed"));
  apply.route("/", createAfterPages());
  apply.use("*", session("live"));
  apply.route("/", createPages());
  apply.onError(async (error, c) => {
    if (error instanceof Refusal && error.code === "rate_limited") {
      if (error.retryAfterSeconds !== undefined) c.header("Retry-After", String(error.retryAfterSeconds));
      return c.html(
        <ApplyPage title="Too many requests">
          <p>Please wait a minute and try again.</p>
        </ApplyPage>,
        429,
      );
    }
    return onError(error, c as unknown as Context<AppEnv>);
  });
  return apply;
}

export { APPLICATION_TOKEN };
