/**
 * A lead's figures as the matcher reads them at submit: the same sources the
 * partner's view shows (parsed statements, the register's stored answer, the
 * applicant), through the one precedence rule, plus the register answer
 * itself for the matcher's activity check.
 */
import type { Database } from "../db/client";
import { documentsOfLead } from "../db/documents";
import { statementFigures } from "../domain/documents/statements";
import type { Lead } from "../domain/leads/types";
import { leadFigures } from "../domain/leads/view";
import type { Market } from "../domain/reference/markets";
import { registerViewOf } from "./register-holdings";

export async function figuresForMatching(db: Database, lead: Lead, market: Market) {
  const [register, documents] = await Promise.all([registerViewOf(db, lead.id), documentsOfLead(db, lead.id)]);
  const figures = leadFigures(lead, market, { register: register.figures, statements: statementFigures(documents) });
  return { figures, registry: register.answers.registry };
}
