/**
 * Issue 21 item 9, "A signed agreement can be replaced": after the business signs, the agreement
 * is immutable. The API answers 409 agreement_signed, the portal offers no upload, and the file the
 * hub links to is the one that was signed (an upload racing the signature never overwrites it).
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call } from "../helpers/api";
import { portal, signedInMember } from "../helpers/portal";
import { expectProblem, lenderWithKeys } from "../helpers/seed";
import { firmOffer, makeOffer, pdfBytes } from "../lender/helpers";
import { postAgreement } from "../portal/lender/support";
import { inData } from "../helpers/data-db";

const signedBytes = () => new TextEncoder().encode("%PDF-1.7\n% the signed one\n%%EOF\n");

async function signedTestDeal() {
  const { organisation, sandbox } = await lenderWithKeys();
  const created = await call("POST", "/v1/test/deals", { key: sandbox.key });
  expect(created.status).toBe(201);
  const ref = created.body.ref as string;
  const simulate = (event: string) => call("POST", `/v1/test/deals/${ref}/simulate`, { key: sandbox.key, body: { event } });
  await makeOffer(sandbox.key, ref, firmOffer());
  expect((await simulate("offer.accepted")).status).toBe(200);
  expect((await simulate("deal.account_submitted")).status).toBe(200);
  expect((await call("PUT", `/v1/deals/${ref}/agreement`, { key: sandbox.key, rawBody: signedBytes(), contentType: "application/pdf" })).status).toBe(200);
  expect((await simulate("deal.agreement_signed")).status).toBe(200);
  return { organisation, key: sandbox.key, ref };
}

const agreementKeyOf = async (ref: string) => (await inData.prepare("select agreement_key from deals where ref = ?").bind(ref).first<{ agreement_key: string }>())!.agreement_key;

describe("issue 21 item 9: a signed agreement is immutable", () => {
  it("item 9: PUT /v1/deals/{ref}/agreement after signature answers 409 agreement_signed and the signed file stays", async () => {
    const { key, ref } = await signedTestDeal();
    const before = await call("GET", `/v1/deals/${ref}/completion`, { key });
    const keyBefore = await agreementKeyOf(ref);

    const replaced = await call("PUT", `/v1/deals/${ref}/agreement`, { key, rawBody: pdfBytes(), contentType: "application/pdf" });
    expectProblem(replaced, 409, "agreement_signed");

    expect((await call("GET", `/v1/deals/${ref}/completion`, { key })).body).toEqual(before.body);
    expect(await agreementKeyOf(ref)).toBe(keyBefore);
    const served = await env.DOCUMENTS.get(keyBefore);
    expect(new Uint8Array(await served!.arrayBuffer())).toEqual(signedBytes());
  });

  it("item 9: each upload is stored under its own key, so an upload cannot overwrite the file a signature is bound to", async () => {
    const { sandbox } = await lenderWithKeys();
    const ref = (await call("POST", "/v1/test/deals", { key: sandbox.key })).body.ref as string;
    expect((await call("PUT", `/v1/deals/${ref}/agreement`, { key: sandbox.key, rawBody: signedBytes(), contentType: "application/pdf" })).status).toBe(200);
    const first = await agreementKeyOf(ref);
    expect((await call("PUT", `/v1/deals/${ref}/agreement`, { key: sandbox.key, rawBody: pdfBytes(), contentType: "application/pdf" })).status).toBe(200);
    const second = await agreementKeyOf(ref);
    expect(second).not.toBe(first);
    expect(new Uint8Array(await (await env.DOCUMENTS.get(second))!.arrayBuffer())).toEqual(pdfBytes());
    // The replaced object is handed to the upload sweeper (a pending marker no row points at).
    expect(await env.DB_SANDBOX.prepare("select count(*) n from pending_uploads where storage_key = ?").bind(first).first("n")).toBe(1);
  });

  it("item 9: the lender portal hides the upload once signed, and refuses a post of the old form", async () => {
    const { organisation, ref } = await signedTestDeal();
    const session = await signedInMember(organisation.id);
    const page = await portal("GET", `/deals/${ref}`, { session });
    expect(page.status).toBe(200);
    expect(page.text).not.toContain(`action="/portal/deals/${ref}/agreement"`);
    expect(page.text).toContain("signed agreement cannot be replaced");
    const keyBefore = await agreementKeyOf(ref);
    const posted = await postAgreement(session, ref, { bytes: pdfBytes(), type: "application/pdf", name: "agreement.pdf" });
    expect(posted.status).toBe(409);
    expect(posted.text).toContain("cannot be replaced");
    expect(await agreementKeyOf(ref)).toBe(keyBefore);
  });

  it("item 9: the error catalogue and OpenAPI declare agreement_signed on the upload", async () => {
    const doc = await call("GET", "/v1/openapi.json");
    expect(doc.body.paths["/deals/{ref}/agreement"].put.responses).toHaveProperty("409");
  });
});
