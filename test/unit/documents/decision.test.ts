import { describe, expect, it } from "vitest";
import { ALLOWED_KINDS, decideDocument } from "../../../src/domain/documents/decision";
import { clientRemovalRefusal, partnerRemovalRefusal, requestAfterRemoval } from "../../../src/domain/documents/removal";
import { isHeif, sniffFile } from "../../../src/domain/documents/file-type";
import { hasFormulaCells } from "../../../src/domain/documents/formula-cells";
import { FILENAME_MAX_LENGTH, sanitiseFilename } from "../../../src/domain/documents/filename";
import { DOCUMENT_TYPE_VALUES } from "../../../src/domain/reference/values";
import { bytes, csvWithFormula, gif, heic, jpeg, ofxV1Bank, ofxV2Card, pdf, png, signedAmountCsv, xlsx, zip } from "../../documents/fixtures";

describe("file kind from the bytes", () => {
  it.each([
    ["pdf", pdf(), "pdf"],
    // Issue 21 item 4: the header counts at offset 0 only, so a polyglot cannot pass as a PDF.
    ["%PDF- after a few junk bytes is not a PDF", bytes("\n\n%PDF-1.4\n"), null],
    ["png", png(), "png"],
    ["jpeg", jpeg(), "jpeg"],
    ["xlsx", xlsx(), "xlsx"],
    ["ofx v1", bytes(ofxV1Bank), "ofx"],
    ["ofx v2", bytes(ofxV2Card), "ofx"],
    ["bare <OFX>", bytes("<OFX>\n<BANKMSGSRSV1>"), "ofx"],
    ["csv", bytes(signedAmountCsv), "csv"],
    ["csv with a BOM", bytes(`\uFEFF${signedAmountCsv}`), "csv"],
    ["a zip that is not a workbook", zip(), null],
    ["gif", gif(), null],
    ["plain prose", bytes("Dear lender, please find attached"), null],
    ["binary", new Uint8Array([0, 1, 2, 3, 0xfe]), null],
    ["latin-1 text", new Uint8Array([0x44, 0x61, 0x74, 0x65, 0x2c, 0xa3, 0x31]), null],
  ])("%s", (_name, input, kind) => {
    expect(sniffFile(input).kind).toBe(kind);
  });
});

describe("HEIC/HEIF photos (issue 38 item 4)", () => {
  it("are recognised by their ftyp box, and taken by no document type", () => {
    for (const brand of ["heic", "heix", "mif1"]) expect(isHeif(heic(brand))).toBe(true);
    for (const other of [heic("avif"), heic("isom"), jpeg(), png(), pdf(), new Uint8Array(8)]) expect(isHeif(other)).toBe(false);
    expect(sniffFile(heic()).kind).toBeNull();
    for (const type of DOCUMENT_TYPE_VALUES) expect(decideDocument(type, heic())).toMatchObject({ state: "rejected", reason: "unsupported_file_type" });
  });
});

