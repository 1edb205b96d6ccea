/**
 * A refusal as a page shows it: the status to answer with (from the one table,
 * lib/refusal-status.ts) and a message beside the field at fault. The message
 * comes through one seam, `Wording`: today the refusal's own detail (the API's
 * words); the person-facing messages map (web/kit/messages.ts) plugs in by
 * passing its own `Wording`, and nothing else here changes.
 */
import type { z } from "zod";
import { Refusal, type RefusalCode } from "../../lib/refusal";
import { REFUSAL_STATUS, type RefusalStatus } from "../../lib/refusal-status";
import { fieldProblems, validationError } from "../../lib/validation";

/** One problem, as a page places it: the dotted field (null when about the whole form) and its message. */
export interface FieldProblem {
  field: string | null;
  message: string;
}

/** The seam for the person-facing message of a refusal, or of one field a refusal lists. */
export type Wording = (problem: { code: RefusalCode; field: string | null; detail: string }) => string;

/** The refusal's own words (the API's developer message). */
export const detailWording: Wording = (problem) => problem.detail;

/** A refusal, read for a page. */
export interface PageRefusal {
  code: RefusalCode;
  status: RefusalStatus;
  /** The field at fault (dotted path), or null when the refusal is about the whole form or thing. */
  field: string | null;
  message: string;
  /** Every problem the refusal lists (`errors`, `missing`), else the refusal itself. */
  problems: FieldProblem[];
}

export function pageRefusal(refusal: Refusal, word: Wording = detailWording): PageRefusal {
  const { code } = refusal;
  const extra = (refusal.extra ?? {}) as { errors?: { field: string; message: string }[]; missing?: string[] };
  const listed = [
    ...(extra.errors ?? []).map((e) => ({ field: e.field || null, detail: e.message })),
    ...(extra.missing ?? []).map((field) => ({ field, detail: `${field} is required before the lead can be submitted.` })),
  ];
  const field = refusal.field ?? null;
  const problems = (listed.length > 0 ? listed : [{ field, detail: refusal.detail }]).map((p) => ({ field: p.field, message: word({ code, ...p }) }));
  return { code, status: REFUSAL_STATUS[code].status, field, message: word({ code, field, detail: refusal.detail }), problems };
}

/**
 * The refusal for a page when `error` is one (of `codes`, when given); anything
 * else is not a refusal the page shows and is thrown on to the door's onError.
 */
export function refusalForPage(error: unknown, codes: readonly RefusalCode[] = [], word: Wording = detailWording): PageRefusal {
  if (!(error instanceof Refusal) || (codes.length > 0 && !codes.includes(error.code))) throw error;
  return pageRefusal(error, word);
}

/** Another account's thing, or none: every door shows the same 404 page. */
export const isNotFound = (error: unknown): error is Refusal => error instanceof Refusal && error.code === "not_found";

/** A posted form that fails its schema, refused as the API refuses a body: 400 `invalid_request` naming each field. */
export const formRefusal = (error: z.ZodError, target = "body"): Refusal => validationError(error, target);

/** What a form shows: one message per input (beside it) and the first problem above the form. */
export interface FormProblems {
  /** Input name → the first message about it. */
  byInput: Record<string, string>;
  /** Shown above the form: the first problem, so a screen reader hears it at once. */
  summary: { message: string; field: string | null };
}

/** Where a refusal's field (a dotted path) is shown: the input's name, or null for above the form. */
export type Locate = (field: string | null | undefined) => string | null;

function collect(problems: FieldProblem[], locate: Locate, summary: string): FormProblems {
  const byInput: Record<string, string> = {};
  for (const problem of problems) {
    const input = locate(problem.field);
    if (input && !(input in byInput)) byInput[input] = problem.message;
  }
  return { byInput, summary: { message: summary, field: null } };
}

/** A refusal's problems placed beside their inputs. */
export const formProblems = (refusal: PageRefusal, locate: Locate): FormProblems => collect(refusal.problems, locate, refusal.message);

/**
 * A zod refusal of a posted form (parsed with reportInput). An issue without
 * input is a value left out: worded as the API words a missing field ("… is
 * required."), not as the enum's whole list of options.
 */
export function formProblemsOfZod(error: z.ZodError, locate: Locate): FormProblems {
  const problems = error.issues.flatMap((issue): FieldProblem[] =>
    issue.input === undefined && issue.code !== "unrecognized_keys" && issue.code !== "custom"
      ? [{ field: issue.path.map(String).join("."), message: `${issue.path.map(String).join(".")} is required.` }]
      : fieldProblems({ issues: [issue] } as z.ZodError),
  );
  const count = problems.length;
  return collect(problems, locate, count > 1 ? `${count} fields need attention: see the messages beside them.` : (problems[0]?.message ?? "The form is invalid."));
}

/** The message beside the form input a dotted field names (`events.0`, `allowed_origins.2` → the `events`, `allowed_origins` inputs). */
export const inputFeedback = (refusal: PageRefusal) => ({ field: refusal.field?.split(".")[0] ?? null, message: refusal.message });
