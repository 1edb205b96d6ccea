/** The working set's posts on a deal (assign, note), through the kit's one form action: act and 303, or the deal page again with the refusal. */
import type { Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { normaliseDealReference } from "../../../domain/deals/reference";
import { scopeOfViewer } from "../../../domain/portal/viewer";
import { addDealNote, assignDeal } from "../../../services/deals/working-set";
import { recordPortalAction } from "../../../services/portal/audit";
import { formAction, textFields, type FormFields } from "../../kit/form";
import { PORTAL_ROUTE, type PortalContext, type PortalEnv } from "../context";
import { notFoundPage } from "../refused-page";
import type { DealForm } from "./fields";
import { renderDeal } from "./render-deal";

const refOf = (c: PortalContext) => normaliseDealReference(c.req.param("ref") ?? "");

const page = (form: DealForm, act: (c: PortalContext, fields: FormFields) => Promise<string>) =>
  formAction<PortalContext, FormFields>({
    draftOf: (posted) => textFields(posted),
    notFound: (c) => c.html(notFoundPage(), 404),
    act: (c, posted) => act(c, textFields(posted)),
    showAgain: (c, refusal, draft) => renderDeal(c, refOf(c), refusal.status as ContentfulStatusCode, { refusal: { ...refusal, form, draft } }),
  });

export function registerWorkingSetActions(portal: Hono<PortalEnv>) {
  portal.post(
    "/deals/:ref/assign",
    page("assign", async (c, fields) => {
      const viewer = c.get("viewer");
      const ref = await assignDeal(c.get("deps"), scopeOfViewer(viewer), refOf(c), fields.assignee ?? "");
      await recordPortalAction(c.get("deps"), viewer, "deal.assigned", ref);
      return `${PORTAL_ROUTE}/deals/${ref}?notice=assigned#working`;
    }),
  );
  portal.post(
    "/deals/:ref/notes",
    page("note", async (c, fields) => {
      const viewer = c.get("viewer");
      const scope = scopeOfViewer(viewer);
      const id = await addDealNote(c.get("deps"), scope, viewer.memberId, refOf(c), fields.note_body ?? "");
      await recordPortalAction(c.get("deps"), viewer, "deal.note_added", id);
      return `${PORTAL_ROUTE}/deals/${refOf(c)}?notice=note_added#working`;
    }),
  );
}
