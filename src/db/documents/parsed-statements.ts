/**
 * Whether an accepted, parsed bank statement exists among some documents,
 * written as a correlated subquery so a list page answers it per row in the
 * page's own query (the deal list's and the lead list's `statements_available`).
 */
import { sql, type SQL } from "drizzle-orm";
import { documents } from "../schema/documents";

/** Qualified by hand: drizzle writes bare column names in a one-table select, and documents shares column names (lead_id) with the outer tables. */
export const qualified = (table: string, column: { name: string }) => sql`${sql.identifier(table)}.${sql.identifier(column.name)}`;
export const documentColumn = (column: { name: string }) => qualified("documents", column);

/** `visible`: which documents count, correlated with the outer row (e.g. `documents.lead_id = leads.id`). */
export const parsedStatementExists = (visible: SQL) =>
  sql<number>`exists (select 1 from ${documents} where ${documentColumn(documents.state)} = 'accepted' and ${documentColumn(documents.statement)} is not null and (${visible}))`;
