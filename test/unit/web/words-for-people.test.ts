/**
 * Values a person reads go through words (issue 45 item 10): a file's size, a file name we gave an
 * extension of our own, the business's signature check.
 */
import { describe, expect, it } from "vitest";
import { fileNameInWords, fileSizeInWords, signatureInWords } from "../../../src/web/kit/format";

describe("words for people", () => {
  it("says a file's size in KB or MB, never in bytes", () => {
    expect(fileSizeInWords(3 * 1024 * 1024)).toBe("3 MB");
    expect(fileSizeInWords(1.5 * 1024 * 1024)).toBe("1.5 MB");
    expect(fileSizeInWords(24_000)).toBe("23 KB");
    expect(fileSizeInWords(15)).toBe("1 KB");
  });

  it("names a file of no recognised type without our .bin", () => {
    expect(fileNameInWords("notes.bin")).toBe("notes (file type not recognised)");
    expect(fileNameInWords("statement.pdf")).toBe("statement.pdf");
  });

  it("says what a typed-name signature is, never its hash", () => {
    expect(signatureInWords(`typed_name:${"a".repeat(64)}`)).toBe("Name typed and consent given, bound to the agreement file that was signed");
    expect(signatureInWords(null)).toBe("—");
  });
});

describe("the kit's table", () => {
  it("breaks a word only where it cannot fit its column on a wide screen (no 'Amo unt' at 1280 px); the phone's cards may break anywhere", async () => {
    const { TABLE_STYLE } = await import("../../../src/web/kit/table");
    const [wide, phone] = TABLE_STYLE.split("@media (max-width:37.5rem)");
    expect(wide).toContain("overflow-wrap:break-word");
    expect(wide).not.toContain("anywhere");
    expect(phone).toContain("overflow-wrap:anywhere");
  });
});
