/**
 * Issue 23 item 14, the hub on a phone: every input the business types into is
 * drawn with at least 16 px text (so a phone does not zoom in on focus) and is at
 * least 44 px high (a finger's target); the sort code and account number open
 * the numeric keypad and say how browsers may fill them (`autocomplete`).
 */
import { describe, expect, it } from "vitest";
import { acceptedHubLead, hubCall, requestDocuments } from "./helpers";

/** The page's stylesheet rules, selector list → declarations. */
function rulesOf(html: string): { selectors: string[]; body: string }[] {
  const css = html.match(/<style>([\s\S]*?)<\/style>/)?.[1] ?? "";
  return [...css.matchAll(/([^{}]+)\{([^{}]*)\}/g)].map((m) => ({ selectors: m[1].split(",").map((s) => s.trim()), body: m[2] }));
}

/** The selector a control is styled by: its tag, or `input[type=…]`. */
const selectorOf = (tag: string) => {
  const name = tag.match(/^<(\w+)/)![1];
  return name === "input" ? `input[type=${tag.match(/\btype="([^"]+)"/)?.[1] ?? "text"}]` : name;
};

function expectPhoneSized(html: string, where: string) {
  const rules = rulesOf(html);
  const controls = (html.match(/<(?:input|textarea|select)\b[^>]*>/g) ?? []).filter((tag) => !/type="(?:hidden|checkbox|radio)"/.test(tag));
  expect(controls.length, where).toBeGreaterThan(0);
  for (const tag of controls) {
    const selector = selectorOf(tag);
    const own = rules.filter((r) => r.selectors.includes(selector)).map((r) => r.body).join(";");
    expect(own, `${where}: ${selector} has 16 px text`).toMatch(/font-size:max\(1rem,16px\)/);
    expect(own, `${where}: ${selector} is 44 px high`).toMatch(/min-height:2\.75rem/);
  }
  // A checkbox is tapped through its label, which is 44 px high.
  if (/type="checkbox"/.test(html)) expect(rules.some((r) => r.selectors.includes("label:has(>input[type=checkbox])") && /min-height:2\.75rem/.test(r.body)), where).toBe(true);
}

describe("the hub on a phone", () => {
  it("the completion page: 16 px, 44 px inputs; sort code and account number open the numeric keypad with autocomplete set", async () => {
    const { hub, refA, a, lead } = await acceptedHubLead();
    const request = await requestDocuments({ ref: refA, lenderOrganisationId: a.id, leadId: lead.id });
    const completion = await hubCall("GET", `${hub}/deals/${refA}/completion`);
    expect(completion.status).toBe(200);
    expectPhoneSized(completion.text, "completion");
    for (const name of ["sort_code", "account_number"]) {
      const input = completion.text.match(new RegExp(`<input[^>]*name="${name}"[^>]*>`))?.[0] ?? "";
      expect(input, name).toContain('inputmode="numeric"');
      expect(input, name).toMatch(/autocomplete="[^"]+"/);
      expect(input, name).toContain('spellcheck="false"');
    }
    expect(completion.text).toMatch(/<input[^>]*name="account_holder_name"[^>]*autocomplete="name"/);

    expectPhoneSized((await hubCall("GET", `${hub}/deals/${refA}/messages`)).text, "messages");
    expectPhoneSized((await hubCall("GET", `${hub}/requests/${request.id}`)).text, "request");
  });
});
