import { beforeAll, describe, expect, it } from "vitest";
import { auditActionsIn, collectAuditActions, collectHandRolledPages, collectTicketCitations, handRolledPagesIn, PAGE_FIXTURE, TICKET_FIXTURE, ticketCitationsIn } from "../../architecture/source-text";
import { AUDIT_ACTIONS } from "../../../src/domain/portal/audit-actions";

// Rules on the text of src/ (test/architecture/source-text.ts): comments say their reason, not a ticket's
// number; the HTML wing's pages leave refusals and 404s to the area's error handler (web/kit/page-errors.ts).

/**
 * Hand-rolled page answers that stay, by file and kind, each with its reason. Keep it short: a new entry
 * needs the same kind of reason.
 */
const PAGE_EXCEPTIONS: Record<string, string> = {
  // The last word itself: a second failure while drawing the page for the first is answered with the plain failure page.
  "src/web/kit/page-errors.ts catch that answers": "the error handler",
  // The error handlers' own 404 pages: where every `not_found` of the area ends.
  "src/web/portal/mount/routes.tsx hand-written 404 page": "the portal's error handler",
  "src/web/hub/routes.ts hand-written 404 page": "the hub's error handler",
  // A dead invitation link says so and what to do (ask for a new one): the visitor is signed out, and the
  // portal's plain 404 page would not tell them.
  "src/web/portal/access/pages.tsx hand-written 404 page": "a dead invitation link",
  // A deal whose business has not given its payout account: what to ask the business, not a bare "Not found".
  "src/web/portal/lender/payout-reveal.tsx hand-written 404 page": "an account not given yet",
  // A guessed, used, expired or revoked application link: one page for all of them (no enumeration) that
  // says to ask the sender for a new link, with the partner's return_url; the plain 404 would not.
  "src/web/apply/routes.tsx hand-written 404 page": "a dead application link",
};

/** Ticket citations that stay, by file, each with its reason: none today. */
const CITATION_EXCEPTIONS: Record<string, string> = {};

/** "src/x.ts:12 what" → "src/x.ts what": an exception names a file and a kind, not a line that moves. */
const withoutLine = (found: string) => found.replace(/:\d+ /, " ");

describe("the text of src/", () => {
  let citations: string[] = [];
  let pages: string[] = [];
  // One parse of every source (a few hundred files; slow on a loaded machine).
  beforeAll(() => {
    citations = collectTicketCitations(process.cwd());
    pages = collectHandRolledPages(process.cwd());
  }, 60_000);

  it("no comment cites an issue or an item by number: it says the reason itself", () => {
    expect(citations.filter((c) => !(c.split(":")[0]! in CITATION_EXCEPTIONS))).toEqual([]);
  });

  it("no page handler in src/web/ catches a refusal to answer with a page, or writes its own 404 page: the area's error handler does both", () => {
    expect(pages.filter((p) => !(withoutLine(p) in PAGE_EXCEPTIONS))).toEqual([]);
  });

  it("each exception still holds what it excuses (an entry that no longer applies goes)", () => {
    for (const entry of Object.keys(PAGE_EXCEPTIONS)) expect(pages.some((p) => withoutLine(p) === entry), entry).toBe(true);
    for (const file of Object.keys(CITATION_EXCEPTIONS)) expect(citations.some((c) => c.startsWith(`${file}:`)), file).toBe(true);
  });

  it("finds each kind of ticket citation in a comment, and none in a string or a page's words", () => {
    expect(ticketCitationsIn(TICKET_FIXTURE.file, TICKET_FIXTURE.text)).toEqual([
      "src/web/portal/made-up.tsx:1 issue 23",
      "src/web/portal/made-up.tsx:2 Issue 39",
      "src/web/portal/made-up.tsx:4 items 7",
      "src/web/portal/made-up.tsx:7 review item",
    ]);
  });

  it("finds each kind of hand-rolled page answer, and not a catch that refuses or a page with another status", () => {
    expect(handRolledPagesIn(PAGE_FIXTURE.file, PAGE_FIXTURE.text)).toEqual([
      "src/web/portal/made-up.tsx:3 catch that answers",
      "src/web/portal/made-up.tsx:5 .catch that answers",
      "src/web/portal/made-up.tsx:6 catch that answers",
      "src/web/portal/made-up.tsx:7 hand-written 404 page",
      "src/web/portal/made-up.tsx:12 catch that answers",
    ]);
  });

  it("every audit action written has the words its audit page shows (no action read as a code)", () => {
    expect(auditActionsIn('audit: () => ({ action: "lead.created" }), other: { action: "x", action: "key.revoked" }')).toEqual(["lead.created", "key.revoked"]);
    const labelled = new Set<string>(AUDIT_ACTIONS.map((a) => a.value));
    expect(collectAuditActions(process.cwd()).filter((action) => !labelled.has(action))).toEqual([]);
  });
});
