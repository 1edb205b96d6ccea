/**
 * One labelled input of a portal form, with its refusal beside it (aria-describedby, aria-invalid).
 * Numbers and phones are text inputs with a keyboard hint: what was typed reaches the API's schema as
 * typed, and is refused there with its message, instead of being dropped by the browser.
 */
import { FieldError, RequiredMark } from "../layout";
import type { LeadFormField } from "./lead-form-fields";

/** `focus`: this is the first refused input of the form, so the page opens with the cursor in it. `required` marks it mandatory, in words. */
export function FormInput(props: { field: LeadFormField; value?: string; error?: string; required?: boolean; focus?: boolean }) {
  const { field, value, error } = props;
  const id = `f-${field.name.replace(/\./g, "-")}`;
  const described = [error ? `${field.name}-error` : null, field.hint ? `${id}-hint` : null].filter(Boolean).join(" ") || undefined;
  const common = { id, name: field.name, "aria-describedby": described, "aria-invalid": error ? "true" : undefined, required: props.required, autofocus: props.focus || undefined };
  const control =
    field.kind === "select" ? (
      <select {...common}>
        <option value="">—</option>
        {(field.options ?? []).map((o) => (
          <option value={o.value} selected={o.value === value}>
            {o.label}
          </option>
        ))}
      </select>
    ) : field.kind === "checkbox" ? (
      <input type="checkbox" {...common} checked={value !== undefined && value !== ""} />
    ) : (
      <input
        type={field.kind === "datetime" ? "datetime-local" : field.kind === "email" ? "email" : "text"}
        inputmode={field.kind === "number" ? "decimal" : field.kind === "tel" ? "tel" : undefined}
        {...common}
        value={value ?? ""}
      />
    );
  return (
    <div class={field.kind === "checkbox" ? "check" : undefined}>
      {field.kind === "checkbox" ? (
        <label for={id}>
          {control} {field.label}
          {props.required ? <RequiredMark /> : null}
        </label>
      ) : (
        <>
          <label for={id}>
            {field.label}
            {props.required ? <RequiredMark /> : null}
          </label>
          {control}
        </>
      )}
      {field.hint ? (
        <small class="muted" id={`${id}-hint`}>
          {field.hint}
        </small>
      ) : null}
      <FieldError field={field.name} error={error ? { field: field.name, message: error } : null} />
    </div>
  );
}
