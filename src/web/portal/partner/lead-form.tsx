/**
 * Open, fill in and submit a lead from a form: the body is validated by the
 * API's LeadCreate / LeadPatch schemas and written by the API's openLead,
 * amendLead and submitLead, so the portal and the API cannot drift apart.
 */
import type { Hono } from "hono";
import { scopeOfViewer } from "../../../domain/portal/viewer";
import { panelMatcher } from "../../../services/leads/routing";
import { amendLead, openLead, requireLead, submitLead } from "../../../services/leads/leads";
import { recordPortalAction } from "../../../services/portal/audit";
import { LeadCreate, LeadPatch } from "../../../api/shared/schemas/lead";
import { PORTAL_ROUTE, type PortalContext, type PortalEnv } from "../context";
import { isRefusal } from "../../../lib/refusal";
import { drawnVersion, LEAD_CHANGED } from "./lead-form-fields";
import { firstRefused, FormToken, PortalPage } from "../layout";
import { notFoundPage } from "../refused-page";
import { FormInput } from "./form-input";
import { formProblems, formProblemsOfZod, isNotFound, refusalForPage, type FormProblems } from "../../kit/refusal";
import type { RefusalStatus } from "../../../lib/refusal-status";
import { formValuesOfLead, inputOfField, LEAD_FORM_FIELDS, LEAD_FORM_SECTIONS, leadBodyOf, MARKET_FIELD, type PostedForm } from "./lead-form-fields";
import { readForm, textFields } from "../../kit/form";
import { readLeadForPerson } from "../../../services/leads/presentation";
import { viewContext } from "../../../services/views/view-context";
import { CheckAnswersPage, checkPath } from "./lead-application";

/** A submit from a check page drawn before the draft changed: nothing is submitted, the answers are shown again. */
const CHECKED_CHANGED = "The lead changed after these answers were shown: nothing was submitted. Check the answers as they are now, then submit.";

/** The inputs in the order the page shows them. */
const ORDER = LEAD_FORM_FIELDS.map((f) => f.name);

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
              <FormInput field={field} value={values[field.name]} error={problems?.byInput[field.name]} focus={focus === field.name} />
            ))}
          </fieldset>
        ))}
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
const storedValues = (lead: Awaited<ReturnType<typeof requireLead>>) =>
  formValuesOfLead({
    country: lead.country,
    partner_reference: lead.partnerReference,
    channel: lead.channel,
    business: lead.business,
    contact: lead.contact,
    funding: lead.funding,
    trading: lead.trading,
    consent: lead.consent,
  });


/**
 * Submits the draft. A missing mandatory field re-renders the edit form with
 * each missing field marked (422), a company this partner already has an open
 * lead for with the message beside the company number (409); any other
 * refusal is thrown on.
 */
