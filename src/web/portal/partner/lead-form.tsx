/**
 * Open, fill in and submit a lead from a form: the body is validated by the
 * API's LeadCreate / LeadPatch schemas and written by the API's openLead,
 * amendLead and submitLead, so the portal and the API cannot drift apart.
 */
import type { Hono } from "hono";
import { scopeOfViewer } from "../../../domain/portal/viewer";
import { panelMatcher } from "../../../services/leads/routing";
import { amendLead, openLead, requireLead, submitLead } from "../../../services/leads/leads";
import { auditedAction } from "../../../services/portal/audit";
import { LeadCreate, LeadPatch } from "../../../api/shared/schemas/lead";
import { PORTAL_ROUTE, type PortalContext, type PortalEnv } from "../context";
import { isRefusal, Refusal } from "../../../lib/refusal";
import { drawnVersion, LEAD_CHANGED } from "./lead-form-fields";
import { firstRefused, FormToken, PortalPage } from "../layout";
import { portalForm } from "../form-action";
import { RefusedForm } from "../../kit/page-errors";
import { FormInput } from "./form-input";
import { formProblems, pageRefusal, parseForm, type FormProblems, type PageRefusal } from "../../kit/refusal";
import { DEFAULT_TIME_ZONE } from "../../../domain/portal/profile";
import { formValuesOfLead, INTEGRATION_SECTION, type LeadFormField, inputOfField, LEAD_FORM_FIELDS, LEAD_FORM_SECTIONS, leadBodyOf, MARKET_FIELD, type PostedForm } from "./lead-form-fields";
import { textFields, pageAbove } from "../../kit/form";
import { readLeadForPerson } from "../../../services/leads/presentation";
import { viewContext } from "../../../services/views/view-context";
import { CheckAnswersPage, checkPath } from "./lead-application";

/** A submit from a check page drawn before the draft changed: nothing is submitted, the answers are shown again. */
const CHECKED_CHANGED = "The lead changed after these answers were shown: nothing was submitted. Check the answers as they are now, then submit.";

/** The inputs in the order the page shows them. */
const ORDER = LEAD_FORM_FIELDS.map((f) => f.name);

/** The API's integration fields (the channel) are an admin's: a member neither sees nor changes them. */
const isAdmin = (c: PortalContext) => c.get("viewer").role === "admin";

/** A date and time is typed in the member's own zone: its hint names it, so no "(UTC)" label is needed. */
const inZone = (field: LeadFormField, c: PortalContext): LeadFormField =>
  field.kind === "datetime" ? { ...field, hint: `In your time zone, ${(c.get("viewer").timeZone ?? DEFAULT_TIME_ZONE).replace(/_/g, " ")} (Your settings).` } : field;

const leadPath = (id: string) => `${PORTAL_ROUTE}/leads/${encodeURIComponent(id)}`;

function LeadFormPage(props: { c: PortalContext; title: string; action: string; values: PostedForm; problems?: FormProblems | null; intro?: string; version?: number }) {
  const { c, values, problems } = props;
  const focus = firstRefused(ORDER, problems?.byInput);
  return (
    <PortalPage title={props.title} viewer={c.get("viewer")} formToken={c.get("formToken")} feedback={{ error: problems?.summary ?? null }}>
      <p class="muted">
        {props.intro ?? "Everything but the market can be filled in later; the market's mandatory fields are checked when you submit."}
      </p>
      <form method="post" action={props.action} novalidate>
        <FormToken token={c.get("formToken")} />
        {props.version !== undefined ? <input type="hidden" name="version" value={String(props.version)} /> : null}
        <FormInput field={MARKET_FIELD} value={values.country ?? "GB"} error={problems?.byInput.country} required focus={focus === "country"} />
        {LEAD_FORM_SECTIONS.map((section) => (
          <fieldset>
            <legend>{section.legend}</legend>
            {section.fields.map((field) => (
              <FormInput field={inZone(field, c)} value={values[field.name]} error={problems?.byInput[field.name]} focus={focus === field.name} />
            ))}
          </fieldset>
        ))}
        {isAdmin(c) ? (
          <fieldset>
            <legend>{INTEGRATION_SECTION.legend}</legend>
            {INTEGRATION_SECTION.fields.map((field) => (
              <FormInput field={field} value={values[field.name]} error={problems?.byInput[field.name]} focus={focus === field.name} />
            ))}
          </fieldset>
        ) : null}
        <button type="submit" name="intent" value="save">
          Save draft
        </button>{" "}
        <button type="submit" name="intent" value="check">
          Save and check your answers
        </button>
      </form>
    </PortalPage>
  );
}

