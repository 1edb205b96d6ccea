/**
 * Prequalification as a form: the API's PrequalificationRequest schema and its
 * `prequalify` service over the cached panel, exactly as POST /prequalification.
 * Nothing is stored; the check is still written to the audit log.
 */
import type { Hono } from "hono";
import { MARKETS } from "../../../domain/reference/markets";
import { formatFor } from "../../kit/format";
import { currentPanel } from "../../../services/panel/panel-cache";
import { prequalify } from "../../../services/panel/prequalification";
import { portalForm } from "../form-action";
import { PrequalificationRequest } from "../../../api/shared/schemas/prequalification";
import { PORTAL_ROUTE, type PortalContext, type PortalEnv } from "../context";
import { firstRefused, FormToken, PortalPage } from "../layout";
import { FormInput } from "./form-input";
import { formProblems, parseForm, type FormProblems } from "../../kit/refusal";
import { bodyOfFields, leadFormFields, type LeadFormField, type PostedForm } from "./lead-form-fields";
import { textFields } from "../../kit/form";

/** The form's inputs: the lead form's own (lead-form-fields.ts), so both ask the same things in the same words; the amount has the short label. */
const FIELDS: LeadFormField[] = [
  ...leadFormFields("country", "business.industry", "funding.purpose"),
  ...leadFormFields("funding.amount").map((field) => ({ ...field, label: "Amount" })),
  ...leadFormFields(
    "funding.amount_band",
    "trading.monthly_revenue",
    "trading.monthly_revenue_band",
    "trading.annual_turnover",
    "trading.tib_months",
    "trading.time_in_business_band",
    "trading.credit_score_band",
  ),
];
/** Mandatory inputs: the market, the purpose and an amount (or its band, said in the amount's label). */
const REQUIRED = new Set(["country", "funding.purpose"]);
const NAMES = new Set(FIELDS.map((f) => f.name));
const inputOf = (field: string | null | undefined) => (field && NAMES.has(field) ? field : field ? (FIELDS.find((f) => f.name.startsWith(`${field}.`))?.name ?? null) : null);

/** The request body: the same flat-name mapping as the lead form, limited to this form's inputs. */
function bodyOf(form: PostedForm) {
  const body = bodyOfFields(FIELDS, form, "create");
  // The funding block is always on the form: an empty one is refused field by field (purpose, amount), not as a whole.
  body.funding ??= {};
  return body;
}

type Answer = ReturnType<typeof prequalify>;

function PrequalificationPage(props: { c: PortalContext; values: PostedForm; problems?: FormProblems | null; answer?: Answer | null }) {
  const { c, values, problems, answer } = props;
  const country = values.country ?? "GB";
  const f = formatFor(country);
  const currency = MARKETS.find((m) => m.country === country)?.currency ?? "GBP";
  return (
    <PortalPage title="Prequalification" viewer={c.get("viewer")} formToken={c.get("formToken")} feedback={{ error: problems?.summary ?? null }}>
      <p class="muted">An indicative answer from the panel's current limits. No lead is opened and nothing about the business is stored.</p>
      <p>
        <a href={`${PORTAL_ROUTE}/website-form`}>Put this form on your own website</a>
      </p>
      {answer ? (
        <section aria-labelledby="answer">
          <h2 id="answer">{answer.eligible ? `Eligible: ${answer.matched_options} option${answer.matched_options === 1 ? "" : "s"}` : "Not eligible"}</h2>
          {answer.indicative_amount ? (
            <p>
              Indicative amounts from {f.money(answer.indicative_amount.min, answer.indicative_amount.currency)} to {f.money(answer.indicative_amount.max, answer.indicative_amount.currency)}.
            </p>
          ) : null}
          <ul>
            {answer.product_families.map((f) => (
              <li>
                {f.label}: {f.options} option{f.options === 1 ? "" : "s"}
              </li>
            ))}
            {answer.reasons.map((r) => (
              <li>{r.detail}</li>
            ))}
          </ul>
          <p class="muted">
            Matched on: amount {f.withBasis(answer.figures.amount === null ? "unknown" : f.money(answer.figures.amount, answer.indicative_amount?.currency ?? currency), answer.figures.amount_basis)}, monthly revenue{" "}
            {f.withBasis(answer.figures.monthly_revenue === null ? "unknown" : f.money(answer.figures.monthly_revenue, answer.indicative_amount?.currency ?? currency), answer.figures.monthly_revenue_basis)}, months trading{" "}
            {f.withBasis(answer.figures.tib_months === null ? "unknown" : String(answer.figures.tib_months), answer.figures.tib_months_basis)}.
          </p>
          <p class="muted">{answer.disclaimer}</p>
          <form method="get" action={`${PORTAL_ROUTE}/leads/new`}>
            {FIELDS.filter((field) => (values[field.name] ?? "") !== "").map((field) => (
              <input type="hidden" name={field.name} value={values[field.name]} />
            ))}
            <button type="submit">Open a lead from this prequalification</button>
          </form>
        </section>
      ) : null}
      <form method="post" action={`${PORTAL_ROUTE}/prequalification`} novalidate>
        <FormToken token={c.get("formToken")} />
        {FIELDS.map((field) => (
          <FormInput field={field} value={field.name === "country" ? (values.country ?? "GB") : values[field.name]} error={problems?.byInput[field.name]} required={REQUIRED.has(field.name)} focus={field.name === firstRefused(FIELDS.map((f) => f.name), problems?.byInput)} />
        ))}
        <button type="submit">Check eligibility</button>
      </form>
    </PortalPage>
  );
}

export function registerPrequalificationPage(portal: Hono<PortalEnv>) {
  portal.get("/prequalification", (c) => c.html(<PrequalificationPage c={c} values={{}} />));

  portal.post(
    "/prequalification",
    portalForm<PostedForm>({
      // A check writes nothing but its audit entry, which portalForm writes on its own.
      audit: () => ({ action: "prequalification.checked" }),
      draftOf: (form) => textFields(form),
      showAgain: (c, refusal, form) => c.html(<PrequalificationPage c={c} values={form} problems={formProblems(refusal, inputOf)} />, refusal.status),
      act: async (c, posted) => {
        const form = textFields(posted);
        const answer = prequalify(parseForm(PrequalificationRequest, bodyOf(form), "body"), await currentPanel(c.get("deps")));
        return c.html(<PrequalificationPage c={c} values={form} answer={answer} />);
      },
    }),
  );
}
