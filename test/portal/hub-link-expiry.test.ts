/**
 * Issue 23 item 10 on the partner's "New hub link" answer: the link's expiry is in the kit's one
 * time form (`formatFor(lead's market, viewer's zone).time`: the market's locale, the member's own
 * zone named, UTC until they choose one: issue 45 item 10), the exact moment kept in
 * `<time datetime>`; never a cut ISO string ("2026-12-03 09:41 UTC").
 */
import { describe, expect, it } from "vitest";
import { formatFor } from "../../src/web/kit/format";
import { portal, signedInMember } from "../helpers/portal";
import { partnerWithKeys } from "../helpers/seed";
import { createLead } from "../leads/helpers";

const expiryOf = (html: string) => /This link works until <time datetime="([^"]+)">([^<]*)<\/time>/.exec(html);

describe("the new hub link's expiry", () => {
  it.each([
    ["GB", null],
    ["US", "America/New_York"],
  ])("is shown in the kit's time form for a %s lead, in the member's zone (%s; none: UTC)", async (country, zone) => {
    const { organisation, sandbox } = await partnerWithKeys();
    const lead = await createLead(sandbox.key, { country });
    const session = await signedInMember(organisation.id, "admin");
    if (zone) expect((await portal("POST", "/settings", { session, form: { display_name: "", time_zone: zone } })).status).toBe(303);
    const res = await portal("POST", `/leads/${lead.id}/hub-link`, { session, form: {} });
    expect(res.status).toBe(200);
    const found = expiryOf(res.text);
    expect(found, "the expiry sentence").not.toBeNull();
    const [, iso, shown] = found!;
    expect(Date.parse(iso)).toBeGreaterThan(Date.now());
    expect(shown).toBe(formatFor(country, zone ?? "UTC").time(iso));
    expect(shown).toMatch(zone ? / (EST|EDT)$/ : / UTC$/);
    expect(shown).not.toMatch(/\d{4}-\d{2}-\d{2}/);
  });
});