/** The stored parts of a draft as the form shows them (the applicant's own words, not the resolved figures). */
const storedValues = (lead: Awaited<ReturnType<typeof requireLead>>, timeZone?: string) =>
  formValuesOfLead({
    country: lead.country,
    partner_reference: lead.partnerReference,
    channel: lead.channel,
    business: lead.business,
    contact: lead.contact,
    funding: lead.funding,
    trading: lead.trading,
    consent: lead.consent,
  }, timeZone);


/**
 * Submits the draft, audited in the submission's own batch (`lead.submitted`; a lead submitted already
 * writes nothing and is not audited again). A missing mandatory field (422) or a company this partner
 * already has an open lead for (409) is shown on the draft's edit form, each field marked, whichever
 * form was posted (the check page's submit): the refusal goes on to the
 * portal's error handler as that page.
 */
async function submitDraft(c: PortalContext, id: string): Promise<string> {
  const viewer = c.get("viewer");
  const submitted = auditedAction(c.get("deps"), viewer, "lead.submitted", id);
  const outcome = await submitLead(submitted.deps, scopeOfViewer(viewer), id, panelMatcher(submitted.deps)).catch((error: unknown) => {
    if (!isRefusal(error, "missing_fields", "duplicate_lead")) throw error;
    const refusal = pageRefusal(error);
    throw new RefusedForm(refusal, () => editPageOfDraft(c, id, refusal), `${leadPath(id)}/edit`);
  });
  if (!outcome.alreadySubmitted) await submitted.settle();
  return `${leadPath(outcome.lead.id)}?done=submitted`;
}

/** The draft's edit form as stored, with a refusal's fields marked. */
async function editPageOfDraft(c: PortalContext, id: string, refusal: PageRefusal) {
  const lead = await requireLead(c.get("deps"), scopeOfViewer(c.get("viewer")), id);
  return c.html(
    <LeadFormPage c={c} title={`Edit lead ${lead.reference}`} action={`${leadPath(id)}/edit`} values={storedValues(lead, c.get("viewer").timeZone)} problems={formProblems(refusal, inputOfField)} />,
    refusal.status,
  );
}

/** The edit form again: what was typed, from the version it was drawn from (a stale one says so, 409). */
const editAgain = (c: PortalContext, refusal: PageRefusal, form: PostedForm) => {
  const changed = refusal.code === "precondition_failed";
  const problems = changed ? { byInput: {}, summary: { message: LEAD_CHANGED, field: null } } : formProblems(refusal, inputOfField);
  return c.html(
    <LeadFormPage c={c} title="Edit lead" action={`${leadPath(c.req.param("id") ?? "")}/edit`} values={form} problems={problems} version={drawnVersion(form) ?? undefined} />,
    changed ? 409 : refusal.status,
  );
};

