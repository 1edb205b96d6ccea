/**
 * A lead's figures as the matcher reads them at submit: the same sources the
 * partner's view shows (parsed statements, the register's stored answer, the
 * applicant), through the one precedence rule, plus the register answer
 * itself for the matcher's activity check.
 */
import type { Deps } from "../deps";
import { documentsOfLead } from "../../db/documents/documents";
import type { RegisterAnswerRow } from "../../db/schema/registers";
import type { StoredDocument } from "../../domain/documents/types";
import { statementFigures } from "../../domain/documents/statements";
import type { Lead } from "../../domain/leads/types";
import { leadFigures } from "../../domain/leads/view";
import type { Market } from "../../domain/reference/markets";
import { answersOf } from "../../db/registers/answers";
import { registerViewFrom } from "../registers/holdings";

/** The figures from what is already read (submit reads the lead, its documents and its answers in one batch). */
export function figuresFrom(deps: Deps, lead: Lead, market: Market, registerAnswers: RegisterAnswerRow[], documents: StoredDocument[]) {
  const register = registerViewFrom(registerAnswers, deps.clock());
  const figures = leadFigures(lead, market, { register: register.figures, statements: statementFigures(documents) });
  return { figures, registry: register.answers.registry };
}

export async function figuresForMatching(deps: Deps, lead: Lead, market: Market) {
  const { db } = deps;
  const [registerAnswers, documents] = await Promise.all([answersOf(db, lead.id), documentsOfLead(db, lead.id)]);
  return { ...figuresFrom(deps, lead, market, registerAnswers, documents), documents };
}
