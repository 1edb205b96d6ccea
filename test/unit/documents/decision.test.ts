import { describe, expect, it } from "vitest";
import { ALLOWED_KINDS, decideDocument } from "../../../src/domain/documents/decision";
import { isHeif, sniffFile } from "../../../src/domain/documents/file-type";
import { FILENAME_MAX_LENGTH, sanitiseFilename } from "../../../src/domain/documents/filename";
import { DOCUMENT_TYPE_VALUES } from "../../../src/domain/reference/values";
import { bytes, gif, heic, jpeg, ofxV1Bank, ofxV2Card, pdf, png, signedAmountCsv, xlsx, zip } from "../../documents/fixtures";

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
    expect(decideDocument("id_document", png())).toEqual({ state: "accepted", reason: null, contentType: "image/png", kind: "png", statement: null });
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
    expect(decideDocument("bank_statements", pdf())).toEqual({ state: "accepted", reason: null, contentType: "application/pdf", kind: "pdf", statement: null });
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
