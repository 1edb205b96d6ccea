/**
 * One labelled input of a portal form, with its refusal beside it (aria-describedby, aria-invalid).
 * Numbers and phones are text inputs with a keyboard hint: what was typed reaches the API's schema as
 * typed, and is refused there with its message, instead of being dropped by the browser.
 */
import { FieldError, RequiredMark } from "../layout";
import type { DateOrder } from "../../kit/number-input";
import type { LeadFormField, PostedForm } from "./lead-form-fields";

const PART_NAMES = { D: ["day", "Day", 2], M: ["month", "Month", 2], Y: ["year", "Year", 4] } as const;

/**
 * A date as three inputs (GOV.UK's date input) in the market's order, each named `<name>.day`,
 * `.month`, `.year`; a stored `YYYY-MM-DD` is shown in its parts, and what was posted is shown back.
 */
function DateParts(props: { field: LeadFormField; order: DateOrder; values: PostedForm; error?: string; required?: boolean; focus?: boolean; described?: string }) {
  const { field, values } = props;
  const id = `f-${field.name.replace(/\./g, "-")}`;
  const stored = /^(\d{4})-(\d{2})-(\d{2})$/.exec(values[field.name] ?? "");
  const shown = { day: stored ? String(Number(stored[3])) : "", month: stored ? String(Number(stored[2])) : "", year: stored ? stored[1]! : "" };
  return (
    <fieldset class="date-input" aria-describedby={props.described}>
      <legend>
        {field.label}
        {props.required ? <RequiredMark /> : null}
      </legend>
      {[...props.order].map((letter, i) => {
        const [part, label, width] = PART_NAMES[letter as "D" | "M" | "Y"];
        const name = `${field.name}.${part}`;
        return (
          <span class="date-part">
            <label for={`${id}-${part}`}>{label}</label>
            <input
              type="text"
              inputmode="numeric"
              id={`${id}-${part}`}
              name={name}
              size={width + 1}
              maxlength={width}
              autocomplete={field.name === "date_of_birth" ? `bday-${part}` : undefined}
              value={values[name] ?? shown[part]}
              aria-invalid={props.error ? "true" : undefined}
              autofocus={(props.focus && i === 0) || undefined}
            />
          </span>
        );
      })}
    </fieldset>
  );
}

/** `focus`: this is the first refused input of the form, so the page opens with the cursor in it. `required` marks it mandatory, in words. */
export function FormInput(props: { field: LeadFormField; value?: string; error?: string; required?: boolean; focus?: boolean; dateOrder?: DateOrder; values?: PostedForm }) {
  const { field, value, error } = props;
  const id = `f-${field.name.replace(/\./g, "-")}`;
  const described = [error ? `${field.name}-error` : null, field.hint ? `${id}-hint` : null].filter(Boolean).join(" ") || undefined;
  if (field.kind === "date") {
    return (
      <div>
        <DateParts field={field} order={props.dateOrder ?? "DMY"} values={props.values ?? { [field.name]: value ?? "" }} error={error} required={props.required} focus={props.focus} described={described} />
        {field.hint ? (
          <small class="muted" id={`${id}-hint`}>
            {field.hint}
          </small>
        ) : null}
        <FieldError field={field.name} error={error ? { field: field.name, message: error } : null} />
      </div>
    );
  }
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
