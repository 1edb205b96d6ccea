/**
 * Issue 39 item 7: the widget's `action` attribute became the Continue link's href as given, so a
 * `javascript:` action ran on the host page when the visitor pressed Continue. Only https: (and http:
 * on the visitor's own machine) may lead anywhere; the browser test in test/browser/embed.browser.test.ts
 * checks the rendered link.
 */
import { describe, expect, it } from "vitest";
import { continueUrl } from "../../../src/web/embed/browser/action-url";

const PAGE = "https://www.accountants.example/funding/";

describe("the widget's Continue address (continueUrl)", () => {
  it.each([
    ["https://partner.example/apply?from=widget", "https://partner.example/apply?from=widget"],
    ["/apply", "https://www.accountants.example/apply"],
    ["next", "https://www.accountants.example/funding/next"],
    ["//partner.example/apply", "https://partner.example/apply"],
  ])("keeps %s as %s", (action, href) => {
    expect(continueUrl(action, PAGE)?.href).toBe(href);
  });

  it.each(["http://localhost:8080/apply", "http://127.0.0.1/apply", "http://[::1]:3000/", "http://shop.localhost/apply"])("keeps http: on this machine: %s", (action) => {
    expect(continueUrl(action, PAGE)?.protocol).toBe("http:");
  });

  it("keeps a relative action on a local http: page", () => {
    expect(continueUrl("/apply", "http://127.0.0.1:5173/")?.href).toBe("http://127.0.0.1:5173/apply");
  });

  it.each([
    "javascript:alert(document.domain)",
    "  JavaScript:alert(1)",
    "java\tscript:alert(1)",
    "java\nscript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "vbscript:msgbox(1)",
    "blob:https://partner.example/0d9c",
    "file:///etc/passwd",
    "ftp://partner.example/apply",
    "http://partner.example/apply",
    "http://127.0.0.1.partner.example/apply",
    "http://localhost.partner.example/apply",
    "https://",
    "",
    "   ",
  ])("refuses %j", (action) => {
    expect(continueUrl(action, PAGE)).toBeNull();
  });

  it("refuses a relative action on a page that is neither https: nor local", () => {
    expect(continueUrl("/apply", "http://www.accountants.example/")).toBeNull();
  });

  it("has no address without an action", () => {
    expect(continueUrl(null, PAGE)).toBeNull();
  });
});
