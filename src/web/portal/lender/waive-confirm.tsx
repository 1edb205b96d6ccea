/** The question before a lender waives a document request (it cannot be undone): GET …/requests/{id}/waive. */
import type { Hono } from "hono";
import { normaliseDealReference } from "../../../domain/deals/reference";
import { scopeOfViewer } from "../../../domain/portal/viewer";
import { dealRequests } from "../../../services/documents/requests";
import { CONFIRMED, Confirm } from "../../kit/confirm";
import { Refusal } from "../../../lib/refusal";
import { PORTAL_ROUTE, type PortalEnv } from "../context";
import { PortalPage } from "../layout";

/** The request states a lender may waive (the service refuses the others). */
const WAIVABLE = ["requested", "uploaded"];

export function registerWaiveConfirmation(portal: Hono<PortalEnv>) {
  portal.get("/deals/:ref/requests/:id/waive", async (c) => {
    const viewer = c.get("viewer");
    const ref = normaliseDealReference(c.req.param("ref"));
    const id = c.req.param("id");
    // Another lender's deal or the other environment's: not_found, the same 404 page as an unknown one (the portal's error handler).
    const { requests } = await dealRequests(c.get("deps"), scopeOfViewer(viewer), ref);
    const request = requests.find((r) => r.id === id && WAIVABLE.includes(r.status));
    if (!request) throw new Refusal("not_found", "No such open request.");
    const uploaded = request.file_count > 0 ? ` The ${request.file_count === 1 ? "file" : `${request.file_count} files`} already uploaded for it stay on the deal.` : "";
    return c.html(
      <PortalPage title="Waive this document request?" viewer={viewer} formToken={c.get("formToken")}>
        <Confirm
          question={`Stop asking the client for ${request.label}?`}
          facts={[
            ["Document", request.label],
            ["Deal", ref],
          ]}
          consequence={`The client will no longer be asked for ${request.label} on deal ${ref}.${uploaded}`}
          irreversible
          next="a waived request cannot be reopened: ask again with a new request if you need the document after all."
          action={`${PORTAL_ROUTE}/deals/${ref}/requests/${request.id}/waive`}
          hidden={{ _form_token: c.get("formToken"), ...CONFIRMED }}
          confirmLabel="Waive the request"
          cancelHref={`${PORTAL_ROUTE}/deals/${ref}#requests`}
          cancelLabel="Cancel, keep it"
        />
      </PortalPage>,
    );
  });
}
