import { PORTAL_ROUTE, type PageViewer } from "./context";
import { environmentInWords, sizeInWords } from "../kit/format";
import { Document, navigationFor, PortalPage, SignedOutHeader } from "./layout";

/** A plain page for a refused post (cross-site, no form token) or an unknown page: no session details on it, but always a way on. */
const messagePage = (title: string, message: string) => (
  <Document title={title}>
    <SignedOutHeader />
    <main id="main" tabindex={-1}>
      <h1>{title}</h1>
      <p>{message}</p>
      <p>
        <a href={PORTAL_ROUTE}>Go to the portal's overview</a>
      </p>
    </main>
  </Document>
);

export const refusedPage = (message: string) => messagePage("Refused", message);

/**
 * A message for a signed-in member's refused post ("Environment changed", "Already sent"): inside the
 * portal's header and navigation, so the environment switch a message names is there to press and the
 * person is not shown a "Sign in" link while signed in.
 */
export const signedInMessagePage = (viewer: PageViewer, formToken: string, title: string, message: string) => (
  <PortalPage title={title} viewer={{ ...viewer, path: undefined }} formToken={formToken}>
    <p>{message}</p>
    <p>
      <a href={PORTAL_ROUTE}>Go to the portal's overview</a>
    </p>
  </PortalPage>
);

/**
 * A page the portal's error handler draws (web/kit/page-errors.ts): inside the header and navigation
 * for a signed-in member, else the plain signed-out page.
 */
export const areaMessagePage = (signedIn: { viewer: PageViewer; formToken: string } | null, title: string, message: string) =>
  signedIn ? signedInMessagePage(signedIn.viewer, signedIn.formToken, title, message) : messagePage(title, message);

/** Our failure, with the request id to quote; a post is told it may have been saved, so it is checked before it is sent again. */
export const failedMessage = (requestId: string, maybeSaved: boolean) =>
  `Something went wrong on our side.${maybeSaved ? " What you sent may have been saved: open the page again to check before sending it again." : " Reload the page in a moment."} If it keeps happening, tell us this reference: ${requestId}.`;

/** Unknown pages and other organisations' records look the same: nothing says whether an id exists elsewhere. */
export const notFoundPage = () => messagePage("Not found", "There is no such page in the portal, or it is not yours to see.");

/**
 * The same "not found" for a signed-in member, inside the portal's header and navigation, with what to do
 * next (issue 23 item 13). `routes.tsx` puts it in place of every 404 page a signed-in request gets, so a
 * page that is not yours and a mistyped address both keep the person in the portal.
 */
export const signedInNotFoundPage = (viewer: PageViewer, formToken: string) => {
  const places = navigationFor(viewer).filter((item) => item.href !== PORTAL_ROUTE);
  return (
    <PortalPage title="Not found" viewer={{ ...viewer, path: undefined }} formToken={formToken}>
      <p>There is no such page in the portal, or it belongs to another organisation or to the other environment.</p>
      <p>
        <strong>What to do next:</strong> check the address, or if a colleague sent you the link, check that you are in the same environment (you are in{" "}
        {environmentInWords(viewer.environment)}; the switch is in the header). Otherwise, open what you need from the menu:
      </p>
      <ul>
        <li>
          <a href={PORTAL_ROUTE}>Overview</a>
        </li>
        {places.map((item) => (
          <li>
            <a href={item.href}>{item.label}</a>
          </li>
        ))}
      </ul>
    </PortalPage>
  );
};

/**
 * A post over its form's limit (413), in the portal's layout: inside the header and navigation when
 * the refusal came once the session was known (a chunked body, read by the page), else the plain
 * portal page (a declared length is refused before the session is looked up). It names the form's
 * real limit in words and what to do; `back` is the page the form is on.
 */
export function tooLargePage(limit: { bytes: number; files: boolean }, back: string, signedIn?: { viewer: PageViewer; formToken: string }) {
  const size = sizeInWords(limit.bytes);
  const body = limit.files ? (
    <>
      <p class="error" role="alert">
        This upload takes at most {size} in all, and what you sent was larger. Nothing was uploaded.
      </p>
      <h2>What to do</h2>
      <ul>
        <li>Make the file smaller: scan at a lower resolution or in black and white, or compress the PDF.</li>
        <li>Send a PDF instead of photos: one PDF of the pages is a fraction of the size of photos of them.</li>
        <li>Split a long document and upload it in parts.</li>
      </ul>
      <p>
        <a href={back}>Back to the form</a>
      </p>
    </>
  ) : (
    <>
      <p class="error" role="alert">
        This form takes at most {size}, and what you sent was larger. Nothing was sent.
      </p>
      <p>Shorten what you typed and send it again.</p>
      <p>
        <a href={back}>Back to the form</a>
      </p>
    </>
  );
  const title = limit.files ? "The file is too large" : "What you sent is too large";
  if (signedIn) {
    return (
      <PortalPage title={title} viewer={{ ...signedIn.viewer, path: undefined }} formToken={signedIn.formToken}>
        {body}
      </PortalPage>
    );
  }
  return (
    <Document title={title}>
      <SignedOutHeader />
      <main id="main" tabindex={-1}>
        <h1>{title}</h1>
        {body}
      </main>
    </Document>
  );
}
