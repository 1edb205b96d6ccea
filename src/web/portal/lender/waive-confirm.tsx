/** The question before a lender waives a document request (it cannot be undone): GET …/requests/{id}/waive. */
import type { Hono } from "hono";
import { normaliseDealReference } from "../../../domain/deals/reference";
import { scopeOfViewer } from "../../../domain/portal/viewer";
import { dealRequests } from "../../../services/documents/requests";
import { isNotFound } from "../../kit/refusal";
import { PORTAL_ROUTE, type PortalEnv } from "../context";
import { notFoundPage } from "../refused-page";
import { ConfirmPage } from "./confirm";

/** The request states a lender may waive (the service refuses the others). */
const WAIVABLE = ["requested", "uploaded"];

export function registerWaiveConfirmation(portal: Hono<PortalEnv>) {
  portal.get("/deals/:ref/requests/:id/waive", async (c) => {
    const viewer = c.get("viewer");
    const ref = normaliseDealReference(c.req.param("ref"));
    const id = c.req.param("id");
    let requests: Awaited<ReturnType<typeof dealRequests>>["requests"];
    try {
      ({ requests } = await dealRequests(c.get("db"), scopeOfViewer(viewer), ref));
    } catch (error) {
      // Another lender's deal or the other environment's: the same 404 as an unknown one.
      if (isNotFound(error)) return c.html(notFoundPage(), 404);
      throw error;
    }
    const request = requests.find((r) => r.id === id && WAIVABLE.includes(r.status));
    if (!request) return c.html(notFoundPage(), 404);
    return c.html(
      <ConfirmPage
        viewer={viewer}
        formToken={c.get("formToken")}
        title="Waive this document request?"
        action={`${PORTAL_ROUTE}/deals/${ref}/requests/${request.id}/waive`}
        confirmLabel="Waive the request"
        cancelHref={`${PORTAL_ROUTE}/deals/${ref}#requests`}
      >
        <p>
          The client will no longer be asked for <strong>{request.label}</strong> on deal {ref}
          {request.file_count > 0 ? `; the ${request.file_count} file(s) already uploaded stay on the deal` : ""}. A waived request cannot be reopened: ask again with a new
          request if you need the document after all.
        </p>
      </ConfirmPage>,
    );
  });
}
