/**
 * Issue 23 items 9 and 10: the portal shows the reference lists' labels, not their codes, and
 * times and money in the market's one form (web/kit/format.ts, the hub's rule): `£40,000`,
 * `8 Dec 2026, 06:24 GMT`.
 */
import { describe, expect, it } from "vitest";
import { formatFor, LABELS } from "../../src/web/kit/format";
import { portal, signedInMember } from "../helpers/portal";
import { partnerWithKeys } from "../helpers/seed";
import { completeUkForm } from "./partner/helpers";

describe("labels and formats", () => {
  it("formats a time with its named zone and money with its symbol, two decimals only where fractional", () => {
    const gb = formatFor("GB");
    expect(gb.time("2026-12-08T06:24:00Z")).toBe("8 Dec 2026, 06:24 GMT");
    expect(gb.money(40_000, "GBP")).toBe("£40,000");
    expect(gb.money(40_000.5, "GBP")).toBe("£40,000.50");
    expect(gb.amountBand("25k_50k", "GBP")).toBe("£25,000 – £50,000");
    expect(formatFor("UK").time(null)).toBe("—");
    expect(LABELS.purpose("stock_inventory")).toBe("Stock and inventory");
    expect(LABELS.basis("band_midpoint")).toBe("midpoint of the applicant's band");
    expect(LABELS.status("offer_accepted")).toBe("Offer accepted");
    expect(LABELS.entityType("GB", "private_limited_company")).toBe("Private limited company (Ltd)");
  });

  it("the lead page shows bands, bases and money by their labels, never the codes", async () => {
    const { organisation } = await partnerWithKeys();
    const session = await signedInMember(organisation.id, "member");
    const { "funding.amount": _, ...form } = completeUkForm();
    const created = await portal("POST", "/leads/new", { session, form: { ...form, "funding.amount_band": "25k_50k", intent: "save" } });
    expect(created.status).toBe(303);
    const page = await portal("GET", created.headers.get("location")!.replace(/^\/portal/, "").replace(/\?.*$/, ""), { session });
    expect(page.status).toBe(200);
    expect(page.text).toContain("£37,500 (midpoint of the applicant&#39;s band)");
    expect(page.text).toContain("£25,000 – £50,000");
    for (const code of ["25k_50k", "band_midpoint", "24m_60m", "GBP"]) expect(page.text).not.toContain(`>${code}`);
    expect(page.text).not.toMatch(/basis: /);
    // Times in the member's own zone, named: UTC until they choose one (issue 45 item 10).
    expect(page.text).toMatch(/\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2} UTC/);
  });
});
