/**
 * The one form reader of the HTML doors (portal and hub): read a posted form,
 * take its text values, turn it into the JSON body an API schema validates,
 * and run one form action (act, redirect 303, or show the page again with the
 * refusal and what was typed).
 */
import type { Context } from "hono";
import { Refusal, type RefusalCode } from "../../lib/refusal";
import { isNotFound, refusalForPage, type PageRefusal } from "./refusal";
import { dateOfParts, readDate, readQuantity, type DateOrder } from "./number-input";

/** A form's text fields by name. */
export type FormFields = Record<string, string>;

/** The portal's CSRF token field: read by middleware, never part of what a form says. */
const FORM_TOKEN = "_form_token";

/** The posted form; a body that cannot be read as a form is refused (400), never a 500. */
export async function readForm(c: Context): Promise<FormData> {
  try {
    return await c.req.formData();
  } catch {
    throw new Refusal("invalid_request", "The form could not be read; send it again from the page.");
  }
}

/** One text value, or undefined when the form has none by that name (or a file). */
export const optionalTextOf = (form: FormData, name: string): string | undefined => {
  const value = form.get(name);
  return typeof value === "string" ? value : undefined;
};

/** One text value, "" when absent. */
export const textOf = (form: FormData, name: string): string => optionalTextOf(form, name) ?? "";

/** Every text value of a repeated field (checkboxes). */
export const textsOf = (form: FormData, name: string) => form.getAll(name).filter((v): v is string => typeof v === "string");

/** A textarea of one item per line (commas and spaces separate too), blanks dropped. */
export const linesOf = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((line) => line.trim())
    .filter(Boolean);

/**
 * The posted text fields as flat name → value: files and the form token left
 * out, a repeated name keeps its first value, `trim` trims each value.
 */
export function textFields(form: FormData, options: { trim?: boolean } = {}): FormFields {
  const fields: FormFields = {};
  for (const [name, value] of form.entries()) {
    if (name === FORM_TOKEN || typeof value !== "string" || name in fields) continue;
    fields[name] = options.trim ? value.trim() : value;
  }
  return fields;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** How `jsonOfForm` reads a form's fields beyond text. */
interface FormShape {
  /** Number fields, each read by what its name holds (web/kit/number-input.ts `QUANTITY_OF`: money, percent, months). */
  numbers?: readonly string[];
  /** Day fields (an `<input type="date">`) that become the end of that day in UTC. */
  days?: readonly string[];
  /** Date fields typed as day, month and year (`<name>.day`, `.month`, `.year`) or in one box, read in this order. */
  dates?: { names: readonly string[]; order: DateOrder };
  /** The currency the form's amounts are in: a sign of another currency is not read. */
  currency?: string;
}

/**
 * A date field as posted: its three parts (`<name>.day`, `.month`, `.year`) or one box read in the
 * market's order, as `YYYY-MM-DD`; what cannot be read is passed on as typed (the parts joined by
 * `/`), so the schema refuses it by the date's name. Undefined when nothing was typed.
 */
export function dateOfForm(fields: FormFields, name: string, order: DateOrder): string | undefined {
  const parts = [fields[`${name}.day`], fields[`${name}.month`], fields[`${name}.year`]].map((p) => (p ?? "").trim());
  if (parts.some((p) => p !== "")) return dateOfParts(parts[0]!, parts[1]!, parts[2]!) ?? parts.join("/");
  const box = (fields[name] ?? "").trim();
  if (box === "") return undefined;
  return readDate(box, order) ?? box;
}

/**
 * Form fields read into the JSON body an API schema validates: empty fields
 * are left out (as an API client leaves out a key), `numbers` are read by the one
 * input rule (`£50k`, `60%`, `3 years`), `days` become the end of that day in UTC and
 * `dates` are read from their three parts or one box. What cannot be read is
 * passed on as typed, so the schema refuses it by its name.
 */
export function jsonOfForm(fields: FormFields, shape: FormShape = {}): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const dates = shape.dates?.names ?? [];
  for (const [name, raw] of Object.entries(fields)) {
    const date = dates.find((d) => name === d || name.startsWith(`${d}.`));
    if (date !== undefined) {
      if (!(date in body)) {
        const value = dateOfForm(fields, date, shape.dates!.order);
        if (value !== undefined) body[date] = value;
      }
      continue;
    }
    if (raw === "") continue;
    if (shape.numbers?.includes(name)) body[name] = readQuantity(name, raw, shape.currency) ?? raw;
    else if (shape.days?.includes(name)) body[name] = DAY.test(raw) ? `${raw}T23:59:59Z` : raw;
    else body[name] = raw;
  }
  return body;
}

/**
 * An error while showing or acting on a page: not found is the area's 404
 * page, a refusal (of `codes`, when given) is the page again with it, and
 * anything else goes on to the door's onError.
 */
export async function showRefused<C extends Context>(
  c: C,
  error: unknown,
  notFound: (c: C) => Response | Promise<Response>,
  render: (refusal: PageRefusal) => Response | Promise<Response>,
  codes: readonly RefusalCode[] = [],
): Promise<Response> {
  if (isNotFound(error)) return notFound(c);
  return render(refusalForPage(error, codes));
}

/** One form of a page, for `formAction`. */
export interface FormPage<C extends Context, D> {
  /** Acts on the form and answers where to go next (a 303 redirect). */
  act: (c: C, form: FormData) => Promise<string>;
  /** The form's page again, with the refusal and the draft. */
  showAgain: (c: C, refusal: PageRefusal, draft: D) => Response | Promise<Response>;
  /** What of the form may be shown again (never a secret such as a bank number). */
  draftOf: (form: FormData) => D;
  /** The area's 404 page (another account's thing, or none). */
  notFound: (c: C) => Response | Promise<Response>;
  /** The refusal codes the page shows; by default every refusal. */
  codes?: readonly RefusalCode[];
}

/** One form: read it, keep the draft, act and redirect (303); a refusal shows the form's page again with the draft. */
export function formAction<C extends Context, D>(page: FormPage<C, D>) {
  return async (c: C): Promise<Response> => {
    let draft: D | undefined;
    try {
      const form = await readForm(c);
      draft = page.draftOf(form);
      return c.redirect(await page.act(c, form), 303);
    } catch (error) {
      return showRefused(c, error, page.notFound, (refusal) => page.showAgain(c, refusal, draft ?? ({} as D)), page.codes);
    }
  };
}
