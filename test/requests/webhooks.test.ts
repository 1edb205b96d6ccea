import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { call } from "../helpers/api";
import { routedLead } from "../lender/helpers";
import { consume, dispatch, makeDue, receiverBucket, register, settleOutbox } from "../webhooks/support/webhooks";
import { download, fulfil, requestOn, requestRow } from "./helpers";

// Events other files of this worker left undispatched must not reach this file's dispatch.
beforeEach(settleOutbox);

// Scoped in SQL to the test's own request: the events table holds every file's events.
const fulfilledRow = async (requestId: string) => {
  const row = await env.DB.prepare("select detail from events where event = 'request.fulfilled' and json_extract(detail, '$.request.id') = ?").bind(requestId).first<{ detail: string }>();
  return row ? JSON.parse(row.detail) : undefined;
};

async function deliveredBodies(bucket: ReturnType<typeof receiverBucket>) {
  return (await bucket.records()).map((r) => JSON.parse(r.body));
}

describe("request.fulfilled", () => {
  it("carries a signed link per file in webhook bodies and the events list; the stored row keeps none", async () => {
    const full = receiverBucket();
    const reference = receiverBucket();
    const { keys, refA } = await routedLead();
    await register("lender", keys.a.live, { url: full.url(), events: ["request.fulfilled"] });
    await register("lender", keys.a.live, { url: reference.url(), events: ["request.fulfilled"], payload: "reference" });
    const request = await requestOn(keys.a.live, refA);
    const { documents, detail } = await fulfil(refA, request.id, [
      { filename: "may.csv", content: "date,amount\n2026-05-01,100", contentType: "text/csv" },
      { filename: "june.pdf", content: "%PDF-1.7 june" },
    ]);
    expect(await fulfilledRow(request.id)).toEqual(detail);
    expect(JSON.stringify(await fulfilledRow(request.id))).not.toContain("url");

    const { deliveryIds } = await dispatch();
    await consume(deliveryIds);
    for (const bucket of [full, reference]) {
      const [body] = (await deliveredBodies(bucket)).filter((b) => b.event === "request.fulfilled");
      expect(body.data.request).toEqual({
        ...detail.request,
        files: detail.request.files.map((f) => ({ ...f, url: expect.stringMatching(/^http:\/\/localhost:8787\/files\/.+\?expires=\d+&signature=[0-9a-f]+$/) })),
      });
      const expires = Number(new URL(body.data.request.files[0].url).searchParams.get("expires"));
      // Webhook links outlive the retry schedule: 24 hours, not the API's 1 hour.
      expect(expires - Date.now() / 1000).toBeGreaterThan(23 * 3600);
      for (const file of body.data.request.files) {
        const got = await download(file.url);
        expect(got.status).toBe(200);
        expect(got.text).toBe(documents.find((d) => d.id === file.id)!.filename === "may.csv" ? "date,amount\n2026-05-01,100" : "%PDF-1.7 june");
      }
    }
    const [fullBody] = await deliveredBodies(full);
    expect(fullBody.data).toMatchObject({ ref: refA, payload_mode: "full" });

    const events = await call("GET", "/v1/events?event=request.fulfilled", { key: keys.a.live });
    expect(events.status).toBe(200);
    const listed = events.body.events.find((e: any) => e.data.request.id === request.id);
    expect(listed.data.request.files.map((f: any) => f.id)).toEqual(detail.request.files.map((f) => f.id));
    const link = listed.data.request.files[1].url;
    expect(Number(new URL(link).searchParams.get("expires")) - Date.now() / 1000).toBeLessThanOrEqual(3600);
    expect((await download(link)).status).toBe(200);
    expect(JSON.stringify(await fulfilledRow(request.id))).not.toContain("url");
  });

  it("forwards the request on the first successful delivery; a later files read changes nothing", async () => {
    const bucket = receiverBucket();
    const { keys, refA } = await routedLead();
    await register("lender", keys.a.live, { url: bucket.url(), events: ["request.fulfilled"] });
    const request = await requestOn(keys.a.live, refA);
    await fulfil(refA, request.id);
    const { deliveryIds } = await dispatch();
    await consume(deliveryIds);
    const row = await requestRow(request.id);
    expect(row.status).toBe("forwarded");
    expect(row.forwarded_at).toEqual(expect.any(String));
    const files = await call("GET", `/v1/deals/${refA}/requests/${request.id}/files`, { key: keys.a.live });
    expect(files.body).toMatchObject({ status: "forwarded", files: [{ request_id: request.id }] });
    expect((await requestRow(request.id)).forwarded_at).toBe(row.forwarded_at);
  });

  it("does not forward on a failed delivery; the files read forwards and a later successful delivery changes nothing", async () => {
    const bucket = receiverBucket();
    const { keys, refA } = await routedLead();
    const endpoint = await register("lender", keys.a.live, { url: bucket.url("status-500"), events: ["request.fulfilled"] });
    const request = await requestOn(keys.a.live, refA);
    await fulfil(refA, request.id);
    const { deliveryIds } = await dispatch();
    expect(deliveryIds).toHaveLength(1);
    const failed = await consume(deliveryIds);
    expect(failed.retryMessages).toHaveLength(1);
    expect((await requestRow(request.id)).status).toBe("uploaded");

    const files = await call("GET", `/v1/deals/${refA}/requests/${request.id}/files`, { key: keys.a.live });
    expect(files.body.status).toBe("forwarded");
    const forwardedAt = (await requestRow(request.id)).forwarded_at;

    const patched = await call("PATCH", `/v1/webhooks/${endpoint.id}`, { key: keys.a.live, body: { url: bucket.url() } });
    expect(patched.status).toBe(200);
    await makeDue(deliveryIds[0]);
    await consume(deliveryIds, 2);
    expect((await bucket.records()).map((r) => r.behaviour)).toEqual(["status-500", "ok"]);
    expect(await requestRow(request.id)).toMatchObject({ status: "forwarded", forwarded_at: forwardedAt });
  });
});