describe("decision at upload", () => {
  it("rejects an empty file", () => {
    expect(decideDocument("id_document", new Uint8Array())).toMatchObject({ state: "rejected", reason: "empty_file" });
  });

  it("decides the content type from the bytes, not from a name or header", () => {
    expect(decideDocument("id_document", png())).toEqual({ state: "accepted", reason: null, contentType: "image/png", kind: "png", statement: null, formulaCells: false });
    expect(decideDocument("invoice", pdf())).toMatchObject({ state: "accepted", contentType: "application/pdf" });
  });

  it("rejects kinds a document type does not take", () => {
    expect(decideDocument("bank_statements", png())).toMatchObject({ state: "rejected", reason: "unsupported_file_type", contentType: "image/png" });
    expect(decideDocument("id_document", bytes(signedAmountCsv))).toMatchObject({ state: "rejected", reason: "unsupported_file_type" });
    expect(decideDocument("signed_agreement", jpeg())).toMatchObject({ state: "rejected", reason: "unsupported_file_type" });
    expect(decideDocument("other", gif())).toMatchObject({ state: "rejected", reason: "unsupported_file_type", contentType: "application/octet-stream" });
  });

  it("takes spreadsheets for accounts", () => {
    expect(decideDocument("management_accounts", xlsx())).toMatchObject({ state: "accepted", contentType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" });
    expect(decideDocument("filed_accounts", bytes(signedAmountCsv))).toMatchObject({ state: "accepted", contentType: "text/csv", statement: null });
  });

  it("parses CSV and OFX bank statements and keeps what they say", () => {
    const csv = decideDocument("bank_statements", bytes(signedAmountCsv));
    expect(csv).toMatchObject({ state: "accepted", contentType: "text/csv", statement: { format: "csv", monthly_revenue: 2_000 } });
    const ofx = decideDocument("bank_statements", bytes(ofxV1Bank));
    expect(ofx).toMatchObject({ state: "accepted", contentType: "application/x-ofx", statement: { format: "ofx", account_kind: "bank", monthly_revenue: 3_000 } });
  });

  it("accepts a PDF bank statement unparsed", () => {
    expect(decideDocument("bank_statements", pdf())).toEqual({ state: "accepted", reason: null, contentType: "application/pdf", kind: "pdf", statement: null, formulaCells: false });
  });

  it("rejects a CSV or OFX bank statement that does not parse", () => {
    expect(decideDocument("bank_statements", bytes("name,email\nAda,ada@example.com"))).toMatchObject({ state: "rejected", reason: "unreadable_statement", statement: null });
    expect(decideDocument("bank_statements", bytes("OFXHEADER:100\n<OFX></OFX>"))).toMatchObject({ state: "rejected", reason: "unreadable_statement" });
  });

  it("names allowed kinds for every document type", () => {
    for (const type of DOCUMENT_TYPE_VALUES) expect(ALLOWED_KINDS[type].length).toBeGreaterThan(0);
  });
});

describe("filenames", () => {
  it.each([
    ["statement.csv", "statement.csv"],
    ["C:\\Users\\ada\\scans\\passport.png", "passport.png"],
    ["../../etc/passwd", "passwd"],
    ["a\u0000b\u0007c\r\n.pdf", "abc.pdf"],
    ["invoice\u202Egpj.exe", "invoicegpj.exe"],
    ["   ", "document"],
    ["..", "document"],
    ["folder/", "document"],
    [".hidden", "hidden"],
    ["", "document"],
  ])("%j becomes %j", (input, expected) => {
    expect(sanitiseFilename(input)).toBe(expected);
  });

  it("caps the length and keeps the extension", () => {
    const name = sanitiseFilename(`${"x".repeat(500)}.pdf`);
    expect(name).toHaveLength(FILENAME_MAX_LENGTH);
    expect(name.endsWith(".pdf")).toBe(true);
  });
});

describe("formula cells in a CSV (OWASP CSV injection)", () => {
  const csv = (...rows: string[]) => ["Date,Description,Amount", ...rows].join("\n");
  it.each([
    ["a HYPERLINK", csv('2026-04-01,"=HYPERLINK(""http://evil.example"",""Click"")",10.00')],
    ["a DDE call", csv("2026-04-01,=cmd|' /C calc'!A0,10.00")],
    ["@ function", csv("2026-04-01,@SUM(1+1)*cmd|' /C calc'!A0,10.00")],
    ["+ expression", csv("2026-04-01,+1+cmd|' /C calc'!A0,10.00")],
    ["- expression", csv("2026-04-01,-2+3+cmd|' /C calc'!A0,10.00")],
    ["a formula after leading spaces and a tab", csv("2026-04-01,  \t=1+1,10.00")],
    ["a quoted formula holding the delimiter", csv('2026-04-01,"=IMPORTXML(A1,""//a"")",10.00')],
    ["a formula in the header", "=1+1,Amount\n2026-04-01,10.00"],
    ["a formula in a semicolon file", "Date;Description;Amount\n2026-04-01;=1+1;10,00"],
    ["a formula in a tab file", "Date\tDescription\tAmount\n2026-04-01\t@A1\t10.00"],
    ["a formula past the first rows", csv(...Array.from({ length: 500 }, (_, i) => `2026-04-01,row ${i},1.00`), "2026-05-01,=A1,2.00")],
  ])("flags %s", (_name, text) => {
    expect(hasFormulaCells(text)).toBe(true);
  });

  it.each([
    ["signed amounts", signedAmountCsv],
    ["negative and positive numbers, with separators, currency and percent", csv("2026-04-01,Refund,-42.15", "2026-04-02,Fee,+1,200.50", "2026-04-03,Rate,-0.5%", "2026-04-04,Card,-£12.00", "2026-04-05,Exp,1e3")],
    ["a dash placeholder", csv("2026-04-01,-,-", "2026-04-02,--,+")],
    ["operators inside a cell", csv("2026-04-01,Transfer - rent = paid,10.00", "2026-04-02,a@b.example,1.00")],
    ["an empty file", ""],
  ])("does not flag %s", (_name, text) => {
    expect(hasFormulaCells(text)).toBe(false);
  });

  it("is decided with the document: a CSV of any document type, never another kind", () => {
    expect(decideDocument("bank_statements", bytes(csvWithFormula)).formulaCells).toBe(true);
    expect(decideDocument("other", bytes(csvWithFormula)).formulaCells).toBe(true);
    // Rejected (not a statement it can read) but kept and downloadable: flagged all the same.
    expect(decideDocument("id_document", bytes(csvWithFormula))).toMatchObject({ state: "rejected", formulaCells: true });
    expect(decideDocument("bank_statements", bytes(signedAmountCsv)).formulaCells).toBe(false);
    expect(decideDocument("bank_statements", pdf()).formulaCells).toBe(false);
  });
});

describe("who may remove a document (removal.ts)", () => {
  it("lets the partner remove its rejected uploads only: an accepted one stays, a client's file is the business's", () => {
    expect(partnerRemovalRefusal({ source: "partner_upload", state: "rejected" })).toBeNull();
    expect(partnerRemovalRefusal({ source: "partner_upload", state: "accepted" })).toMatch(/accepted document stays/);
    expect(partnerRemovalRefusal({ source: "client_upload", state: "accepted" })).toMatch(/only the business can remove it/);
  });

  it("lets the business take back a file while its request is uploaded or forwarded and the deal undecided", () => {
    for (const status of ["uploaded", "forwarded"] as const) expect(clientRemovalRefusal({ status }, { status: "in_review" })).toBeNull();
    expect(clientRemovalRefusal({ status: "waived" }, { status: "in_review" })).toMatch(/no longer needs/);
    for (const status of ["funded", "declined"]) expect(clientRemovalRefusal({ status: "forwarded" }, { status })).toMatch(/made its decision/);
  });

  it("keeps the request as it was with files left, and asks again once none is", () => {
    const request = { status: "forwarded" as const, fileCount: 2, uploadedAt: "2026-11-01T10:00:00.000Z", forwardedAt: "2026-11-01T10:05:00.000Z" };
    expect(requestAfterRemoval(request)).toEqual({ ...request, fileCount: 1 });
    expect(requestAfterRemoval({ ...request, fileCount: 1 })).toEqual({ status: "requested", fileCount: 0, uploadedAt: null, forwardedAt: null });
  });
});
