import { describe, expect, it } from "vitest";
import { call } from "../helpers/api";

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const schemaOf = (op: any, status: string) => op.responses[status].content["application/json"].schema;

describe("lender OpenAPI: documents and requests", () => {
  it("describes every request and document route with its response schema and errors", async () => {
    const doc = (await call("GET", "/v1/openapi.json")).body;
    const create = doc.paths["/deals/{ref}/requests"].post;
    expect(schemaOf(create, "200")).toEqual(ref("DocumentRequestResult"));
    expect(create.requestBody.content["application/json"].schema).toEqual(ref("DocumentRequestCreate"));
    expect(Object.keys(create.responses)).toEqual(expect.arrayContaining(["400", "404", "409", "422"]));
    expect(schemaOf(doc.paths["/deals/{ref}/requests"].get, "200")).toEqual(ref("DocumentRequestList"));
    expect(schemaOf(doc.paths["/deals/{ref}/requests/{id}/files"].get, "200")).toEqual(ref("DocumentRequestFiles"));
    expect(schemaOf(doc.paths["/deals/{ref}/requests/{id}/waive"].post, "200")).toEqual(ref("DocumentRequestResult"));
    expect(doc.paths["/deals/{ref}/requests/{id}/waive"].post.responses).toHaveProperty(["409"]);
    expect(schemaOf(doc.paths["/deals/{ref}/documents"].get, "200")).toEqual(ref("DealDocumentList"));

    const schemas = doc.components.schemas;
    expect(schemas.DocumentRequestCreate.additionalProperties).toBe(false);
    expect(schemas.DocumentRequestCreate.properties.item_type.enum).toContain("bank_statements_6m");
    expect(schemas.DocumentRequestCreate.properties.note.maxLength).toBe(500);
    expect(schemas.DocumentRequest.properties.status.enum).toEqual(["requested", "uploaded", "forwarded", "waived"]);
    expect(Object.keys(schemas.DealDocument.properties)).toEqual(["id", "document_type", "filename", "content_type", "size_bytes", "uploaded_at", "source", "request_id", "formula_cells", "url"]);
    expect(Object.keys(schemas.OutstandingRequest.properties)).toEqual(["request_id", "document_type", "label", "requested_at"]);
    expect(schemas.Deal.properties.documents.items).toEqual(ref("DealDocument"));
  });
});