export function registerLeadFormPages(portal: Hono<PortalEnv>) {
  portal.get("/leads/new", (c) => {
    // "Open a lead from this prequalification": the answers arrive as query values named like the inputs.
    const carried = Object.fromEntries(ORDER.map((name) => [name, c.req.query(name)]).filter(([, v]) => typeof v === "string" && v !== "")) as PostedForm;
    const fromCheck = Object.keys(carried).length > 0;
    return c.html(
      <LeadFormPage
        c={c}
        title="New lead"
        action={`${PORTAL_ROUTE}/leads/new`}
        values={carried}
        intro={fromCheck ? "Filled in with the prequalification's answers. Add the business and the contact, then save or submit." : undefined}
      />,
    );
  });

  portal.post(
    "/leads/new",
    portalForm<PostedForm>({
      audit: () => ({ action: "lead.created" }),
      draftOf: (form) => textFields(form),
      showAgain: (c, refusal, form) =>
        c.html(<LeadFormPage c={c} title="New lead" action={`${PORTAL_ROUTE}/leads/new`} values={form} problems={formProblems(refusal, inputOfField)} />, refusal.status),
      act: async (c, posted, entry) => {
        const form = textFields(posted);
        // The body it parsed words the refusal: a text where a number belongs is named as such, not as a missing field.
        const { country, ...parts } = parseForm(LeadCreate, leadBodyOf(form, "create", isAdmin(c), c.get("viewer").timeZone), "body");
        const { id } = await openLead(c.get("deps"), { scope: scopeOfViewer(c.get("viewer")), market: country, parts, consentChannel: "portal" });
        entry.about(id);
        // Nothing is submitted from the form: "Check your answers" is the one way to submit.
        return form.intent === "check" ? checkPath(id) : `${leadPath(id)}?done=created`;
      },
    }),
  );

  portal.get("/leads/:id/edit", async (c) => {
    const id = c.req.param("id");
    // Another partner's lead or none: not_found, the portal's 404 page.
    const lead = await requireLead(c.get("deps"), scopeOfViewer(c.get("viewer")), id);
    if (lead.state !== "draft") return c.redirect(leadPath(id), 303);
    return c.html(<LeadFormPage c={c} title={`Edit lead ${lead.reference}`} action={`${leadPath(id)}/edit`} values={storedValues(lead, c.get("viewer").timeZone)} version={lead.version} />);
  });

  portal.post(
    "/leads/:id/edit",
    portalForm<PostedForm>({
      audit: (c) => ({ action: "lead.amended", target: c.req.param("id") ?? "" }),
      draftOf: (form) => textFields(form),
      // The page is drawn again from the version it was drawn from, so a refused save can be sent again as it is only once its problems are fixed.
      showAgain: editAgain,
      act: async (c, posted) => {
        const id = c.req.param("id") ?? "";
        const form = textFields(posted);
        const drawn = drawnVersion(form) ?? undefined;
        const held = await requireLead(c.get("deps"), scopeOfViewer(c.get("viewer")), id);
        // A form without the version it was drawn from cannot be told from a stale one.
        if (drawn === undefined || drawn !== held.version) throw new Refusal("precondition_failed", LEAD_CHANGED);
        const changes = parseForm(LeadPatch, leadBodyOf(form, "edit", isAdmin(c), c.get("viewer").timeZone), "body");
        await amendLead(c.get("deps"), scopeOfViewer(c.get("viewer")), id, changes, drawn, "portal");
        return form.intent === "check" ? checkPath(id) : `${leadPath(id)}?done=saved`;
      },
    }),
  );

  portal.get("/leads/:id/check", async (c) => {
    const id = c.req.param("id");
    const scope = scopeOfViewer(c.get("viewer"));
    // Another account's lead, or none: not_found, the portal's 404 page.
    const lead = await requireLead(c.get("deps"), scope, id);
    if (lead.state !== "draft") return c.redirect(leadPath(id), 303);
    const view = await readLeadForPerson(viewContext(c.env, { deps: c.get("deps") }), scope, id);
    const feedback = c.req.query("changed") === "1" ? { error: { message: CHECKED_CHANGED, field: null } } : undefined;
    return c.html(<CheckAnswersPage c={c} lead={lead} view={view} feedback={feedback} />);
  });

  // Only the check page's form submits: it names the version whose answers were checked.
  portal.post(
    "/leads/:id/submit",
    portalForm({
      // Audited by `submitDraft`, in the submission's batch.
      audit: null,
      showAgain: (c, refusal) => editPageOfDraft(c, c.req.param("id") ?? "", refusal),
      page: (c) => `${pageAbove()(c)}/edit`,
      act: async (c, form) => {
        const id = c.req.param("id") ?? "";
        const checked = drawnVersion(textFields(form));
        const lead = await requireLead(c.get("deps"), scopeOfViewer(c.get("viewer")), id);
        if (lead.state !== "draft") return leadPath(id);
        if (checked === null || checked !== lead.version) return `${checkPath(id)}?changed=1`;
        return submitDraft(c, id);
      },
    }),
  );
}
