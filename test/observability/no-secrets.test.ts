import { exports } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ADMIN_TOKEN, call } from "../helpers/api";
import { captureLogs, type LogCapture } from "../helpers/logs";
import { partnerWithKeys } from "../helpers/seed";
import { completeUkLead } from "../leads/helpers";
import { firmOffer, makeOffer } from "../lender/helpers";
import { twoLenderPanel } from "../routing/helpers";
import { consume, dispatch, receiverBucket, register, settleOutbox } from "../webhooks/support/webhooks";
import { inData } from "../helpers/data-db";

// Events other files of this worker left undispatched must not reach this file's dispatch.
beforeEach(settleOutbox);

let logs: LogCapture;
beforeEach(() => {
  logs = captureLogs();
});
afterEach(() => logs.restore());

describe("no secret and no personal data in any log line", () => {
  it("across a whole lead's life: keys, token, webhook secret, admin token, hub link; the applicant's name, e-mail and phone", async () => {
    const unique = crypto.randomUUID().slice(0, 8);
    const applicant = { first_name: `Grace${unique}`, last_name: `Hopper${unique}`, email: `grace.${unique}@example.com`, phone: "+44 20 7946 0123" };
    const business = { ...completeUkLead().business, name: `Hopper ${unique} Ltd` };

    const { keys, a } = await twoLenderPanel();
    const partner = await partnerWithKeys();
    const token = (
      await call("POST", "/partner/v1/oauth/token", { body: { grant_type: "client_credentials", client_id: partner.live.client_id, client_secret: partner.live.key } })
    ).body.access_token as string;
    const receiver = receiverBucket();
    const hook = await register("partner", partner.live.key, { url: receiver.url("ok", `?token=${unique}-receiver-token`), events: ["lead.submitted", "lead.offers_available", "lead.offer_accepted"] });

    const created = await call("POST", "/partner/v1/leads", { token, body: { ...completeUkLead(), business, contact: applicant } });
    expect(created.status).toBe(201);
    const lead = created.body;
    expect((await call("PATCH", `/partner/v1/leads/${lead.id}`, { token, body: { funding: { amount: 45_000 } } })).status).toBe(200);
    expect((await call("POST", `/partner/v1/leads/${lead.id}/submit`, { token })).status).toBe(200);
    const read = await call("GET", `/partner/v1/leads/${lead.id}`, { key: partner.live.key });
    expect(read.status).toBe(200);

    // The client hub's signed link: its token is in the path.
    const hubPath = new URL(read.body.upload_url).pathname;
    // The token is traded for a session cookie at once (303 to the page without it).
    expect((await exports.default.fetch(new Request(`http://api.test${hubPath}`, { redirect: "manual" }))).status).toBe(303);

    const { results } = await inData.prepare("select ref from deals where lead_id = ? and lender_organisation_id = ?").bind(lead.id, a.id).all<{ ref: string }>();
    const ref = results[0].ref;
    expect((await call("GET", `/v1/deals/${ref}`, { key: keys.a.live })).status).toBe(200);
    const offer = await makeOffer(keys.a.live, ref, firmOffer());
    expect((await call("POST", `/partner/v1/leads/${lead.id}/offers/${offer.id}/acceptance`, { token })).status).toBe(200);

    // Refused credentials are not logged either.
    const guessedKey = `sk_live_${unique}guessed`;
    expect((await call("GET", "/partner/v1/leads", { key: guessedKey })).status).toBe(401);
    expect((await call("GET", "/partner/v1/leads", { token: `${unique}-forged-token` })).status).toBe(401);

    const { deliveryIds } = await dispatch();
    expect(deliveryIds.length).toBeGreaterThan(0);
    await consume(deliveryIds);
    expect((await receiver.records()).length).toBeGreaterThan(0);

    const lines = logs.lines(); // throws on any line that is not one of ours
    expect(lines.filter((l) => l.event === "request").length).toBeGreaterThanOrEqual(10);
    expect(lines.filter((l) => l.event === "webhook_delivery").length).toBe(deliveryIds.length);

    const forbidden = {
      "partner sandbox key": partner.sandbox.key,
      "partner live key": partner.live.key,
      "bearer token": token,
      "webhook signing secret": hook.secret,
      "admin token": ADMIN_TOKEN,
      "service signing secret": "test-signing-secret",
      "lender key": keys.a.live,
      "hub token": hubPath.split("/").pop()!,
      "guessed key": guessedKey,
      "forged token": `${unique}-forged-token`,
      "receiver's URL token": `${unique}-receiver-token`,
      "applicant's first name": applicant.first_name,
      "applicant's last name": applicant.last_name,
      "applicant's e-mail": applicant.email,
      "applicant's phone": applicant.phone,
      "business name": business.name,
      "company number": business.company_number,
      "VAT number": business.vat.number,
    };
    const all = logs.raw.join("\n");
    const leaked = Object.entries(forbidden).filter(([, value]) => all.includes(value)).map(([name]) => name);
    expect(leaked).toEqual([]);
  });
});
