/**
 * A form's zod refusal is worded from what was posted (the input the form parsed),
 * never from zod's English message text: a schema with its own message, a nested
 * field and a wrong choice are each named for what they are.
 */
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { Refusal } from "../../../src/lib/refusal";
import { pageRefusal, parseForm } from "../../../src/web/kit/refusal";
import { sizeInWords } from "../../../src/web/kit/format";
import { FORM_BODY_LIMIT_BYTES, UPLOAD_BODY_LIMIT_BYTES } from "../../../src/middleware/body-limit";

// A schema that words its own type errors: zod's "received …" text is not in its messages.
const Worded = z.strictObject({
  contact: z.strictObject({ email: z.string({ error: "Give the email." }), phone: z.string({ error: "Give the phone." }).optional() }),
  role: z.enum(["admin", "member"], { error: "Pick a role." }),
});

/** The refusal parseForm throws for `input`. */
function refusalOf(schema: z.ZodType, input: unknown): Refusal {
  try {
    parseForm(schema, input, "form");
  } catch (error) {
    if (error instanceof Refusal) return error;
    throw error;
  }
  throw new Error("the input was accepted");
}

const errorsOf = (refusal: Refusal) => (refusal.extra as { errors: { field: string; message: string }[] }).errors;

describe("a form refusal reads the posted input, not zod's message text", () => {
  it("a nested field of the wrong type is named as such, not as absent", () => {
    const refusal = refusalOf(Worded, { contact: { email: 42 }, role: "admin" });
    expect(refusal.code).toBe("invalid_request");
    expect(errorsOf(refusal)).toEqual([{ field: "contact.email", message: "contact.email must be a string (text); received a number." }]);
    expect(pageRefusal(refusal).problems).toEqual([{ field: "contact.email", message: "Enter the email as text.", kind: "not_text" }]);
  });

  it("an absent nested field is required, whatever the schema's own message says", () => {
    const refusal = refusalOf(Worded, { contact: {}, role: "admin" });
    expect(errorsOf(refusal)).toEqual([{ field: "contact.email", message: "contact.email is required." }]);
    expect(pageRefusal(refusal).problems).toEqual([{ field: "contact.email", message: "Email is needed.", kind: "required" }]);
  });

  it("a choice not on the list is not 'needed'; a choice left out is", () => {
    expect(pageRefusal(refusalOf(Worded, { contact: { email: "a@example.com" }, role: "owner" })).problems).toEqual([{ field: "role", message: "Choose admin or member.", kind: "not_a_choice" }]);
    expect(pageRefusal(refusalOf(Worded, { contact: { email: "a@example.com" } })).problems).toEqual([{ field: "role", message: "Choose admin or member.", kind: "required" }]);
    const Kind = z.strictObject({ type: z.enum(["secret", "publishable"]) });
    expect(pageRefusal(refusalOf(Kind, { type: "master" })).problems).toEqual([{ field: "type", message: "Choose the key type from the list.", kind: "not_a_choice" }]);
    expect(pageRefusal(refusalOf(Kind, {})).problems).toEqual([{ field: "type", message: "Key type is needed.", kind: "required" }]);
  });

  it("a rule of the schema's own about a field left out is that field's 'needed', however the rule is worded", () => {
    const Funding = z.strictObject({
      funding: z
        .strictObject({ amount: z.number().optional(), amount_band: z.string().optional() })
        .refine((f) => f.amount !== undefined || f.amount_band !== undefined, { path: ["amount"], message: "give one of the two figures" }),
    });
    expect(pageRefusal(refusalOf(Funding, { funding: {} })).problems).toEqual([{ field: "funding.amount", message: "Enter the amount, or choose an amount band.", kind: "required" }]);
    // A rule about a value that was sent keeps its own sentence, its field paths named by their labels.
    const Future = z.strictObject({ notes: z.string().refine(() => false, { message: "notes must mention funding.amount" }) });
    expect(pageRefusal(refusalOf(Future, { notes: "hello" })).problems).toEqual([{ field: "notes", message: "Notes must mention Amount.", kind: null }]);
  });

  it("answers the parsed value when the form is good", () => {
    expect(parseForm(Worded, { contact: { email: "a@example.com" }, role: "member" }, "form")).toEqual({ contact: { email: "a@example.com" }, role: "member" });
  });
});

describe("a form's size limit in the words of its refusal (issue 38)", () => {
  it("is whole MB or KB, never MiB or bytes", () => {
    expect(sizeInWords(UPLOAD_BODY_LIMIT_BYTES)).toBe("20 MB");
    expect(sizeInWords(FORM_BODY_LIMIT_BYTES)).toBe("64 KB");
    expect(sizeInWords(8 * 1024)).toBe("8 KB");
    expect(sizeInWords(100)).toBe("1 KB");
  });
});
