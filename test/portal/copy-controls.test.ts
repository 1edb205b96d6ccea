/**
 * Issue 23 item 9, copy buttons: every id a person copies (the `RF-`/`DL-` references on the lead and
 * deal pages and lists, the client's hub link, a webhook endpoint's id, a key's client id, a secret
 * shown once) is drawn by the one copy control (kit/copy.tsx): a read-only field holding the value
 * (selectable without JavaScript), a `data-copy` button naming that field (shown by the forms script
 * where the clipboard is writable) and a live region where "Copied" is announced.
 */
import { describe, expect, it } from "vitest";
import { portal, signedInMember } from "../helpers/portal";
import { lenderWithKeys, partnerWithKeys } from "../helpers/seed";
import { receiverBucket } from "../webhooks/support/webhooks";
import { lenderAtLiveDeal } from "./lender/support";
import { openAndSubmit } from "./partner/helpers";

interface CopyControl {
  id: string;
  value: string;
}

/** Every copy control on a page, each checked whole: the read-only field, its button, its live region. */
function copyControls(html: string): CopyControl[] {
  const buttons = [...html.matchAll(/<button\b[^>]*\bdata-copy="([^"]+)"[^>]*>/g)];
  return buttons.map(([button, id]) => {
    expect(button).toMatch(/\bhidden\b/);
    expect(button).toMatch(/type="button"/);
    const field = new RegExp(`<input\\b[^>]*\\bid="${id}"[^>]*>`).exec(html)?.[0];
    expect({ id, field: field ?? null }).toEqual({ id, field: expect.stringMatching(/\breadonly\b/) });
    expect(field).toMatch(/type="text"/);
    expect(field).toMatch(/class="copy-field"/);
    expect(html).toMatch(new RegExp(`<span class="copy-status" role="status" aria-live="polite" data-copy-status="${id}"></span>`));
    return { id, value: /\bvalue="([^"]*)"/.exec(field!)![1].replace(/&amp;/g, "&") };
  });
}

const values = (html: string) => copyControls(html).map((c) => c.value);

describe("the one copy control (issue 23 item 9)", () => {
  it("gives a partner's references, the hub link, endpoint ids, client ids and a secret shown once a read-only field and a Copy button", async () => {
    const { organisation } = await partnerWithKeys();
    const admin = await signedInMember(organisation.id, "admin");
    const { id, submitted } = await openAndSubmit(admin);
    expect(submitted.status).toBe(303);
    const leadPath = `/leads/${id}`;
    const lead = await portal("GET", leadPath, { session: admin });
    const reference = /<title>Lead (RF-[A-Z0-9]+)/.exec(lead.text)![1];
    const onLead = values(lead.text);
    expect(onLead).toContain(reference);
    expect(onLead.some((v) => /\/hub\//.test(v) || /^https?:\/\//.test(v))).toBe(true);
    expect(lead.text).not.toContain('<p class="secret">');

    const list = await portal("GET", "/leads", { session: admin });
    expect(values(list.text)).toContain(reference);
    expect(list.text).toContain(`href="/portal${leadPath}"`);

    const receiver = receiverBucket();
    const registered = await portal("POST", "/webhooks", { session: admin, form: { url: receiver.url("ok"), events: ["lead.funded"], payload: "full" } });
    expect(registered.status).toBe(201);
    expect(values(registered.text).some((v) => v.startsWith("whsec_"))).toBe(true);
    const endpointId = /href="\/portal\/webhooks\/(whe_[a-z0-9]+)"/.exec(registered.text)![1];
    expect(values((await portal("GET", `/webhooks/${endpointId}`, { session: admin })).text)).toContain(endpointId);

    const key = await portal("POST", "/keys", { session: admin, form: { type: "secret" } });
    expect(values(key.text).some((v) => /^rfs_ptr_sandbox_/.test(v))).toBe(true);
    const keys = await portal("GET", "/keys", { session: admin });
    expect(values(keys.text).some((v) => /^rfs_ptr_sandbox_[a-z0-9]{16}$/.test(v))).toBe(true);
  });

  it("gives a lender's deal reference a copy control on the deals list and the deal page", async () => {
    const { refA, session } = await lenderAtLiveDeal();
    const list = await portal("GET", "/deals", { session });
    expect(values(list.text)).toContain(refA);
    expect(list.text).toContain(`href="/portal/deals/${refA}"`);
    expect(values((await portal("GET", `/deals/${refA}`, { session })).text)).toContain(refA);
  });

  it("gives each test deal on the lender's sandbox page the same copy control, the business linking to the deal", async () => {
    const lender = await lenderWithKeys();
    const session = await signedInMember(lender.organisation.id, "admin");
    const refs: string[] = [];
    for (const amount of ["40000", "60000"]) {
      const made = await portal("POST", "/sandbox/deals", { session, form: { country: "GB", amount } });
      expect(made.status).toBe(303);
      refs.push(made.location!.replace("/portal/deals/", ""));
    }
    const page = await portal("GET", "/sandbox", { session });
    expect(page.status).toBe(200);
    const controls = copyControls(page.text);
    expect(controls.map((c) => c.value).sort()).toEqual([...refs].sort());
    // One control per deal, each its own field id.
    expect(new Set(controls.map((c) => c.id)).size).toBe(refs.length);
    for (const ref of refs) {
      expect(page.text).toMatch(new RegExp(`<button[^>]*data-copy="[^"]+"[^>]*aria-label="Copy the deal reference ${ref}"`));
      expect(page.text).toContain(`href="/portal/deals/${ref}#simulate"`);
    }
  });

  it("keeps one script for every copy button: the forms script copies the field's value and says Copied in the live region", async () => {
    const script = await portal("GET", "/assets/forms.js");
    expect(script.status).toBe(200);
    expect(script.text).toContain("button[data-copy]");
    expect(script.text).toContain("data-copy-status");
    expect(script.text).toContain('"Copied"');
    expect(script.text).toContain("source.value");
  });
});
