import { scopeOf } from "../../../domain/identity/caller";
import { publishedTextVersion } from "../../../domain/leads/consent-texts";
import { Refusal } from "../../../lib/refusal";
import { applicationLinkOf, createApplicationLink, revokeApplicationLink } from "../../../services/application-link/application-links";
import type { Router } from "../../router";
import { createApplicationLinkRoute, getApplicationLinkRoute, getConsentTextRoute, revokeApplicationLinkRoute } from "./routes";

export function registerApplicationLinkRoutes(router: Router) {
  router.openapi(createApplicationLinkRoute, async (c) => {
    const link = await createApplicationLink(c.get("deps"), scopeOf(c.get("caller")), c.req.valid("param").id, c.req.valid("json"));
    return c.json(link, 201);
  });

  router.openapi(getApplicationLinkRoute, async (c) => c.json(await applicationLinkOf(c.get("deps"), scopeOf(c.get("caller")), c.req.valid("param").id), 200));

  router.openapi(revokeApplicationLinkRoute, async (c) => c.json(await revokeApplicationLink(c.get("deps"), scopeOf(c.get("caller")), c.req.valid("param").id), 200));

  router.openapi(getConsentTextRoute, async (c) => {
    const version = publishedTextVersion(c.req.valid("param").version);
    if (!version) throw new Refusal("not_found", "No consent text or commission disclosure of that version.");
    return c.json({ kind: version.kind, version: version.version, published_at: version.published_at, texts: version.texts.map((t) => ({ locale: t.locale, text: t.text, sha256: t.sha256 })) }, 200);
  });
}