async function submitOrShowMissing(c: PortalContext, id: string) {
  const viewer = c.get("viewer");
  try {
    const { lead, alreadySubmitted } = await submitLead(c.get("deps"), scopeOfViewer(viewer), id, panelMatcher(c.get("deps")));
    if (!alreadySubmitted) await recordPortalAction(c.get("deps"), viewer, "lead.submitted", lead.id);
    return c.redirect(`${leadPath(lead.id)}?done=submitted`, 303);
  } catch (error) {
    const refusal = refusalForPage(error, ["missing_fields", "duplicate_lead"]);
    const lead = await requireLead(c.get("deps"), scopeOfViewer(viewer), id);
    return c.html(
      <LeadFormPage c={c} title={`Edit lead ${lead.reference}`} action={`${leadPath(id)}/edit`} values={storedValues(lead)} problems={formProblems(refusal, inputOfField)} />,
      refusal.status,
    );
  }
}

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

  portal.post("/leads/new", async (c) => {
    const viewer = c.get("viewer");
    const form = textFields(await readForm(c));
    const page = (problems: FormProblems, status: RefusalStatus) =>
      c.html(<LeadFormPage c={c} title="New lead" action={`${PORTAL_ROUTE}/leads/new`} values={form} problems={problems} />, status);
    // The body it parsed words the refusal: a text where a number belongs is named as such, not as a missing field.
    const body = leadBodyOf(form, "create");
    const parsed = LeadCreate.safeParse(body);
    if (!parsed.success) return page(formProblemsOfZod(parsed.error, body, inputOfField), 400);
    const { country, ...parts } = parsed.data;
    let id: string;
    try {
      id = (await openLead(c.get("deps"), { scope: scopeOfViewer(viewer), market: country, parts, consentChannel: "portal" })).id;
    } catch (error) {
      const refusal = refusalForPage(error);
      return page(formProblems(refusal, inputOfField), refusal.status);
    }
    await recordPortalAction(c.get("deps"), viewer, "lead.created", id);
    // Nothing is submitted from the form: "Check your answers" is the one way to submit (issue 45 item 1).
    if (form.intent === "check") return c.redirect(checkPath(id), 303);
    return c.redirect(`${leadPath(id)}?done=created`, 303);
  });

  portal.get("/leads/:id/edit", async (c) => {
    const id = c.req.param("id");
    const lead = await requireLead(c.get("deps"), scopeOfViewer(c.get("viewer")), id).catch((error) => (isNotFound(error) ? null : Promise.reject(error)));
    if (!lead) return c.html(notFoundPage(), 404);
    if (lead.state !== "draft") return c.redirect(leadPath(id), 303);
    return c.html(<LeadFormPage c={c} title={`Edit lead ${lead.reference}`} action={`${leadPath(id)}/edit`} values={storedValues(lead)} version={lead.version} />);
  });

  portal.post("/leads/:id/edit", async (c) => {
    const viewer = c.get("viewer");
    const id = c.req.param("id");
    const form = textFields(await readForm(c));
    // The page is drawn again from the version it was drawn from, so a refused save can be sent again as it is only once its problems are fixed.
    const drawn = drawnVersion(form) ?? undefined;
    const page = (problems: FormProblems, status: RefusalStatus, version = drawn) =>
      c.html(<LeadFormPage c={c} title="Edit lead" action={`${leadPath(id)}/edit`} values={form} problems={problems} version={version} />, status);
    const changed = () => page({ byInput: {}, summary: { message: LEAD_CHANGED, field: null } }, 409);
    const held = await requireLead(c.get("deps"), scopeOfViewer(viewer), id).catch((error) => (isNotFound(error) ? null : Promise.reject(error)));
    if (!held) return c.html(notFoundPage(), 404);
    // A form without the version it was drawn from cannot be told from a stale one.
    if (drawn === undefined || drawn !== held.version) return changed();
    const body = leadBodyOf(form, "edit");
    const parsed = LeadPatch.safeParse(body);
    if (!parsed.success) return page(formProblemsOfZod(parsed.error, body, inputOfField), 400);
    try {
      await amendLead(c.get("deps"), scopeOfViewer(viewer), id, parsed.data, drawn, "portal");
    } catch (error) {
      if (isNotFound(error)) return c.html(notFoundPage(), 404);
      if (isRefusal(error, "precondition_failed")) return changed();
      const refusal = refusalForPage(error);
      return page(formProblems(refusal, inputOfField), refusal.status);
    }
    await recordPortalAction(c.get("deps"), viewer, "lead.amended", id);
    if (form.intent === "check") return c.redirect(checkPath(id), 303);
    return c.redirect(`${leadPath(id)}?done=saved`, 303);
  });

  portal.get("/leads/:id/check", async (c) => {
    const id = c.req.param("id");
    const scope = scopeOfViewer(c.get("viewer"));
    const lead = await requireLead(c.get("deps"), scope, id).catch((error) => (isNotFound(error) ? null : Promise.reject(error)));
    if (!lead) return c.html(notFoundPage(), 404);
    if (lead.state !== "draft") return c.redirect(leadPath(id), 303);
    const view = await readLeadForPerson(viewContext(c.env, { deps: c.get("deps") }), scope, id);
    const feedback = c.req.query("changed") === "1" ? { error: { message: CHECKED_CHANGED, field: null } } : undefined;
    return c.html(<CheckAnswersPage c={c} lead={lead} view={view} feedback={feedback} />);
  });

  // Only the check page's form submits: it names the version whose answers were checked (issue 45 item 1).
  portal.post("/leads/:id/submit", async (c) => {
    const id = c.req.param("id");
    try {
      const checked = drawnVersion(textFields(await readForm(c)));
      const lead = await requireLead(c.get("deps"), scopeOfViewer(c.get("viewer")), id);
      if (lead.state !== "draft") return c.redirect(leadPath(id), 303);
      if (checked === null || checked !== lead.version) return c.redirect(`${checkPath(id)}?changed=1`, 303);
      return await submitOrShowMissing(c, id);
    } catch (error) {
      if (isNotFound(error)) return c.html(notFoundPage(), 404);
      throw error;
    }
  });
}
