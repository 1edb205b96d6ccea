/**
 * What would add options for a submitted lead: prequalification's unlocks and the products'
 * requirements it lacks (`needs`), on the options still open to it, from the same figures and
 * holdings submit matched on. Nothing is named but fields.
 */
import type { LeadWithRelations } from "../../db/leads/with-relations";
import { matcherFacts } from "../../domain/deals/facts";
import { ALREADY_INTRODUCED } from "../../domain/leads/attribution";
import { outlookOnOpenOptions } from "../../domain/panel/unlocks";
import { marketFor } from "../../domain/reference/markets";
import type { Deps } from "../deps";
import { currentPanel } from "../panel/panel-cache";
import { figuresFrom } from "./figures";
import { leadFacts } from "./routing";

export async function openOutlook(deps: Deps, { lead, routing, routedOptions, registerAnswers, documents }: Pick<LeadWithRelations, "lead" | "routing" | "routedOptions" | "registerAnswers" | "documents">) {
  // A company another participant introduced is routed to no lender whatever its figures (docs/leads.md, "Attribution").
  if (routing?.reasons.some((r) => r.code === ALREADY_INTRODUCED.code)) return { unlocks: [], needs: [] };
  const market = marketFor(lead.country);
  const { figures, registry } = figuresFrom(deps, lead, market, registerAnswers, documents);
  const declinedBy = routedOptions.filter((o) => o.lenderStatus === "declined").map((o) => o.lenderOrganisationId);
  return outlookOnOpenOptions(matcherFacts(leadFacts(lead, market, figures, registry, documents)), await currentPanel(deps), declinedBy);
}
