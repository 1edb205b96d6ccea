import { describe, expect, it } from "vitest";
import { call } from "../helpers/api";
import { expectProblem, partnerWithKeys } from "../helpers/seed";
import { createLead } from "../leads/helpers";
import { pdf } from "./fixtures";
import { upload, uploadDocument } from "./helpers";

const parts = () => [
  { name: "document_type", value: "other" },
  { name: "file", value: pdf(), filename: "a.pdf" },
];

describe("partner documents: scope", () => {
  it("answers another account's lead with 404 not_found, for upload, list and read", async () => {
    const a = await partnerWithKeys();
    const b = await partnerWithKeys();
    const lead = await createLead(a.live.key);
    const doc = await uploadDocument(a.live.key, lead.id, "other", pdf());
    expectProblem(await upload(b.live.key, lead.id, parts()), 404, "not_found");
    expectProblem(await call("GET", `/partner/v1/leads/${lead.id}/documents`, { key: b.live.key }), 404, "not_found");
    expectProblem(await call("GET", `/partner/v1/leads/${lead.id}/documents/${doc.id}`, { key: b.live.key }), 404, "not_found");
    expect((await call("GET", `/partner/v1/leads/${lead.id}/documents`, { key: a.live.key })).body.count).toBe(1);
  });

  it("answers a lead of the other environment with 404 not_found", async () => {
    const { sandbox, live } = await partnerWithKeys();
    const lead = await createLead(sandbox.key);
    expectProblem(await upload(live.key, lead.id, parts()), 404, "not_found");
    expectProblem(await call("GET", `/partner/v1/leads/${lead.id}/documents`, { key: live.key }), 404, "not_found");
    const liveLead = await createLead(live.key);
    expectProblem(await upload(sandbox.key, liveLead.id, parts()), 404, "not_found");
  });

  it("answers a document of another lead with 404 not_found", async () => {
    const { sandbox } = await partnerWithKeys();
    const one = await createLead(sandbox.key);
    const two = await createLead(sandbox.key);
    const doc = await uploadDocument(sandbox.key, one.id, "other", pdf());
    expectProblem(await call("GET", `/partner/v1/leads/${two.id}/documents/${doc.id}`, { key: sandbox.key }), 404, "not_found");
  });

  it("describes the multipart body in the OpenAPI document", async () => {
    const doc = (await call("GET", "/partner/v1/openapi.json")).body;
    const post = doc.paths["/leads/{id}/documents"].post;
    const schema = post.requestBody.content["multipart/form-data"].schema;
    const resolved = schema.$ref ? doc.components.schemas[schema.$ref.split("/").at(-1)] : schema;
    expect(resolved.required).toEqual(expect.arrayContaining(["file", "document_type"]));
    expect(resolved.properties.file).toMatchObject({ type: "string", format: "binary" });
    expect(resolved.additionalProperties).toBe(false);
    expect(Object.keys(post.responses)).toEqual(expect.arrayContaining(["201", "400", "404", "413", "415", "422"]));
    expect(doc.paths["/leads/{id}/documents"].get.responses["200"]).toBeDefined();
  });
});
