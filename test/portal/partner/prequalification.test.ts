import { describe, expect, it } from "vitest";
import { call } from "../../helpers/api";
import { portal, signedInMember } from "../../helpers/portal";
import { partnerWithKeys } from "../../helpers/seed";
import { twoLenderPanel } from "../../routing/helpers";
import { auditOf, messageBeside } from "./helpers";

describe("partner portal: prequalification form", () => {
  it("answers as POST /prequalification does, and audits the check", async () => {
    await twoLenderPanel();
    const { organisation, sandbox } = await partnerWithKeys();
    const session = await signedInMember(organisation.id, "member");
    const form = { country: "GB", "funding.purpose": "working_capital", "funding.amount": "40000", "trading.monthly_revenue": "30000", "trading.tib_months": "36" };
    const res = await portal("POST", "/prequalification", { session, form });
    expect(res.status, res.text.match(/class="error"[^>]*>([^<]*)</)?.[1]).toBe(200);
    const api = await call("POST", "/partner/v1/prequalification", {
      key: sandbox.key,
      body: { country: "GB", funding: { purpose: "working_capital", amount: 40_000 }, trading: { monthly_revenue: 30_000, tib_months: 36 } },
    });
    expect(api.body.eligible).toBe(true);
    expect(res.text).toContain(`Eligible: ${api.body.matched_options} options`);
    expect(res.text).toContain(api.body.disclaimer.replace(/'/g, "&#39;"));
    expect((await auditOf(organisation.id)).map((a) => [a.action, a.target])).toEqual([["prequalification.checked", null]]);
  });

  it("shows a refusal beside its input with 400, the API's message, and audits nothing", async () => {
    const { organisation } = await partnerWithKeys();
    const session = await signedInMember(organisation.id, "member");
    const res = await portal("POST", "/prequalification", { session, form: { country: "Atlantis", "funding.purpose": "", "funding.amount": "" } });
    expect(res.status).toBe(400);
    expect(messageBeside(res.text, "country")).toBeTruthy();
    expect(messageBeside(res.text, "funding.purpose")).toBe("Choose what the funding is for.");
    const noAmount = await portal("POST", "/prequalification", { session, form: { country: "GB", "funding.purpose": "working_capital" } });
    expect(noAmount.status).toBe(400);
    expect(messageBeside(noAmount.text, "funding.amount")).toBe("Enter the amount, or choose an amount band.");
    expect(await auditOf(organisation.id)).toEqual([]);
    expect((await portal("GET", "/prequalification", { session })).status).toBe(200);
  });
});
