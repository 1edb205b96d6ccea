import type { Router } from "../../router";
import { allOrganisations, createOrganisation, describeOrganisation, issueKey, requireOrganisation, revokeClientKey } from "../../../services/identity/organisations";
import { createKeyRoute, createOrganisationRoute, getOrganisationRoute, listOrganisationsRoute, revokeKeyRoute } from "./routes";

const summary = (o: { id: string; name: string; kind: "partner" | "lender"; createdAt: string }) => ({
  id: o.id,
  name: o.name,
  kind: o.kind,
  created_at: o.createdAt,
});

export function registerOrganisationRoutes(router: Router) {
  router.openapi(createOrganisationRoute, async (c) => {
    const organisation = await createOrganisation(c.get("deps"), c.req.valid("json"));
    return c.json(summary(organisation), 201);
  });

  router.openapi(listOrganisationsRoute, async (c) => {
    const organisations = await allOrganisations(c.get("deps"));
    return c.json({ organisations: organisations.map(summary) }, 200);
  });

  router.openapi(getOrganisationRoute, async (c) => {
    const deps = c.get("deps");
    const organisation = await requireOrganisation(deps, c.req.valid("param").id);
    return c.json(await describeOrganisation(deps, organisation), 200);
  });

  router.openapi(createKeyRoute, async (c) => {
    const issued = await issueKey(c.get("deps"), c.req.valid("param").id, c.req.valid("json"));
    c.header("Cache-Control", "no-store");
    const { kind: _kind, ...body } = issued;
    return c.json(body, 201);
  });

  router.openapi(revokeKeyRoute, async (c) => {
    await revokeClientKey(c.get("deps"), c.req.valid("param").client_id);
    return c.body(null, 204);
  });
}
