/**
 * The working set's posts on a deal (assign, note), the portal's one form shape (form-action.ts):
 * act, audited in the action's batch, and 303, or the deal page again with the refusal.
 */
import type { Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { normaliseDealReference } from "../../../domain/deals/reference";
import { scopeOfViewer } from "../../../domain/portal/viewer";
import { addDealNote, assignDeal } from "../../../services/deals/working-set";
import type { AuditedAction } from "../../../services/portal/audit";
import { textFields, type FormFields } from "../../kit/form";
import { PORTAL_ROUTE, type PortalContext, type PortalEnv } from "../context";
import { portalForm } from "../form-action";
import type { DealForm } from "./fields";
import { renderDeal } from "./render-deal";

const refOf = (c: PortalContext) => normaliseDealReference(c.req.param("ref") ?? "");

const page = (form: DealForm, action: string, act: (c: PortalContext, fields: FormFields, entry: Pick<AuditedAction, "about">) => Promise<string>) =>
  portalForm<FormFields>({
    audit: (c) => ({ action, target: refOf(c) }),
    draftOf: (posted) => textFields(posted),
    act: (c, posted, entry) => act(c, textFields(posted), entry),
    showAgain: (c, refusal, draft) => renderDeal(c, refOf(c), refusal.status as ContentfulStatusCode, { refusal: { ...refusal, form, draft } }),
    page: (c) => `${PORTAL_ROUTE}/deals/${refOf(c)}`,
  });

export function registerWorkingSetActions(portal: Hono<PortalEnv>) {
  portal.post(
    "/deals/:ref/assign",
    page("assign", "deal.assigned", async (c, fields) => {
      const ref = await assignDeal(c.get("deps"), scopeOfViewer(c.get("viewer")), refOf(c), fields.assignee ?? "");
      return `${PORTAL_ROUTE}/deals/${ref}?notice=assigned#working`;
    }),
  );
  portal.post(
    "/deals/:ref/notes",
    page("note", "deal.note_added", async (c, fields, entry) => {
      const viewer = c.get("viewer");
      entry.about(await addDealNote(c.get("deps"), scopeOfViewer(viewer), viewer.memberId, refOf(c), fields.note_body ?? ""));
      return `${PORTAL_ROUTE}/deals/${refOf(c)}?notice=note_added#working`;
    }),
  );
}
