/** The documents a lender sees on a deal, each with its signed download link. */
import { documentsOfDeal } from "../db/documents";
import type { Deal } from "../domain/deals/types";
import type { DealFiles } from "../domain/deals/view";
import { dealDocumentView } from "../domain/documents/view";
import type { ViewContext } from "./view-context";

export async function dealFiles(ctx: ViewContext, deal: Pick<Deal, "ref" | "leadId">): Promise<DealFiles> {
  const stored = await documentsOfDeal(ctx.db, deal);
  const views = await Promise.all(stored.map(async (d) => dealDocumentView(d, await ctx.links.file(d.storageKey))));
  return { stored, views };
}
