/**
 * A posted form read into the JSON body the lender API's schemas validate:
 * empty fields are left out (as an API client leaves out a key), numbers are
 * read as numbers (thousands separators included, web/kit/number-input.ts), and a date field becomes the end of that day in UTC. What
 * cannot be read is passed on as typed, so the schema refuses it by its name.
 */
import { readNumber } from "../../kit/number-input";

export type FormFields = Record<string, string>;

/** The posted text fields, trimmed; files and the form token are not among them. */
export function textFields(form: FormData): FormFields {
  const fields: FormFields = {};
  for (const [name, value] of form.entries()) {
    if (typeof value === "string" && name !== "_form_token") fields[name] = value.trim();
  }
  return fields;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** `numbers` and `days` name the fields read as numbers and dates; every other non-empty field stays text. */
export function jsonOfForm(fields: FormFields, shape: { numbers?: readonly string[]; days?: readonly string[] } = {}): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [name, raw] of Object.entries(fields)) {
    if (raw === "") continue;
    if (shape.numbers?.includes(name)) body[name] = readNumber(raw) ?? raw;
    else if (shape.days?.includes(name)) body[name] = DAY.test(raw) ? `${raw}T23:59:59Z` : raw;
    else body[name] = raw;
  }
  return body;
}
