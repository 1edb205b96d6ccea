/**
 * What the lender's deal page shows beyond the API's deal view (issue 45 item 6): the introducing
 * firm's name, the directors side by side, and the latest statement's months. Read in the same
 * scoped round trip as the view; nothing here is in the lender API or its webhooks.
 */
import type { Scope } from "../../domain/identity/caller";
import { directorsSideBySide } from "../../domain/deals/directors";
import { statementMonths } from "../../domain/documents/statements";
import { findOrganisation } from "../../db/identity/organisations";
import type { ViewContext } from "../views/view-context";
import { loadDealWithSources } from "./reads";

export async function loadDealForUnderwriting(ctx: ViewContext, scope: Scope, ref: string) {
  const found = await loadDealWithSources(ctx, scope, ref);
  if (!found) return null;
  const { deal, view } = found;
  // The firm that introduced the deal is the partner organisation of its lead (a test deal has none).
  const introducer = deal.partnerOrganisationId ? await findOrganisation(ctx.db, deal.partnerOrganisationId) : null;
  const market = view.market as { significant_persons?: { full_name: string; date_of_birth: string | null; ownership_percent: number | null }[] };
  const registry = view.market.registry;
  return {
    view,
    introducedBy: introducer?.name ?? null,
    directors: directorsSideBySide(market.significant_persons ?? [], registry && registry.status === "available" ? registry.directors : null),
    statements: statementMonths(found.documents),
  };
}

export type DealForUnderwriting = NonNullable<Awaited<ReturnType<typeof loadDealForUnderwriting>>>;
