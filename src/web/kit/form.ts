/**
 * The one form reader of the HTML doors (portal and hub): read a posted form,
 * take its text values, turn it into the JSON body an API schema validates,
 * and run one form action (act, redirect 303, or show the page again with the
 * refusal and what was typed); and its twin for a page read by its query
 * (`queryPage`: a list whose filter or cursor is refused is shown again with
 * the message).
 */
import type { Context } from "hono";
import { Refusal, type RefusalCode } from "../../lib/refusal";
import { pageRefusal, type PageRefusal } from "./refusal";
import { RefusedForm } from "./page-errors";
import { isConfirmed } from "./confirm";
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

/** Where a post goes next: the address to redirect to (303, with a notice), or a page answered at once (a secret shown once). */
export type FormNext = string | Response;

/** One form of a page, for `formAction`. */
export interface FormPage<C extends Context, D> {
  /** Acts on the form (validated with `parseForm`, the one way) and answers where to go next. */
  act: (c: C, form: FormData) => Promise<FormNext>;
  /** The form's page again, with the refusal and the draft, answered with the refusal's status. */
  showAgain: (c: C, refusal: PageRefusal, draft: D) => Response | Promise<Response>;
  /** What of the form may be shown again (never a secret such as a bank number); none by default. */
  draftOf?: (form: FormData) => D;
  /** The refusal codes the form's page shows; by default every refusal but `not_found`. */
  codes?: readonly RefusalCode[];
  /**
   * An action that cannot be undone: without the confirm page's field (web/kit/confirm.tsx) nothing is
   * done and the person is sent to the address this answers; null when what was posted needs no
   * confirmation (a status form whose only some choices cannot be undone).
   */
  confirm?: (c: C, form: FormData) => string | null;
  /**
   * The path of the page the form is on, where a refused post is redirected and shown again
   * (post/redirect/get, web/kit/refused-posts.ts); by default the path posted to, for a form whose page
   * has its own address. A path this answers must have a GET that draws the form afresh.
   */
  page?: (c: C) => string;
}

/**
 * `FormPage.page` for a form whose page is `levels` path segments above the path it posts to
 * (`/portal/deals/RF-1/notes` is on `/portal/deals/RF-1`).
 */
export const pageAbove =
  (levels = 1) =>
  (c: Context): string =>
    c.req.path.split("/").slice(0, -levels).join("/");

/**
 * The one shape of a form post, for every portal and hub POST: read the form once, keep the draft,
 * act, then redirect (303) or answer the page the action made. A refusal is thrown on as a
 * `RefusedForm` (web/kit/page-errors.ts), which the area's error handler answers with the form's
 * page again (after a 303 to that page, where the area keeps refused posts: web/kit/refused-posts.ts); `not_found` and anything that is not a refusal the page shows go on to the same handler
 * (the area's 404 page, or its error page), so no handler catches by hand.
 */
export function formAction<C extends Context, D = Record<string, never>>(page: FormPage<C, D>) {
  return async (c: C): Promise<Response> => {
    const form = await readForm(c);
    if (page.confirm && !isConfirmed(textFields(form))) {
      const question = page.confirm(c, form);
      if (question !== null) return c.redirect(question, 303);
    }
    const draft = page.draftOf ? page.draftOf(form) : ({} as D);
    const next = await showingRefusals(() => page.act(c, form), (refusal) => page.showAgain(c, refusal, draft), page.codes, () => page.page?.(c) ?? c.req.path);
    return typeof next === "string" ? c.redirect(next, 303) : next;
  };
}

/**
 * The one place a refusal becomes its page: a refusal of one of `codes` (every one but `not_found`
 * when none are named) is thrown on as a `RefusedForm` carrying the page that shows it, which the
 * area's error handler answers; anything else goes on to that handler as it is.
 */
async function showingRefusals<T>(
  run: () => Promise<T>,
  show: (refusal: PageRefusal) => Response | Promise<Response>,
  codes?: readonly RefusalCode[],
  page?: () => string,
): Promise<T> {
  try {
    return await run();
  } catch (error) {
    const shown = error instanceof Refusal && error.code !== "not_found" && (!codes || codes.includes(error.code));
    if (!shown) throw error;
    const refusal = pageRefusal(error);
    throw new RefusedForm(refusal, () => show(refusal), page?.());
  }
}

/** A page drawn from what its address asks (a list's filters and cursor), for `queryPage`. */
interface QueryPage<C extends Context> {
  /** Reads what was asked and draws the page; what was asked is parsed with `parseForm` and a refusal of it thrown, as a service throws one. */
  read: (c: C) => Promise<Response>;
  /** The page again with the refusal beside what was asked (an empty list, the filters as typed), answered with the refusal's status. */
  showAgain: (c: C, refusal: PageRefusal) => Response | Promise<Response>;
  /** The refusal codes the page shows; by default `invalid_request` (a filter or a cursor the page did not issue). */
  codes?: readonly RefusalCode[];
}

/**
 * The one shape of a page read by its query, as `formAction` is of a post: read and draw; a refused
 * query is the same page with the message beside the field (through the area's error handler, so no
 * handler catches by hand), another account's thing the area's 404 page.
 */
export function queryPage<C extends Context>(page: QueryPage<C>) {
  return (c: C): Promise<Response> => showingRefusals(() => page.read(c), (refusal) => page.showAgain(c, refusal), page.codes ?? ["invalid_request"]);
}
