// Rules on the text of src/ that an import graph cannot see, read on the Node side by syntax tree (so a
// string or a page's words never count as a comment, and a comment never counts as code):
//   - no comment cites a ticket ("issue 23 item 7", "review item"): a newcomer cannot look it up, so a
//     comment says the reason itself;
//   - no page handler in src/web/ catches a refusal to answer with a page, and none writes its own 404 page:
//     both are the area's error handler's (web/kit/page-errors.ts), which answers every page the same way.
import ts from "./typescript.mjs";
import { checkSources } from "./sources";

/** A ticket cited by number: "issue 44", "Issue 39 item 9", "items 7 and 8", "item 8", "review item". */
const TICKET = /\bissues?[\s*/]+#?\d+|\bitems?[\s*/]+#?\d+|\breview items?\b/i;

const sourceOf = (file: string, text: string) => ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);

/** Every comment of a file (`//`, `/* … *\/`, JSX's `{/* … *\/}`), once each, with its line. */
function commentsOf(file: string, text: string): { line: number; text: string }[] {
  const source = sourceOf(file, text);
  const seen = new Map<number, { line: number; text: string }>();
  const take = (ranges: ts.CommentRange[] | undefined) => {
    for (const range of ranges ?? []) {
      if (seen.has(range.pos)) continue;
      seen.set(range.pos, { line: source.getLineAndCharacterOfPosition(range.pos).line + 1, text: text.slice(range.pos, range.end) });
    }
  };
  const visit = (node: ts.Node) => {
    // JSX text is a page's words, not trivia: reading comment ranges from inside it would find "//" in a URL.
    if (!ts.isJsxText(node)) {
      take(ts.getLeadingCommentRanges(text, node.pos));
      take(ts.getTrailingCommentRanges(text, node.end));
    }
    // Tokens too (a comment before a closing brace or inside an empty JSX expression belongs to no node).
    for (const child of node.getChildren(source)) visit(child);
  };
  visit(source);
  return [...seen.values()].sort((a, b) => a.line - b.line);
}

/** ["src/x.ts:12 issue 23 item 7", ...]: the comments of one file that cite a ticket, with what they cite. */
export function ticketCitationsIn(file: string, text: string): string[] {
  if (!TICKET.test(text)) return [];
  return commentsOf(file, text).flatMap((comment) => {
    const cited = TICKET.exec(comment.text);
    if (!cited) return [];
    const line = comment.line + (comment.text.slice(0, cited.index).match(/\n/g)?.length ?? 0);
    return [`${file}:${line} ${cited[0].replace(/\s+/g, " ")}`];
  });
}

/** Every ticket citation in a comment under src/ (generated files are not written by hand and are left out). */
export const collectTicketCitations = (root: string) => checkSources(root, "src", (file, text) => (file.includes(".generated.") ? [] : ticketCitationsIn(file, text)));

/** A made-up page module with one of each kind of citation, and words that only look like one. */
export const TICKET_FIXTURE = {
  file: "src/web/portal/made-up.tsx",
  text: [
    "// The one table (issue 23 item 14).",
    "/** A live key needs a proof (Issue 39 item 9). */",
    "const a = 'issue 12 in a string is a word, not a comment';",
    "/* items 7 and 8: */ const b = 1;",
    "export const Page = () => (",
    "  <p>",
    "    {/* review item: a JSX comment */}",
    "    Order item 3 is a page's words. http://example.com//issue 4",
    "  </p>",
    ");",
    "// An issued key: no ticket here.",
  ].join("\n"),
};

/**
 * What a page handler in src/web/ may not do by hand, each by the syntax that does it: a catch that
 * answers (returns a page, or a call that draws one: `return refuse(…)`, `return webhookPage(c, id,
 * pageRefusal(error))`) instead of throwing on, and a page written with status 404. A catch that
 * returns a plain value (`return null` for "none") or throws a refusal on is fine.
 */
export function handRolledPagesIn(file: string, text: string): string[] {
  if (!text.includes("catch") && !text.includes("404")) return [];
  const source = sourceOf(file, text);
  const found: string[] = [];
  const at = (node: ts.Node) => `${file}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`;
  const unwrap = (e: ts.Expression): ts.Expression => (ts.isAwaitExpression(e) || ts.isParenthesizedExpression(e) ? unwrap(e.expression) : e);
  const answersWithCall = (e: ts.Expression | undefined) => e !== undefined && ts.isCallExpression(unwrap(e));
  /** A return of a call in this function body, not in a function nested in it. */
  const returnsCall = (body: ts.Node): boolean => {
    let returns = false;
    const look = (n: ts.Node) => {
      if (returns || ts.isFunctionLike(n)) return;
      if (ts.isReturnStatement(n) && answersWithCall(n.expression)) returns = true;
      else ts.forEachChild(n, look);
    };
    ts.forEachChild(body, look);
    return returns;
  };
  const handlerAnswers = (handler: ts.Expression) =>
    (ts.isArrowFunction(handler) || ts.isFunctionExpression(handler)) && (ts.isBlock(handler.body) ? returnsCall(handler.body) : answersWithCall(handler.body));
  const visit = (node: ts.Node) => {
    if (ts.isCatchClause(node) && returnsCall(node.block)) found.push(`${at(node)} catch that answers`);
    // `.catch((error) => c.html(…))`: the same, written as a promise's handler.
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === "catch" && node.arguments.some(handlerAnswers))
      found.push(`${at(node)} .catch that answers`);
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      node.expression.name.text === "html" &&
      node.arguments.some((a) => ts.isNumericLiteral(a) && a.text === "404")
    )
      found.push(`${at(node)} hand-written 404 page`);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Every hand-rolled page answer under src/web/ (the kit's own error handler and form action are where they belong). */
export const collectHandRolledPages = (root: string) => checkSources(root, "src/web", (file, text) => (file.includes(".generated.") ? [] : handRolledPagesIn(file, text)));

/** A made-up page module with each kind of hand-rolled answer, and the shapes that are fine. */
export const PAGE_FIXTURE = {
  file: "src/web/portal/made-up.tsx",
  text: [
    "export const a = async (c) => {",
    "  try { return c.html(page(await read())); }",
    "  catch (error) { return c.html(refusedPage(error.message), 400); }",
    "};",
    "export const b = (c) => read().catch(() => c.html(page(), 400));",
    "export const d = async (c, id) => { try { await read(); } catch (error) { return show(c, id, pageRefusal(error)); } };",
    "export const e = (c) => c.html(notFoundPage(), 404);",
    "export const f = async () => { try { return JSON.parse(x); } catch { throw new Refusal('invalid_request', 'No.'); } };",
    "export const g = (c) => c.html(page(), 400);",
    "export const h = async (c) => { try { return await read(); } catch (error) { if (isNotFound(error)) return null; throw error; } };",
    "export const i = (c) => read().catch(() => null);",
    "export const j = async (c) => { try { return c.html(page(await read())); } catch (error) { if (isRefusal(error)) return refuse('cursor', error.message); throw error; } };",
  ].join("\n"),
};

/** The audit actions a file writes (`action: "member.invited"`), each once, in the order written. */
export function auditActionsIn(text: string): string[] {
  return [...new Set([...text.matchAll(/\baction: "([a-z_]+\.[a-z_]+)"/g)].map((m) => m[1]!))];
}

/** Every audit action written anywhere in src/ (the audit page words each by domain/portal/audit-actions.ts). */
export const collectAuditActions = (root: string) => [...new Set(checkSources(root, "src", (file, text) => (file.includes(".generated.") ? [] : auditActionsIn(text))))].sort();
