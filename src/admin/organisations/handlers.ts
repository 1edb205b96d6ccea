import { database } from "../../db/client";
import { revokeKey } from "../../db/keys";
import { forgetKey } from "../../services/key-authority";
import { listOrganisations } from "../../db/organisations";
import { ApiError } from "../../lib/errors";
import { nowIso } from "../../lib/ids";
import type { Router } from "../../lib/router";
import { createOrganisation, describeOrganisation, issueKey, requireOrganisation } from "../../services/organisations";
import { createKeyRoute, createOrganisationRoute, getOrganisationRoute, listOrganisationsRoute, revokeKeyRoute } from "./routes";

const summary = (o: { id: string; name: string; kind: "partner" | "lender"; createdAt: string }) => ({
  id: o.id,
  name: o.name,
  kind: o.kind,
  created_at: o.createdAt,
});

export function registerOrganisationRoutes(router: Router) {
  router.openapi(createOrganisationRoute, async (c) => {
    const organisation = await createOrganisation(database(c.env.DB), c.req.valid("json"));
    return c.json(summary(organisation), 201);
  });

  router.openapi(listOrganisationsRoute, async (c) => {
    const organisations = await listOrganisations(database(c.env.DB));
    return c.json({ organisations: organisations.map(summary) }, 200);
  });

  router.openapi(getOrganisationRoute, async (c) => {
    const db = database(c.env.DB);
    const organisation = await requireOrganisation(db, c.req.valid("param").id);
    return c.json(await describeOrganisation(db, organisation), 200);
  });

  router.openapi(createKeyRoute, async (c) => {
    const issued = await issueKey(database(c.env.DB), c.req.valid("param").id, c.req.valid("json"));
    c.header("Cache-Control", "no-store");
    const { kind: _kind, ...body } = issued;
    return c.json(body, 201);
  });

  router.openapi(revokeKeyRoute, async (c) => {
    const clientId = c.req.valid("param").client_id;
    const revoked = await revokeKey(database(c.env.DB), clientId, nowIso());
    // D1 is the record; the key's Durable Object is told before the answer, so the very next request is refused.
    // Also when D1 says "already revoked": a previous attempt may have failed between the two steps.
    await forgetKey(c.env, clientId);
    if (!revoked) throw new ApiError("not_found", "No active key with that client_id.");
    return c.body(null, 204);
  });
}
