/**
 * Whether a CSV holds a cell a spreadsheet would run as a formula (OWASP "CSV Injection"): a cell
 * that starts with `=`, `+`, `-` or `@`, also after the spaces, tabs or carriage returns OWASP lists
 * as ways to hide one. `=HYPERLINK(…)` sends whoever clicks it to any address, `=cmd|…` (DDE) asks the
 * spreadsheet to run a program. The file is kept as it came (it is the business's evidence, and a
 * lender's checks may need its bytes); the flag tells the lender before they open it.
 *
 * A signed number (`-42.15`, `+1,200.50`, `-£12.00`, `-0.5%`) is not a formula: a spreadsheet reads
 * it as a number, and bank statements are full of them. Nor is a cell of dashes or pluses alone (a
 * statement's "nothing" placeholder), which a spreadsheet keeps as text.
 *
 * The file is split on every delimiter a spreadsheet might choose (comma, semicolon, tab), since the
 * one it picks depends on its locale, not on the file: a cell that starts a formula under any split
 * flags the file.
 */
import { csvRows } from "./statement-csv";

const DELIMITERS = [",", ";", "\t"] as const;
const FORMULA_START = /^[=+\-@]/;
const SIGNED_NUMBER = /^[+-][£$€¥]?\d[\d,.]*(?:[eE][+-]?\d+)?%?$/;
const SIGNS_ONLY = /^[+-]+$/;

/** One cell, as the CSV reader left it (outer quotes removed). */
function isFormulaCell(cell: string): boolean {
  // csvRows trims cells already; trimming again covers a caller holding a raw one.
  const value = cell.trimStart();
  return FORMULA_START.test(value) && !SIGNED_NUMBER.test(value) && !SIGNS_ONLY.test(value);
}

export function hasFormulaCells(text: string): boolean {
  return DELIMITERS.some((delimiter) => csvRows(text, delimiter).some((row) => row.some(isFormulaCell)));
}
