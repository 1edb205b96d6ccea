/**
 * The payout account in full, for a lender admin: POST /deals/{ref}/payout-account.
 * The answer is the page itself, not a redirect: the account is on that one response (portal pages
 * are `no-store`), so each showing is one request, audited before anything is shown. A member who
 * is not an admin gets the 404 page, as for every admin-only page; another lender's deal too.
 */
import type { Hono } from "hono";
import { normaliseDealReference } from "../../../domain/deals/reference";
import { scopeOfViewer } from "../../../domain/portal/viewer";
import { payoutAccountInFull } from "../../../services/deals/payout-account";
import { recordPortalAction } from "../../../services/portal/audit";
import { PORTAL_ROUTE, type PortalEnv } from "../context";
import { portalForm } from "../form-action";
import { PortalPage } from "../layout";
import { refusedPage } from "../refused-page";
import { pageAbove } from "../../kit/form";
import { requireAdmin } from "../require-role";

export function registerPayoutReveal(portal: Hono<PortalEnv>) {
  portal.post(
    "/deals/:ref/payout-account",
    requireAdmin,
    portalForm({
      // A showing writes nothing else: its entry is written on its own, before the page (recordPortalAction below).
      audit: null,
      showAgain: (c, refusal) => c.html(refusedPage(refusal.message), refusal.status),
      page: pageAbove(),
      act: async (c) => {
        const viewer = c.get("viewer");
        const ref = normaliseDealReference(c.req.param("ref") ?? "");
        // Another lender's deal, or none: not_found, the portal's 404 page.
        const account = await payoutAccountInFull(c.get("deps"), scopeOfViewer(viewer), ref);
        const back = `${PORTAL_ROUTE}/deals/${account.ref}#completion`;
        if (!account.lines) {
          return c.html(
            <PortalPage title="Payout account" viewer={viewer} formToken={c.get("formToken")}>
              <p id="account-not-kept">
                {account.summary
                  ? "The business gave this account before full account details were kept: only the masked summary exists. Ask the business for the account through Messages."
                  : "The business has not given its payout account yet."}
              </p>
              <p>
                <a href={back}>Back to the deal</a>
              </p>
            </PortalPage>,
            404,
          );
        }
        // Audited first: if the entry cannot be written, the account is not shown.
        await recordPortalAction(c.get("deps"), viewer, "payout_account.revealed", account.ref);
        return c.html(
          <PortalPage title="Payout account" viewer={viewer} formToken={c.get("formToken")}>
            <p class="muted">Shown to you once, on this page, and recorded in your organisation's audit log. Leaving or reloading the page hides it.</p>
            <div class="table-wrap" role="region" aria-label="Payout account" tabindex={0}>
              <table>
                <tbody>
                  {account.lines.map((l) => (
                    <tr>
                      <th scope="row">{l.label}</th>
                      <td dir="auto" data-account-line>
                        {l.value}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <p>
              <a href={back}>Back to the deal</a>
            </p>
          </PortalPage>,
        );
      },
    }),
  );
}
