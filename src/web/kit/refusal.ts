/**
 * A refusal as a page shows it: the status to answer with (from the one table,
 * lib/refusal-status.ts) and a message beside the field at fault. The message
 * comes through one seam, `Wording`, whose default is the person-facing messages
 * map (web/kit/messages.ts): the API keeps its developer words, a page never
 * shows a dotted field path or a zod default message.
 */
import type { z } from "zod";
import { Refusal, type RefusalCode } from "../../lib/refusal";
import { REFUSAL_STATUS, type RefusalStatus } from "../../lib/refusal-status";
import { validationError } from "../../lib/validation";
import { messagesOf, type MessageKind } from "./messages";

/** One problem, as a page places it: the dotted field (null when about the whole form) and its message. */
interface FieldProblem {
  field: string | null;
  message: string;
  /** The messages map's kind of problem, where it has one (a page in another language words it by this, web/apply/refusals.ts). */
  kind?: MessageKind | null;
  limit?: string;
}

/** The seam for the person-facing message of a refusal, or of one field a refusal lists. */
type Wording = (problem: { code: RefusalCode; field: string | null; detail: string }) => string;

/** The person's words, from the one messages map; what the map does not know keeps its detail with every field path named by its label. */
const personWording: Wording = (problem) => messagesOf({ code: problem.code, detail: problem.detail, field: problem.field })[0]?.message ?? problem.detail;

/** What a form's schema refused, with the input it parsed: the cause of a form refusal (see `formRefusal`). */
class FormInvalid {
  constructor(
    readonly error: z.ZodError,
    readonly input: unknown,
  ) {}
}

/** The schema's refusal a form refusal was made from, so the page words each issue by its own code and what was sent. */
const formCauseOf = (refusal: Refusal): FormInvalid | null => {
  const cause = (refusal as { cause?: unknown }).cause;
  return cause instanceof FormInvalid ? cause : null;
};

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

/** The line above a form: the one problem, or how many fields need attention. */
const summaryOf = (problems: readonly FieldProblem[], otherwise: string) =>
  problems.length > 1 ? `${problems.length} fields need attention: see the messages beside them.` : (problems[0]?.message ?? otherwise);

export function pageRefusal(refusal: Refusal, word: Wording = personWording): PageRefusal {
  const { code } = refusal;
  const invalid = word === personWording ? formCauseOf(refusal) : null;
  if (invalid) {
    const problems = messagesOf(invalid.error, invalid.input).map((m) => ({ field: m.field, message: m.message, kind: m.kind, limit: m.limit }));
    return { code, status: REFUSAL_STATUS[code].status, field: problems[0]?.field ?? refusal.field ?? null, message: problems[0]?.message ?? word({ code, field: null, detail: refusal.detail }), problems };
  }
  const extra = (refusal.extra ?? {}) as { errors?: { field: string; message: string }[]; missing?: string[] };
  if (word === personWording && (extra.missing?.length || extra.errors?.length)) {
    // The map words the lists itself ("Company number is needed before you can submit").
    const problems = messagesOf({ code, detail: refusal.detail, field: refusal.field ?? null, missing: extra.missing, errors: extra.errors }).map((m) => ({ field: m.field, message: m.message, kind: m.kind, limit: m.limit }));
    return { code, status: REFUSAL_STATUS[code].status, field: refusal.field ?? null, message: summaryOf(problems, refusal.detail), problems };
  }
  const listed = [
    ...(extra.errors ?? []).map((e) => ({ field: e.field || null, detail: e.message })),
    ...(extra.missing ?? []).map((field) => ({ field, detail: `${field} is required before the lead can be submitted.` })),
  ];
  const field = refusal.field ?? null;
  const problems = (listed.length > 0 ? listed : [{ field, detail: refusal.detail }]).map((p) => ({ field: p.field, message: word({ code, ...p }) }));
  return { code, status: REFUSAL_STATUS[code].status, field, message: word({ code, field, detail: refusal.detail }), problems };
}

/** Another account's thing, or none: every door shows the same 404 page. */
export const isNotFound = (error: unknown): error is Refusal => error instanceof Refusal && error.code === "not_found";

/**
 * A posted form that fails its schema, refused as the API refuses a body: 400 `invalid_request` naming
 * each field. `input` is what the form parsed; with the zod error it rides along as the refusal's cause,
 * so the page words each issue by its code and by what was sent (a choice not on the list is not "needed").
 */
const formRefusal = (error: z.ZodError, input: unknown, target: string): Refusal => {
  const refusal = validationError(error, target, input);
  (refusal as { cause?: unknown }).cause = new FormInvalid(error, input);
  return refusal;
};

/**
 * A posted form's body through the API's own schema, as its route validates it: the parsed value, or
 * the form refusal above (thrown), worded from what was sent. `target` names the body in the API's words.
 */
export function parseForm<T extends z.ZodType>(schema: T, input: unknown, target: string): z.infer<T> {
  const result = schema.safeParse(input);
  if (!result.success) throw formRefusal(result.error, input, target);
  return result.data;
}

/** What a form shows: one message per input (beside it) and the first problem above the form. */
export interface FormProblems {
  /** Input name → the first message about it. */
  byInput: Record<string, string>;
  /** Shown above the form: the first problem, so a screen reader hears it at once, and every problem by its input, for the summary's links. */
  summary: { message: string; field: string | null; problems?: { field: string; message: string }[] };
}

/** Where a refusal's field (a dotted path) is shown: the input's name, or null for above the form. */
type Locate = (field: string | null | undefined) => string | null;

function collect(problems: FieldProblem[], locate: Locate, summary: string): FormProblems {
  const byInput: Record<string, string> = {};
  for (const problem of problems) {
    const input = locate(problem.field);
    if (input && !(input in byInput)) byInput[input] = problem.message;
  }
  return { byInput, summary: { message: summary, field: null, problems: Object.entries(byInput).map(([field, message]) => ({ field, message })) } };
}

/** A refusal's problems placed beside their inputs. */
export const formProblems = (refusal: PageRefusal, locate: Locate): FormProblems => collect(refusal.problems, locate, summaryOf(refusal.problems, refusal.message));

/** The message beside the form input a dotted field names (`events.0`, `allowed_origins.2` → the `events`, `allowed_origins` inputs). */
export const inputFeedback = (refusal: PageRefusal) => ({
  field: refusal.field?.split(".")[0] ?? null,
  message: refusal.message,
  // Every problem, each beside its own input: `allowed_origins.2` is the `allowed_origins` input's.
  problems: refusal.problems.map((p) => ({ field: p.field?.split(".")[0] ?? null, message: p.message })),
});
