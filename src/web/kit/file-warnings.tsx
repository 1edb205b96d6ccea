/**
 * What a page says beside a file before anyone opens it. A CSV with formula cells is served as it
 * came (src/domain/documents/formula-cells.ts): a spreadsheet would run `=HYPERLINK(…)` or `=cmd|…`
 * when the file is opened, so the person is told first, in words, next to the download link.
 */
export const FILE_WARNING_STYLE = `.file-warning{display:block;margin-top:.2rem;font-weight:600;color:#8a4b00}`;

export function FormulaCellsWarning(props: { flagged: boolean }) {
  if (!props.flagged) return null;
  return (
    <span class="file-warning" data-formula-cells="true">
      Contains formula cells: a spreadsheet could run them. Open it in a text editor, or import it with formulas turned off.
    </span>
  );
}
