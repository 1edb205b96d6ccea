/**
 * A draft lead's significant persons, one at a time: add, edit, remove. Each
 * change validates the whole list with the API's SignificantPersonsPut (each
 * person's fields, and the ownership total of at most 100%), then
 * writes the list with the API's own replaceSignificantPersons (PUT
 * /leads/{id}/significant-persons), so the portal and the API cannot drift.
 * A person is named by a key made from what they hold (`personKeys`), never by their place in the
 * list, and every form carries the lead's version it was drawn from: a save from a page drawn before
 * another change (another tab, the API) is refused with the form again and nothing written, never
 * applied over that change. A submitted lead's list is shown without forms.
 */
import type { Hono } from "hono";
import { scopeOfViewer } from "../../../domain/portal/viewer";
import type { Lead, SignificantPerson } from "../../../domain/leads/types";
import { personKeys } from "../../../domain/leads/persons";
import { replaceSignificantPersons, requireLead } from "../../../services/leads/leads";
import { SignificantPersonsPut } from "../../../api/shared/schemas/lead";
import { formProblems, parseForm, type FormProblems } from "../../kit/refusal";
import { RecordTable } from "../../kit/table";
import { textFields, pageAbove } from "../../kit/form";
import { formatFor } from "../../kit/format";
import { portalForm } from "../form-action";
import { PORTAL_ROUTE, type PortalContext, type PortalEnv } from "../context";
import { firstRefused, FormToken, PortalPage, type PageFeedback } from "../layout";
import { FormInput } from "./form-input";
import { bodyOfFields, dateHint, drawnVersion, LEAD_CHANGED, readingOf, type LeadFormField, type PostedForm } from "./lead-form-fields";
import { Refusal } from "../../../lib/refusal";

/** The person's inputs, named by their JSON paths inside one person (as the API's messages name them). */
const PERSON_FIELDS: LeadFormField[] = [
  { name: "full_name", label: "Full name", kind: "text" },
  // Three fields in the lead's market's order, or one box read in that order (web/kit/number-input.ts); the hint is the market's.
  { name: "date_of_birth", label: "Date of birth", kind: "date" },
  { name: "residential_address.line1", label: "Address line 1", kind: "text" },
  { name: "residential_address.line2", label: "Address line 2", kind: "text" },
  { name: "residential_address.city", label: "Town or city", kind: "text" },
  { name: "residential_address.region", label: "Region", kind: "text" },
  { name: "residential_address.postal_code", label: "Postcode", kind: "text" },
  { name: "residential_address.country", label: "Country", kind: "text" },
  { name: "residency_status", label: "Residency status", kind: "text", hint: "For example homeowner or tenant." },
  { name: "ownership_percent", label: "Ownership (%)", kind: "number", hint: "For example 25 or 25%. All persons together can own at most 100%." },
  // The API's `guarantee`: some panel products require one (domain/panel/requirements.ts), and an accountant
  // who never writes code must be able to say it; a person saved here without it ticked does not offer one.
  { name: "guarantee", label: "Offers a personal guarantee for the funding", kind: "checkbox", hint: "Some funding options need one." },
];
const REQUIRED = new Set(["full_name", "date_of_birth", "residential_address.line1", "residential_address.postal_code"]);
const NAMES = PERSON_FIELDS.map((f) => f.name);

/**
 * Where a problem is shown: a person's field (`significant_persons.2.full_name` → `full_name`); the
 * list's own rule (the ownership total, about `significant_persons` as a whole) beside the ownership input.
 */
const inputOf = (field: string | null | undefined): string | null => {
  if (!field || field === "significant_persons") return "ownership_percent";
  const path = field.replace(/^(significant_persons\.)?\d+\./, "");
  return NAMES.includes(path) ? path : (NAMES.find((n) => n.startsWith(`${path}.`)) ?? null);
};

const personsPath = (id: string) => `${PORTAL_ROUTE}/leads/${encodeURIComponent(id)}/persons`;

const DONE: Record<string, string> = {
  added: "The person was added.",
  saved: "The person's details were saved.",
  removed: "The person was removed.",
};

const totalOwnership = (persons: readonly SignificantPerson[]) => persons.reduce((sum, p) => sum + (p.ownership_percent ?? 0), 0);

/** A stored person as the form shows them. */
function valuesOf(person: SignificantPerson): PostedForm {
  const a = person.residential_address;
  const text = (v: unknown) => (v === null || v === undefined ? "" : String(v));
  return {
    full_name: person.full_name,
    date_of_birth: person.date_of_birth,
    "residential_address.line1": text(a.line1),
    "residential_address.line2": text(a.line2),
    "residential_address.city": text(a.city),
    "residential_address.region": text(a.region),
    "residential_address.postal_code": text(a.postal_code),
    "residential_address.country": text(a.country),
    residency_status: text(person.residency_status),
    ownership_percent: text(person.ownership_percent),
    guarantee: person.guarantee === true ? "on" : "",
  };
}

