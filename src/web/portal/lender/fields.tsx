/** Form fields of the deal page: a label, the control, and the refusal beside it (linked by aria-describedby). */
import type { Child } from "hono/jsx";
import { FieldError, RequiredMark } from "../layout";
import type { PageRefusal } from "../../kit/refusal";
import type { RefusalCode } from "../../../lib/refusal";

const DEAL_FORMS = ["offer", "status", "message", "request", "agreement", "waive", "simulate", "assign", "note"] as const;
export type DealForm = (typeof DEAL_FORMS)[number];

/**
 * The refusals a deal form shows beside its field (or at its button), with the
 * API's status; `not_found` (another lender's deal, another environment) is the
 * 404 page instead, and anything else is not a refusal.
 */
export const DEAL_FORM_REFUSALS: readonly RefusalCode[] = ["invalid_request", "invalid_transition", "agreement_signed", "too_many_open_requests", "payload_too_large", "unsupported_media_type", "offer_not_acceptable", "no_open_request", "amount_above_offer", "unknown_code"];

/** A refused form on the deal page: which form, and what was typed, put back in the form. */
export type DealRefusal = PageRefusal & { form: DealForm; draft: Record<string, string> };

export interface FormState {
  form: DealForm;
  refusal: DealRefusal | null;
}

/** The refusal when it belongs to this form. */
export const refusalFor = (state: FormState) => (state.refusal?.form === state.form ? state.refusal : null);

/** What was typed in this form before it was refused (empty otherwise). */
export const draftOf = (state: FormState, name: string) => refusalFor(state)?.draft[name] ?? "";

const described = (state: FormState, name: string) => {
  const refusal = refusalFor(state);
  return refusal?.field === name ? { "aria-describedby": `${name}-error`, "aria-invalid": "true", autofocus: true } : {};
};

export function TextField(props: { state: FormState; name: string; label: string; type?: string; required?: boolean; step?: string; min?: string; hint?: string; value?: string }) {
  const { state, name } = props;
  return (
    <>
      <label for={name}>
        {props.label}
        {props.required ? <RequiredMark /> : null}
      </label>
      {props.hint ? <span class="muted">{props.hint}</span> : null}
      {/* A number is typed as text with the decimal keypad, so `50,000` reaches the reader (thousands separators are read) instead of being blocked by the browser. */}
      <input
        type={props.type === "number" ? "text" : (props.type ?? "text")}
        inputmode={props.type === "number" ? "decimal" : undefined}
        id={name}
        name={name}
        required={props.required}
        value={draftOf(state, name) || props.value || ""}
        {...described(state, name)}
      />
      <FieldError field={name} error={refusalFor(state)} />
    </>
  );
}

export function SelectField(props: { state: FormState; name: string; label: string; options: readonly { value: string; label: string }[]; blank?: string }) {
  const { state, name } = props;
  const chosen = draftOf(state, name);
  return (
    <>
      <label for={name}>{props.label}</label>
      <select id={name} name={name} {...described(state, name)}>
        {props.blank !== undefined ? <option value="">{props.blank}</option> : null}
        {props.options.map((o) => (
          <option value={o.value} selected={chosen === o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <FieldError field={name} error={refusalFor(state)} />
    </>
  );
}

export function TextArea(props: { state: FormState; name: string; label: string; required?: boolean; maxlength?: number }) {
  const { state, name } = props;
  return (
    <>
      <label for={name}>
        {props.label}
        {props.required ? <RequiredMark /> : null}
      </label>
      <textarea id={name} name={name} rows={4} required={props.required} maxlength={props.maxlength} {...described(state, name)}>
        {draftOf(state, name)}
      </textarea>
      <FieldError field={name} error={refusalFor(state)} />
    </>
  );
}

/** A refusal about the deal rather than a field (409, 422), or about a field this form does not show: said at the form's button. */
export function FormRefusal(props: { state: FormState; fields: readonly string[] }) {
  const refusal = refusalFor(props.state);
  if (!refusal || (refusal.field !== null && props.fields.includes(refusal.field))) return null;
  return (
    <p class="field-error" id={`${props.state.form}-form-error`} role="alert">
      {refusal.message}
    </p>
  );
}

export const Section = (props: { id: string; title: string; children?: Child }) => (
  <section aria-labelledby={`${props.id}-heading`} id={props.id}>
    <h2 id={`${props.id}-heading`}>{props.title}</h2>
    {props.children}
  </section>
);
