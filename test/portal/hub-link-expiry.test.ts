/**
 * Issue 23 item 10 on the partner's "New hub link" answer: the link's expiry is in the kit's one
 * time form (`formatFor(lead's market).time`, the market's zone named), the exact moment kept in
 * `<time datetime>`; never a cut ISO string ("2026-12-03 09:41 UTC").
 */
import { describe, expect, it } from "vitest";
import { formatFor } from "../../src/web/kit/format";
import { portal, signedInMember } from "../helpers/portal";
import { partnerWithKeys } from "../helpers/seed";
import { createLead } from "../leads/helpers";

const expiryOf = (html: string) => /This link works until <time datetime="([^"]+)">([^<]*)<\/time>/.exec(html);

describe("the new hub link's expiry", () => {
  it.each([["GB"], ["US"]])("is shown in the kit's time form, in a %s lead's market zone", async (country) => {
    const { organisation, sandbox } = await partnerWithKeys();
    const lead = await createLead(sandbox.key, { country });
    const session = await signedInMember(organisation.id, "admin");
    const res = await portal("POST", `/leads/${lead.id}/hub-link`, { session, form: {} });
    expect(res.status).toBe(200);
    const found = expiryOf(res.text);
    expect(found, "the expiry sentence").not.toBeNull();
    const [, iso, shown] = found!;
    expect(Date.parse(iso)).toBeGreaterThan(Date.now());
    expect(shown).toBe(formatFor(country).time(iso));
    expect(shown).not.toMatch(/\d{4}-\d{2}-\d{2}/);
  });
});
