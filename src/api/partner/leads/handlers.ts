import { scopeOf } from "../../../domain/identity/caller";
import { personView } from "../../../domain/leads/person-view";
import { leadSteps, leadSummary } from "../../../domain/leads/view";
import type { Router } from "../../router";
import { presentLead, presentNewLead, presentVersionedLead, readVersionedLead } from "../../../services/leads/presentation";
import { Refusal } from "../../../lib/refusal";
import { viewContext } from "../../../services/views/view-context";
import { panelMatcher } from "../../../services/leads/routing";
import { amendLead, openLead, pageOfLeads, replaceSignificantPersons, requireLead, submitLead } from "../../../services/leads/leads";
import { createLeadRoute, getLeadRoute, listLeadsRoute, patchLeadRoute, putSignificantPersonsRoute, renewLeadRoute, rotateHubLinkRoute, submitLeadRoute } from "./routes";
import { renewLead } from "../../../services/leads/renewals";
import { rotateLeadHubLink } from "../../../services/hub/hub-links";

export function registerLeadRoutes(router: Router) {
  router.openapi(createLeadRoute, async (c) => {
    const { country, ...parts } = c.req.valid("json");
    const ctx = viewContext(c.env, { deps: c.get("deps") });
    const lead = await openLead(c.get("deps"), { scope: scopeOf(c.get("caller")), market: country, parts });
    c.header("Location", new URL(`${c.req.path}/${lead.id}`, c.req.url).toString());
    return c.json(await presentNewLead(ctx, lead), 201);
  });

  router.openapi(getLeadRoute, async (c) => {
    const { view, version } = await readVersionedLead(viewContext(c.env, { deps: c.get("deps") }), scopeOf(c.get("caller")), c.req.valid("param").id);
    c.header("ETag", etagOf(version));
    return c.json(view, 200);
  });

  router.openapi(patchLeadRoute, async (c) => {
    const ctx = viewContext(c.env, { deps: c.get("deps") });
    const expected = versionOfIfMatch(c.req.header("If-Match"));
    const lead = await amendLead(c.get("deps"), scopeOf(c.get("caller")), c.req.valid("param").id, c.req.valid("json"), expected);
    const { view, version } = await presentVersionedLead(ctx, lead);
    c.header("ETag", etagOf(version));
    return c.json(view, 200);
  });

  router.openapi(putSignificantPersonsRoute, async (c) => {
    const { significant_persons } = c.req.valid("json");
    const lead = await replaceSignificantPersons(c.get("deps"), scopeOf(c.get("caller")), c.req.valid("param").id, significant_persons);
    return c.json({ id: lead.id, significant_persons: lead.significantPersons.map(personView), steps: leadSteps(lead) }, 200);
  });

  router.openapi(submitLeadRoute, async (c) => {
    const { lead, alreadySubmitted, needs } = await submitLead(c.get("deps"), scopeOf(c.get("caller")), c.req.valid("param").id, panelMatcher(c.get("deps")));
    return c.json(
      {
        id: lead.id,
        reference: lead.reference,
        state: lead.state,
        matched_options: lead.matchedOptions ?? 0,
        options: lead.options ?? [],
        already_submitted: alreadySubmitted,
        submitted_at: lead.submittedAt!,
        needs,
      },
      200,
    );
  });

  router.openapi(renewLeadRoute, async (c) => {
    // The request's database: under an Idempotency-Key it spends the key in the renewal's batch (deps carries it).
    const ctx = viewContext(c.env, { deps: c.get("deps") });
    const renewal = await renewLead(c.get("deps"), scopeOf(c.get("caller")), c.req.valid("param").id);
    // The path ends /leads/{id}/renewals: the new lead lives beside the one it renews.
    c.header("Location", new URL(c.req.path.replace(/[^/]+\/renewals\/?$/, renewal.id), c.req.url).toString());
    return c.json(await presentLead(ctx, renewal), 201);
  });

  router.openapi(rotateHubLinkRoute, async (c) => {
    const ctx = viewContext(c.env, { deps: c.get("deps") });
    return c.json(await rotateLeadHubLink(ctx, ctx.links, scopeOf(c.get("caller")), c.req.valid("param").id), 200);
  });

  router.openapi(listLeadsRoute, async (c) => {
    const { state, market, cursor, limit } = c.req.valid("query");
    const page = await pageOfLeads(c.get("deps"), scopeOf(c.get("caller")), { state, country: market?.country }, cursor, limit);
    return c.json({ leads: page.leads.map(leadSummary), next_cursor: page.nextCursor }, 200);
  });
}

/** A lead's version as an entity tag (strong: the version changes with every write to the draft). */
const etagOf = (version: number) => `"${version}"`;

/**
 * The version an If-Match names: undefined without one or for `*` (any version). One tag only,
 * strong or weak (`"7"`, `W/"7"`); anything else is 400 naming the header.
 */
function versionOfIfMatch(header: string | undefined): number | undefined {
  const value = header?.trim();
  if (!value || value === "*") return undefined;
  const tag = /^(?:W\/)?"(\d{1,15})"$/.exec(value);
  if (!tag) throw new Refusal("invalid_request", 'If-Match must be one entity tag as the lead\'s ETag gives it, such as "7", or *.', { field: "header.If-Match" });
  return Number(tag[1]);
}