interface PersonsPageProps {
  c: PortalContext;
  lead: Lead;
  /** The person being edited (their place in the list), or null for the add form. */
  editing?: number | null;
  values?: PostedForm;
  problems?: FormProblems | null;
  feedback?: PageFeedback;
}

/** The lead's version a form was drawn from, as every form of this page carries it. */
const VersionInput = (props: { lead: Lead }) => <input type="hidden" name="version" value={String(props.lead.version)} />;

function PersonForm(props: { c: PortalContext; lead: Lead; action: string; values: PostedForm; problems?: FormProblems | null; submit: string }) {
  const { problems } = props;
  const focus = firstRefused(NAMES, problems?.byInput);
  const { dateOrder } = readingOf(props.lead.country);
  return (
    <form method="post" action={props.action} novalidate>
      <FormToken token={props.c.get("formToken")} />
      <VersionInput lead={props.lead} />
      {PERSON_FIELDS.map((field) => (
        <FormInput
          field={field.kind === "date" ? { ...field, hint: dateHint(dateOrder) } : field}
          value={props.values[field.name]}
          values={props.values}
          dateOrder={dateOrder}
          error={problems?.byInput[field.name]}
          required={REQUIRED.has(field.name)}
          focus={focus === field.name}
        />
      ))}
      <button type="submit">{props.submit}</button>
    </form>
  );
}

function PersonsPage({ c, lead, editing = null, values, problems, feedback }: PersonsPageProps) {
  const persons = lead.significantPersons;
  const draft = lead.state === "draft";
  const total = totalOwnership(persons);
  const base = personsPath(lead.id);
  const keys = personKeys(persons);
  return (
    <PortalPage
      title={`Significant persons of ${lead.reference}`}
      viewer={c.get("viewer")}
      formToken={c.get("formToken")}
      feedback={problems ? { error: problems.summary } : feedback}
    >
      <p>
        <a href={`${PORTAL_ROUTE}/leads/${encodeURIComponent(lead.id)}`}>Back to the lead</a>
      </p>
      <p class="muted">
        The people who own or control the business (directors and owners of 25% or more). {draft ? "They can be changed until the lead is submitted." : "The lead is submitted: this list can no longer change."}
      </p>
      {persons.length === 0 ? (
        <p>No significant persons yet.</p>
      ) : (
        <>
          <p id="ownership-total">
            Ownership recorded: <strong>{`${Number(total.toFixed(4))}%`}</strong> of 100%.
          </p>
          <RecordTable
            label="Significant persons"
            rows={persons.map((person, index) => ({ person, key: keys[index]! }))}
            columns={[
              { header: "Name", rowHeader: true, cell: ({ person }) => <bdi>{person.full_name}</bdi> },
              { header: "Date of birth", cell: ({ person }) => formatFor(lead.country).date(person.date_of_birth) },
              { header: "Postcode", cell: ({ person }) => person.residential_address.postal_code },
              { header: "Ownership", cell: ({ person }) => (person.ownership_percent === null || person.ownership_percent === undefined ? "—" : `${person.ownership_percent}%`) },
              { header: "Guarantee", cell: ({ person }) => (person.guarantee === true ? "Offered" : person.guarantee === false ? "Not offered" : "—") },
              ...(draft
                ? [
                    {
                      header: "Change",
                      actions: true,
                      cell: ({ person, key }: { person: SignificantPerson; key: string }) => (
                        <>
                          <a href={`${base}/${key}/edit`}>
                            Edit <bdi>{person.full_name}</bdi>
                          </a>{" "}
                          <form method="post" action={`${base}/${key}/remove`} class="inline">
                            <FormToken token={c.get("formToken")} />
                            <VersionInput lead={lead} />
                            <button type="submit">
                              Remove <bdi>{person.full_name}</bdi>
                            </button>
                          </form>
                        </>
                      ),
                    },
                  ]
                : []),
            ]}
          />
        </>
      )}
      {draft ? (
        editing !== null ? (
          <section aria-labelledby="edit-person">
            <h2 id="edit-person">
              Edit <bdi>{persons[editing]?.full_name ?? "person"}</bdi>
            </h2>
            <PersonForm c={c} lead={lead} action={`${base}/${keys[editing]}`} values={values ?? valuesOf(persons[editing])} problems={problems} submit="Save person" />
          </section>
        ) : (
          <section aria-labelledby="add-person">
            <h2 id="add-person">Add a person</h2>
            <PersonForm c={c} lead={lead} action={base} values={values ?? {}} problems={problems} submit="Add person" />
          </section>
        )
      ) : null}
    </PortalPage>
  );
}

/** The viewer's lead; another partner's or none is not_found, the portal's 404 page. */
const leadOf = (c: PortalContext, id: string) => requireLead(c.get("deps"), scopeOfViewer(c.get("viewer")), id);

const leadIdOf = (c: PortalContext) => c.req.param("id") ?? "";

/** The place of the person a key in the URL names, else null. */
const placeOf = (lead: Lead, key: string) => {
  const place = personKeys(lead.significantPersons).indexOf(key);
  return place === -1 ? null : place;
};

