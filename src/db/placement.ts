/**
 * Which database a table is in (issue 40 item 3; docs/capacity.md, "Which database a table belongs to"):
 * the rule the routed client of client.ts applies to each statement.
 */

/**
 * The control tables: what a request reads before it knows its environment (the organisation, its keys
 * and tokens, the panel, the portal's members, passkeys, invitations, sessions, challenges, form uses)
 * and the portal's audit log, written in one batch with member changes. Every other table, and so every
 * new one unless it is added here, is environment-scoped data and lives in the environment's database.
 */
export const CONTROL_TABLES: ReadonlySet<string> = new Set([
  "organisations",
  "api_keys",
  "access_tokens",
  "panel_products",
  "portal_members",
  "portal_invitations",
  "portal_passkeys",
  "portal_replaced_passkeys",
  "portal_challenges",
  "portal_sessions",
  "portal_form_uses",
  "portal_audit_log",
]);

/** A table named by a statement: after `from`, `join`, `into` or `update` (drizzle quotes it, hand-written SQL may not). */
const TABLE_REFERENCE = /\b(?:from|join|into|update)\s+[`"[]?(\w+)/gi;

export type Side = "control" | "data";

/** Which database a statement's tables are in: `mixed` when it names both (a join to split). */
export function sideOfStatement(sql: string): Side | "mixed" {
  let control = false;
  let data = false;
  for (const match of sql.matchAll(TABLE_REFERENCE)) {
    if (CONTROL_TABLES.has(match[1]!.toLowerCase())) control = true;
    else data = true;
  }
  if (control && data) return "mixed";
  return control ? "control" : "data";
}

/** Refused: a statement or batch over both databases cannot run in either (split it into one read per database). */
export class CrossDatabaseStatement extends Error {
  constructor(what: string) {
    super(`${what} names control tables and environment data, which live in different databases; read each from its own (docs/capacity.md, "Which database a table belongs to").`);
    this.name = "CrossDatabaseStatement";
  }
}

