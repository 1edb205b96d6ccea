import { scopeOf } from "../../../domain/identity/caller";
import type { Router } from "../../router";
import { dealDocuments, dealRequests, requestDocument, requestFiles, waiveRequest } from "../../../services/documents/requests";
import { viewContext } from "../../../services/views/view-context";
import { createRequestRoute, listDocumentsRoute, listRequestsRoute, requestFilesRoute, waiveRequestRoute } from "./routes";

export function registerDocumentRoutes(router: Router) {
  router.openapi(createRequestRoute, async (c) => {
    const request = await requestDocument(c.get("deps"), scopeOf(c.get("caller")), c.req.valid("param").ref, c.req.valid("json"));
    return c.json({ request }, 200);
  });

  router.openapi(listRequestsRoute, async (c) => c.json(await dealRequests(c.get("deps"), scopeOf(c.get("caller")), c.req.valid("param").ref), 200));

  router.openapi(requestFilesRoute, async (c) => {
    const { ref, id } = c.req.valid("param");
    return c.json(await requestFiles(viewContext(c.env, { deps: c.get("deps") }), scopeOf(c.get("caller")), ref, id), 200);
  });

  router.openapi(waiveRequestRoute, async (c) => {
    const { ref, id } = c.req.valid("param");
    return c.json({ request: await waiveRequest(c.get("deps"), scopeOf(c.get("caller")), ref, id) }, 200);
  });

  router.openapi(listDocumentsRoute, async (c) => c.json(await dealDocuments(viewContext(c.env, { deps: c.get("deps") }), scopeOf(c.get("caller")), c.req.valid("param").ref), 200));
}
