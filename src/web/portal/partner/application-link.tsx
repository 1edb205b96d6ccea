/**
 * "Send to the client to fill in" on the partner's lead page: the application link's state
 * and a form that makes a new link through the API's own service (createApplicationLink, as POST
 * /partner/v1/leads/{id}/application-link), so the result is the same. The answer page shows the link
 * once, in the kit's copy control; afterwards only its state is shown (the token is stored hashed).
 * Self-contained: the lead page includes `ApplicationLinkSection`, pages.tsx registers the post.
 */
import type { Hono } from "hono";
import { scopeOfViewer } from "../../../domain/portal/viewer";
import { applicationLinkOf, createApplicationLink } from "../../../services/application-link/application-links";
import { isRefusal } from "../../../lib/refusal";
import { Copyable } from "../../kit/copy";
import { formatFor } from "../../kit/format";
import { PORTAL_ROUTE, type PortalContext, type PortalEnv } from "../context";
import { FormToken, PortalPage } from "../layout";
import { portalForm } from "../form-action";
import { pageAbove } from "../../kit/form";

const STATE_WORDS: Record<string, string> = {
  sent: "sent, not opened yet",
  opened: "opened by the client",
  completed: "completed by the client",
  expired: "expired",
  revoked: "revoked",
};

const linkPath = (leadId: string) => `${PORTAL_ROUTE}/leads/${encodeURIComponent(leadId)}/application-link`;

async function linkStateOf(c: PortalContext, leadId: string) {
  try {
    return await applicationLinkOf(c.get("deps"), scopeOfViewer(c.get("viewer")), leadId);
  } catch (error) {
    if (isRefusal(error, "not_found")) return null;
    throw error;
  }
}

/** The lead page's section: the link's state, and (for a draft) the button that sends a new one. */
export async function ApplicationLinkSection(props: { c: PortalContext; lead: { id: string; state: string; country: string } }) {
  const { c, lead } = props;
  const link = await linkStateOf(c, lead.id);
  if (!link && lead.state !== "draft") return null;
  const f = formatFor(lead.country);
  return (
    <section aria-labelledby="application-link">
      <h2 id="application-link">Application link</h2>
      {link ? (
        <p id="application-link-state">
          The client's link: <strong>{STATE_WORDS[link.state] ?? link.state}</strong>
          {link.state === "sent" || link.state === "opened" ? (
            <>
              {" "}
              (works until <time datetime={link.expires_at}>{f.time(link.expires_at)}</time>)
            </>
          ) : null}
          .
        </p>
      ) : (
        <p class="muted">The client can fill in their own application from a link: each step on its own page, then your commission disclosure and their consent.</p>
      )}
      {lead.state === "draft" ? (
        <form method="post" action={linkPath(lead.id)}>
          <FormToken token={c.get("formToken")} />
          {link && (link.state === "sent" || link.state === "opened") ? <p class="muted">A new link ends the current one at once.</p> : null}
          <button type="submit">Send to the client to fill in</button>
        </form>
      ) : null}
    </section>
  );
}

export function registerApplicationLinkPages(portal: Hono<PortalEnv>) {
  portal.post(
    "/leads/:id/application-link",
    portalForm({
      audit: (c) => ({ action: "lead.application_link_sent", target: c.req.param("id") ?? "" }),
      page: pageAbove(),
      showAgain: (c, refusal) =>
        c.html(
          <PortalPage title="Application link" viewer={c.get("viewer")} formToken={c.get("formToken")} feedback={{ error: { message: refusal.message, field: null } }}>
            <p>
              <a href={`${PORTAL_ROUTE}/leads/${encodeURIComponent(c.req.param("id") ?? "")}`}>Back to the lead</a>
            </p>
          </PortalPage>,
          refusal.status,
        ),
      // The answer is the page that shows the link once, not a redirect.
      act: async (c) => {
        const viewer = c.get("viewer");
        const id = c.req.param("id") ?? "";
        // Another partner's lead, or none: not_found, the portal's 404 page.
        const link = await createApplicationLink(c.get("deps"), scopeOfViewer(viewer), id, {});
        return c.html(
          <PortalPage title="Application link" viewer={viewer} formToken={c.get("formToken")} feedback={{ notice: "A new application link was made. Any earlier link no longer works." }}>
            <section aria-labelledby="application-link-made">
              <h2 id="application-link-made">Send this link to your client</h2>
              <p>
                <strong>Copy it now: it is shown only this once.</strong> State: {STATE_WORDS[link.state]}; it works until{" "}
                <time datetime={link.expires_at}>{formatFor(null).time(link.expires_at)}</time>.
              </p>
              <p>
                <Copyable value={link.url} anchor="application-link" what="the client's application link" secret />
              </p>
              <p>
                <a href={`${PORTAL_ROUTE}/leads/${encodeURIComponent(id)}`}>Back to the lead</a>
              </p>
            </section>
          </PortalPage>,
          201,
        );
      },
    }),
  );
}
