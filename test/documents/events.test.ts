import { beforeEach, describe, expect, it } from "vitest";
import { call } from "../helpers/api";
import { partnerWithKeys } from "../helpers/seed";
import { createLead } from "../leads/helpers";
import { eventsFor } from "../routing/helpers";
import { consume, dispatch, receiverBucket, register, settleOutbox } from "../webhooks/support/webhooks";
import { bytes, ofxV2Card, png } from "./fixtures";
import { uploadDocument } from "./helpers";

// Events other files of this worker left undispatched must not reach this file's dispatch.
beforeEach(settleOutbox);

describe("document events", () => {
  it("writes one document.accepted or document.rejected per upload, with the lead reference and the document", async () => {
    const { organisation, live } = await partnerWithKeys();
    const lead = await createLead(live.key);
    const accepted = await uploadDocument(live.key, lead.id, "bank_statements", bytes(ofxV2Card), "card.ofx");
    const rejected = await uploadDocument(live.key, lead.id, "bank_statements", png(), "screenshot.png");

    const written = (await eventsFor(lead.id)).filter((e) => e.event.startsWith("document."));
    expect(written).toEqual([
      { organisation_id: organisation.id, api: "partner", event: "document.accepted", subject_type: "lead", subject_id: lead.id, detail: { reference: lead.reference, document: accepted } },
      { organisation_id: organisation.id, api: "partner", event: "document.rejected", subject_type: "lead", subject_id: lead.id, detail: { reference: lead.reference, document: rejected } },
    ]);

    const list = await call("GET", `/partner/v1/events?subject=${lead.id}`, { key: live.key });
    expect(list.status).toBe(200);
    const byName = (name: string) => list.body.events.find((e: { event: string }) => e.event === name);
    expect(byName("document.accepted")).toMatchObject({
      environment: "live",
      subject: { type: "lead", id: lead.id },
      data: { lead_id: lead.id, reference: lead.reference, document: accepted, payload_mode: "reference" },
    });
    expect(byName("document.rejected").data).toEqual({ lead_id: lead.id, reference: lead.reference, document: rejected, payload_mode: "reference" });

    const filtered = await call("GET", "/partner/v1/events?event=document.rejected", { key: live.key });
    expect(filtered.body.events.map((e: { data: { document: { id: string } } }) => e.data.document.id)).toEqual([rejected.id]);
  });

  it("delivers document.rejected to a subscribed partner endpoint", async () => {
    const bucket = receiverBucket();
    const { live } = await partnerWithKeys();
    const endpoint = await register("partner", live.key, { url: bucket.url(), events: ["document.rejected"] });
    await bucket.trust(endpoint.secret);
    const lead = await createLead(live.key);
    await uploadDocument(live.key, lead.id, "id_document", bytes(ofxV2Card), "card.ofx");
    const rejected = await uploadDocument(live.key, lead.id, "invoice", new Uint8Array(), "blank.pdf");

    const { deliveryIds } = await dispatch();
    await consume(deliveryIds);
    const received = (await bucket.records()).map((r) => ({ body: JSON.parse(r.body), verified: r.verified }));
    expect(received.map((r) => r.body.event)).toEqual(["document.rejected", "document.rejected"]);
    const last = received.find((r) => r.body.data.document.id === rejected.id)!;
    expect(last.body).toMatchObject({ event: "document.rejected", environment: "live", livemode: true });
    expect(last.body.data).toMatchObject({ lead_id: lead.id, reference: lead.reference, document: { ...rejected, reason: "empty_file" } });
    expect(last.verified.some((v) => v.standard || v.plain || v.timestamped)).toBe(true);
  });
});
