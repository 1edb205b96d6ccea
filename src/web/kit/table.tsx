/**
 * The one table of records for every portal list (issue 23 item 14): a plain
 * table from 600 px up; below it each row becomes a card, each cell a line led
 * by its column's name (`data-label`), so nothing scrolls sideways and no button
 * is cut in half. On a wide screen a cell breaks only a word too long for its
 * column (`overflow-wrap: break-word`, which leaves the column's width alone),
 * never inside an ordinary word: `anywhere` let the table squeeze a column
 * below its words' width, so "Amount" read "Amo unt" at 1280 px. On a phone the cards may break anywhere, as nothing sits beside them.
 * A row that is no longer in force (a revoked key, a removed
 * endpoint) says so in words and is drawn muted, so it never looks live.
 */
import type { Child } from "hono/jsx";

interface Column<Row> {
  /** The column's heading, and the label of the cell's line on a phone. */
  header: string;
  cell: (row: Row) => Child;
  /** The cell that names the row (a `<th scope="row">`): the card's title on a phone. */
  rowHeader?: boolean;
  /** A column of buttons: no heading text needed on a phone, and its buttons take the card's width. */
  actions?: boolean;
}

interface RecordTableProps<Row> {
  /** What the rows are ("API keys"): the table's accessible name. */
  label: string;
  caption?: string;
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  /** A row no longer in force: named in words (it is read out and shown on the card), and drawn muted. */
  inactive?: (row: Row) => string | null | undefined;
  /** `data-*` attributes of a row (`{ offer: id }` → `data-offer="…"`), for scripts and tests to find it by. */
  rowData?: (row: Row) => Record<string, string>;
}

export const TABLE_STYLE = `table.records{border-collapse:collapse;width:100%}table.records caption{text-align:left}
table.records td,table.records th{border-bottom:1px solid #dde;padding:.35rem .5rem;text-align:left;vertical-align:top;overflow-wrap:break-word}
table.records tr.inactive td,table.records tr.inactive th{color:#555;background:#f3f3f3}.inactive-mark{display:inline-block;font-weight:600;font-size:.85rem;border:1px solid #555;border-radius:.2rem;padding:0 .35rem;margin-left:.4rem;color:#333;background:#fff}
table.records td.actions form{display:inline-block;margin:0 .4rem .4rem 0}table.records td.actions button{margin-top:0}
@media (max-width:37.5rem){table.records,table.records tbody,table.records tr,table.records td,table.records th{display:block;width:100%}
table.records thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
table.records tr{border:1px solid #c9cde0;border-radius:.4rem;padding:.5rem .7rem;margin:0 0 .8rem}
table.records tr.inactive{border-style:dashed;background:#f3f3f3}
table.records td,table.records th{border:0;padding:.15rem 0;overflow-wrap:anywhere}table.records th[scope=row]{font-size:1.05rem}
table.records td[data-label]::before{content:attr(data-label) ": ";font-weight:600;color:#3d4354}
table.records td.actions form,table.records td.actions a.button{display:block;margin:.3rem 0 0}table.records td.actions button,table.records td.actions a.button{width:100%;min-height:2.75rem;text-align:center}}`;

/** The records as a table (cards on a phone). The region scrolls on its own if a wide cell ever outgrows the page. */
export function RecordTable<Row>(props: RecordTableProps<Row>) {
  // The "no longer in force" mark goes beside the row's name, or in the first cell when no column names the row.
  const marked = Math.max(0, props.columns.findIndex((column) => column.rowHeader));
  return (
    <div class="table-wrap" role="region" aria-label={props.label} tabindex={0}>
      <table class="records">
        {props.caption ? <caption class="muted">{props.caption}</caption> : null}
        <thead>
          <tr>
            {props.columns.map((column) => (
              <th scope="col">{column.actions ? <span class="muted">{column.header}</span> : column.header}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((row) => {
            const inactive = props.inactive?.(row) ?? null;
            return (
              <tr class={inactive ? "inactive" : undefined} {...Object.fromEntries(Object.entries(props.rowData?.(row) ?? {}).map(([name, value]) => [`data-${name}`, value]))}>
                {props.columns.map((column, index) => {
                  const mark = inactive && index === marked ? <span class="inactive-mark">{inactive}</span> : null;
                  return column.rowHeader ? (
                    <th scope="row">
                      {column.cell(row)}
                      {mark}
                    </th>
                  ) : (
                    <td data-label={column.actions ? undefined : column.header} class={column.actions ? "actions" : undefined}>
                      {column.cell(row)}
                      {mark}
                    </td>
                  );
                })}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
