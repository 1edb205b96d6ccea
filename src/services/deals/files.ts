/** The documents a lender sees on a deal, each with its signed download link. */
import { documentsOfDeal } from "../../db/documents/documents";
import type { Deal } from "../../domain/deals/types";
import type { DealFiles } from "../../domain/deals/view";
import type { StoredDocument } from "../../domain/documents/types";
import { dealDocumentView } from "../../domain/documents/view";
import type { ViewContext } from "../views/view-context";

export async function dealFiles(ctx: ViewContext, deal: Pick<Deal, "ref" | "leadId">): Promise<DealFiles> {
  return signedFiles(ctx, await documentsOfDeal(ctx.db, deal));
}

/** Documents already read (see db/deals/with-relations.ts), each with its signed link. */
export async function signedFiles(ctx: ViewContext, stored: StoredDocument[]): Promise<DealFiles> {
  const views = await Promise.all(stored.map(async (d) => dealDocumentView(d, await ctx.links.file(d.storageKey))));
  return { stored, views };
}
