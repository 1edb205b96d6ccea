/**
 * Which database a table is in (docs/capacity.md, "Which database a table belongs to"):
 * the rule the routed client of client.ts applies to each statement.
 */

/**
 * The control tables: what a request reads before it knows its environment (the organisation, its keys
 * and tokens, the panel, the portal's members, passkeys, invitations, sessions, challenges, form uses, refused posts' pages),
 * and configuration both environments share (commission terms, priced per panel product: the panel is
 * control). Every other table, and so every new one unless it is added here, is environment-scoped data
 * and lives in the environment's database: leads and everything of a lead (routing, offers, deals,
 * messages, documents and requests, claims, register answers, hub links, application links), deals'
 * notes (the lender's working set on a deal), events, endpoints, deliveries and attempts, idempotency
 * records, pending uploads, and the commission ledger and disclosures (written in the batch of the
 * funded report or the offer's showing that caused them).
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
  "refused_posts",
  "commission_terms",
]);

/**
 * Tables in every database: the portal's audit log. An action's entry is written in the action's own
 * batch (db/portal/audit.ts `auditingDatabase`; a batch is one database's transaction), so it lives in
 * the database of the rows the action changed: a member, key or invitation change's in the control
 * database, a sandbox lead's or deal's in the sandbox's. A statement naming only these tables goes with
 * the other statements of its batch (or the tables beside it in the statement), and on its own to the
 * control database; the audit views read every database and merge by time (services/portal/members.ts).
 */
export const EVERY_DATABASE_TABLES: ReadonlySet<string> = new Set(["portal_audit_log"]);

/** A table named by a statement: after `from`, `join`, `into` or `update` (drizzle quotes it, hand-written SQL may not). */
const TABLE_REFERENCE = /\b(?:from|join|into|update)\s+[`"[]?(\w+)/gi;

export type Side = "control" | "data";

/**
 * Which database a statement's tables are in: `mixed` when it names both (a join to split), `either`
 * when it names only tables kept in every database (it goes where its batch goes).
 */
export function sideOfStatement(sql: string): Side | "mixed" | "either" {
  let control = false;
  let data = false;
  let everywhere = false;
  for (const match of sql.matchAll(TABLE_REFERENCE)) {
    const table = match[1]!.toLowerCase();
    if (EVERY_DATABASE_TABLES.has(table)) everywhere = true;
    else if (CONTROL_TABLES.has(table)) control = true;
    else data = true;
  }
  if (control && data) return "mixed";
  if (everywhere && !control && !data) return "either";
  return control ? "control" : "data";
}

/** Refused: a statement or batch over both databases cannot run in either (split it into one read per database). */
export class CrossDatabaseStatement extends Error {
  constructor(what: string) {
    super(`${what} names control tables and environment data, which live in different databases; read each from its own (docs/capacity.md, "Which database a table belongs to").`);
    this.name = "CrossDatabaseStatement";
  }
}

