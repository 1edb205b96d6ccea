/**
 * A form's zod refusal is worded from what was posted (the input the form parsed),
 * never from zod's English message text: a schema with its own message, a nested
 * field and a wrong choice are each named for what they are.
 */
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { formRefusal, pageRefusal } from "../../../src/web/kit/refusal";

// A schema that words its own type errors: zod's "received …" text is not in its messages.
const Worded = z.strictObject({
  contact: z.strictObject({ email: z.string({ error: "Give the email." }), phone: z.string({ error: "Give the phone." }).optional() }),
  role: z.enum(["admin", "member"], { error: "Pick a role." }),
});

const errorsOf = (refusal: { extra?: unknown }) => (refusal.extra as { errors: { field: string; message: string }[] }).errors;

describe("formRefusal reads the posted input, not zod's message text", () => {
  it("a nested field of the wrong type is named as such, not as absent", () => {
    const input = { contact: { email: 42 }, role: "admin" };
    const parsed = Worded.safeParse(input);
    expect(parsed.success).toBe(false);
    const refusal = formRefusal(parsed.error!, input, "form");
    expect(errorsOf(refusal)).toEqual([{ field: "contact.email", message: "contact.email must be a string (text); received a number." }]);
    expect(pageRefusal(refusal).problems).toEqual([{ field: "contact.email", message: "Enter the email as text." }]);
  });

  it("an absent nested field is required, whatever the schema's own message says", () => {
    const input = { contact: {}, role: "admin" };
    const parsed = Worded.safeParse(input);
    const refusal = formRefusal(parsed.error!, input, "form");
    expect(errorsOf(refusal)).toEqual([{ field: "contact.email", message: "contact.email is required." }]);
    expect(pageRefusal(refusal).problems).toEqual([{ field: "contact.email", message: "Email is needed." }]);
  });

  it("a choice not on the list is not 'needed'; a choice left out is", () => {
    const wrong = { contact: { email: "a@example.com" }, role: "owner" };
    expect(pageRefusal(formRefusal(Worded.safeParse(wrong).error!, wrong, "form")).problems).toEqual([{ field: "role", message: "Choose admin or member." }]);
    const left = { contact: { email: "a@example.com" } };
    expect(pageRefusal(formRefusal(Worded.safeParse(left).error!, left, "form")).problems).toEqual([{ field: "role", message: "Choose admin or member." }]);
    const kind = z.strictObject({ type: z.enum(["secret", "publishable"]) });
    const bogus = { type: "master" };
    expect(pageRefusal(formRefusal(kind.safeParse(bogus).error!, bogus, "form")).problems).toEqual([{ field: "type", message: "Choose the key type from the list." }]);
    const none = {};
    expect(pageRefusal(formRefusal(kind.safeParse(none).error!, none, "form")).problems).toEqual([{ field: "type", message: "Key type is needed." }]);
  });
});
