import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call } from "../helpers/api";
import { partnerWithKeys } from "../helpers/seed";
import { createLead } from "../leads/helpers";
import { png } from "./fixtures";
import { form } from "./helpers";
import { inData } from "../helpers/data-db";

describe("partner document upload with Idempotency-Key", () => {
  it("stores the file's exact bytes and replays the first answer for a retry of the same body", async () => {
    const { sandbox } = await partnerWithKeys();
    const lead = await createLead(sandbox.key);
    // The same serialised multipart body sent twice, as a client retrying a request does.
    const request = new Request("http://x", { method: "POST", body: form([{ name: "document_type", value: "id_document" }, { name: "file", value: png(), filename: "id.png" }]) });
    const body = new Uint8Array(await request.arrayBuffer());
    const send = () =>
      call("POST", `/partner/v1/leads/${lead.id}/documents`, { key: sandbox.key, rawBody: body, contentType: request.headers.get("Content-Type")!, headers: { "Idempotency-Key": "upload-1" } });

    const first = await send();
    expect(first.status).toBe(201);
    expect(first.body.state).toBe("accepted");
    const row = await inData.prepare("select storage_key from documents where id = ?").bind(first.body.id).first<{ storage_key: string }>();
    const object = await env.DOCUMENTS.get(row!.storage_key);
    expect(new Uint8Array(await object!.arrayBuffer())).toEqual(png());

    const retry = await send();
    expect(retry.status).toBe(201);
    expect(retry.headers.get("Idempotent-Replayed")).toBe("true");
    expect(retry.body).toEqual(first.body);
    expect((await call("GET", `/partner/v1/leads/${lead.id}/documents`, { key: sandbox.key })).body.count).toBe(1);
  });
});
