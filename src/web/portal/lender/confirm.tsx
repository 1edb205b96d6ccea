/**
 * A confirmation before what cannot be undone, as a page of its own: it works
 * without JavaScript (the button that asks is a GET link to this page; the
 * action's POST is refused back here unless it carries `confirmed=yes`).
 * Built for the lender's actions; the generic portal pattern may replace it.
 */
import type { Child } from "hono/jsx";
import type { PortalViewer } from "../../../domain/portal/viewer";
import { FormToken, PortalPage } from "../layout";

/** The field the confirmed POST carries; without it the action shows this page instead of acting. */
const CONFIRMED_FIELD = "confirmed";
export const isConfirmed = (fields: Record<string, string>) => fields[CONFIRMED_FIELD] === "yes";

export function ConfirmPage(props: {
  viewer: PortalViewer;
  formToken: string;
  title: string;
  /** What will happen, in a sentence or two. */
  children?: Child;
  action: string;
  confirmLabel: string;
  cancelHref: string;
}) {
  return (
    <PortalPage title={props.title} viewer={props.viewer} formToken={props.formToken}>
      <section aria-labelledby="confirm-heading" class="confirm">
        <h2 id="confirm-heading">This cannot be undone</h2>
        {props.children}
        <form method="post" action={props.action}>
          <FormToken token={props.formToken} />
          <input type="hidden" name={CONFIRMED_FIELD} value="yes" />
          <button type="submit" autofocus>
            {props.confirmLabel}
          </button>{" "}
          <a href={props.cancelHref}>Cancel, keep it</a>
        </form>
      </section>
    </PortalPage>
  );
}