/**
 * The list after one change, checked as the API checks a PUT (each person's
 * fields, ownership at most 100% in all). Answers the list, or the problems to show.
 */
function changedList(lead: Lead, form: PostedForm, place: number | null): SignificantPerson[] {
  const person = bodyOfFields(PERSON_FIELDS, form, "create", readingOf(lead.country));
  const persons: unknown[] = [...lead.significantPersons];
  if (place === null) persons.push(person);
  else persons[place] = person;
  // Issues come back as `significant_persons.<n>.<field>`, the total as `significant_persons`: the map words both.
  return parseForm(SignificantPersonsPut, { significant_persons: persons }, "body").significant_persons as SignificantPerson[];
}

/** The page drawn from another version than the lead's now (a change in another tab): 409, nothing written. */
const leadChanged = () => new Refusal("precondition_failed", LEAD_CHANGED);

export function registerPersonsPages(portal: Hono<PortalEnv>) {
  portal.get("/leads/:id/persons", async (c) => {
    const lead = await leadOf(c, c.req.param("id"));
    return c.html(<PersonsPage c={c} lead={lead} feedback={{ notice: DONE[c.req.query("done") ?? ""] ?? null }} />);
  });

  portal.get("/leads/:id/persons/:person/edit", async (c) => {
    const lead = await leadOf(c, c.req.param("id"));
    const place = placeOf(lead, c.req.param("person"));
    if (place === null) throw new Refusal("not_found", "No such person.");
    if (lead.state !== "draft") return c.redirect(personsPath(lead.id), 303);
    return c.html(<PersonsPage c={c} lead={lead} editing={place} />);
  });

  /**
   * Add (no place) or save (a place), the portal's one form shape: validate, write the whole list with
   * the API's service, audited in its batch, redirect; a refusal is the page again with what was typed.
   */
  const change = (withPlace: boolean) =>
    portalForm<PostedForm>({
      audit: (c) => ({ action: withPlace ? "lead.person_changed" : "lead.person_added", target: leadIdOf(c) }),
      draftOf: (form) => textFields(form, { trim: true }),
      // A person's edit form is on its own page; the add form on the persons page it posts to.
      page: (c) => (withPlace ? `${c.req.path}/edit` : c.req.path),
      showAgain: async (c, refusal, form) => {
        const lead = await leadOf(c, leadIdOf(c));
        const place = withPlace ? placeOf(lead, c.req.param("person") ?? "") : null;
        const changed = refusal.code === "precondition_failed";
        const problems = changed ? { byInput: {}, summary: { message: LEAD_CHANGED, field: null } } : formProblems(refusal, inputOf);
        return c.html(<PersonsPage c={c} lead={lead} editing={place} values={form} problems={problems} />, changed ? 409 : refusal.status);
      },
      act: async (c, posted) => {
        const lead = await leadOf(c, leadIdOf(c));
        const form = textFields(posted, { trim: true });
        const drawn = drawnVersion(form);
        const place = withPlace ? placeOf(lead, c.req.param("person") ?? "") : null;
        // A person gone since the page was drawn is the page's staleness, not an unknown link.
        const stale = drawn !== lead.version && (drawn !== null || place !== null || !withPlace);
        if (withPlace && place === null && !stale) throw new Refusal("not_found", "No such person.");
        if (stale) throw leadChanged();
        await replaceSignificantPersons(c.get("deps"), scopeOfViewer(c.get("viewer")), lead.id, changedList(lead, form, place), lead.version);
        return `${personsPath(lead.id)}?done=${withPlace ? "saved" : "added"}`;
      },
    });
  portal.post("/leads/:id/persons", change(false));
  portal.post("/leads/:id/persons/:person", change(true));

  portal.post(
    "/leads/:id/persons/:person/remove",
    portalForm({
      audit: (c) => ({ action: "lead.person_removed", target: leadIdOf(c) }),
      page: pageAbove(2),
      showAgain: async (c, refusal) => {
        const lead = await leadOf(c, leadIdOf(c));
        const changed = refusal.code === "precondition_failed";
        return c.html(<PersonsPage c={c} lead={lead} feedback={{ error: { message: changed ? LEAD_CHANGED : refusal.message, field: null } }} />, changed ? 409 : refusal.status);
      },
      act: async (c, posted) => {
        const lead = await leadOf(c, leadIdOf(c));
        const drawn = drawnVersion(textFields(posted));
        const place = placeOf(lead, c.req.param("person") ?? "");
        if (place === null) throw drawn !== null && drawn !== lead.version ? leadChanged() : new Refusal("not_found", "No such person.");
        if (drawn !== lead.version) throw leadChanged();
        await replaceSignificantPersons(c.get("deps"), scopeOfViewer(c.get("viewer")), lead.id, lead.significantPersons.filter((_, i) => i !== place), lead.version);
        return `${personsPath(lead.id)}?done=removed`;
      },
    }),
  );
}
