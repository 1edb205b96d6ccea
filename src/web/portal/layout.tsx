/**
 * The portal's page shell (Hono JSX: every value is escaped). No external
 * assets: inline style only, and the one WebAuthn script served by the Worker.
 * Usable on a phone: one column, nothing wider than the screen.
 */
import type { Child } from "hono/jsx";
import { raw } from "hono/html";
import type { PortalViewer } from "../../domain/portal/viewer";
import { PORTAL_ROUTE, PRODUCT_NAME, type PageViewer } from "./context";
import { FORMS_SCRIPT_PATH } from "./forms-asset";
import { CONFIRM_STYLE, ConfirmStart } from "../kit/confirm";
import { TABLE_STYLE } from "../kit/table";
import { COPY_STYLE } from "../kit/copy";
import { FILE_WARNING_STYLE } from "../kit/file-warnings";
import { environmentSwitchLabel, LABELS } from "../kit/format";
import { HtmlPage } from "../kit/document";

const STYLE = `*{box-sizing:border-box}body{font-family:system-ui,sans-serif;margin:0;color:#1d2230;line-height:1.45}
header{background:#1d2230;color:#fff;padding:.6rem 1rem;display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center}
header a{color:#fff}header form{display:inline;margin:0}header button{margin:0}
.sandbox header{background:#6b3fa0}.env{font-weight:600;text-transform:uppercase;font-size:.8rem;border:1px solid #fff;padding:.1rem .4rem;border-radius:.2rem}
nav{display:flex;flex-wrap:wrap;gap:.3rem 1rem;padding:.6rem 1rem;border-bottom:1px solid #dde}
main{max-width:60rem;margin:0 auto;padding:1rem}h1{font-size:1.5rem}h2{font-size:1.15rem;margin-top:2rem}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #dde;padding:.35rem .5rem;text-align:left;vertical-align:top}
.table-wrap{overflow-x:auto}
.notice{background:#e8f5e9;border:1px solid #7cb87f;padding:.6rem .8rem}.error{background:#fdecea;border:1px solid #c62828;padding:.6rem .8rem}
.field-error{color:#b71c1c;display:block}.error-links{margin:.3rem 0 1rem;padding-left:1.2rem}.error-links a{color:#b71c1c;font-weight:600}[aria-invalid=true]{border:2px solid #b71c1c;outline-color:#b71c1c}.required-mark{font-weight:400;color:#555}label{display:block;margin:.6rem 0 .2rem}
input[type=text],input[type=email],input[type=url],input[type=number],input[type=date],select,textarea{width:100%;max-width:32rem;padding:.4rem;font:inherit}
button{margin-top:.8rem;padding:.45rem 1rem;font:inherit}.muted{color:#555}.secret{font-family:monospace;word-break:break-all;background:#fff8e1;border:1px solid #f9a825;padding:.6rem}
nav a[aria-current=page],header a[aria-current=page]{font-weight:700;text-decoration-thickness:3px}
.skip{position:absolute;left:-999rem;top:0;background:#fff;color:#1d2230;padding:.5rem 1rem;z-index:10}.skip:focus{left:.5rem;top:.5rem}
form button+button,form button+a,form a+button{margin-left:.6rem}input+button,select+button,textarea+button{margin-left:0}label+input,label+select,label+textarea{margin-bottom:.3rem}
.next-step{border-left:4px solid #2e7d32;padding:.2rem .8rem}
.date-input{border:0;padding:0;margin:.6rem 0 .2rem}.date-input legend{padding:0}.date-part{display:inline-block;margin-right:1rem}.date-part label{margin:.2rem 0}.date-part input[type=text]{width:auto}
.visually-hidden{position:absolute;width:1px;height:1px;margin:-1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.summary-list{margin:0 0 1rem}.summary-row{display:flex;flex-wrap:wrap;gap:.2rem 1rem;border-bottom:1px solid #dde;padding:.4rem 0}.summary-row dt{font-weight:600;flex:0 0 14rem;max-width:100%}.summary-row dd{margin:0;flex:1 1 12rem;overflow-wrap:anywhere}.summary-row .summary-change{flex:0 0 auto}
@media (max-width:40rem){main{padding:.75rem}}
${CONFIRM_STYLE}
${COPY_STYLE}
${FILE_WARNING_STYLE}
${TABLE_STYLE}`;

export function Document(props: { title: string; children?: Child; scripts?: string[]; bodyClass?: string }) {
  const head = (
    <>
      <style>{raw(STYLE)}</style>
      {(props.scripts ?? []).map((src) => (
        <script src={src} defer></script>
      ))}
    </>
  );
  return (
    <HtmlPage title={`${props.title} · ${PRODUCT_NAME} portal`} head={head} bodyClass={props.bodyClass}>
      <a class="skip" href="#main">
        Skip to the page
      </a>
      {props.children}
    </HtmlPage>
  );
}

/** The pages a member's organisation kind and role may reach; the nav never links what the server would refuse. */
export function navigationFor(viewer: Pick<PortalViewer, "organisationKind" | "role" | "awaiting">): { href: string; label: string }[] {
  const work =
    viewer.organisationKind === "partner"
      ? [
          { href: PORTAL_ROUTE, label: "Overview" },
          { href: `${PORTAL_ROUTE}/leads`, label: "Leads" },
          { href: `${PORTAL_ROUTE}/leads/new`, label: "New lead" },
          { href: `${PORTAL_ROUTE}/prequalification`, label: "Prequalification" },
        ]
      : [
          { href: PORTAL_ROUTE, label: "Overview" },
          { href: `${PORTAL_ROUTE}/queue`, label: viewer.awaiting === undefined ? "Work queue" : `Work queue (${viewer.awaiting})` },
          { href: `${PORTAL_ROUTE}/deals`, label: "Deals" },
          { href: `${PORTAL_ROUTE}/sandbox`, label: "Test deals" },
        ];
  const admin =
    viewer.role === "admin"
      ? [
          { href: `${PORTAL_ROUTE}/keys`, label: "API keys" },
          { href: `${PORTAL_ROUTE}/webhooks`, label: "Webhooks" },
          { href: `${PORTAL_ROUTE}/members`, label: "Members" },
          { href: `${PORTAL_ROUTE}/audit`, label: "Audit log" },
          ...(viewer.organisationKind === "partner" ? [{ href: `${PORTAL_ROUTE}/commission`, label: "Commission" }] : []),
        ]
      : [];
  return [...work, { href: `${PORTAL_ROUTE}/events`, label: "Events" }, ...admin];
}

/** The nav item the page belongs to: the longest href that the page's path starts with (a lead's page is under Leads). */
function currentOf(items: readonly { href: string }[], path: string | undefined): string | null {
  if (!path) return null;
  const under = items.filter((item) => path === item.href || (item.href !== PORTAL_ROUTE && path.startsWith(`${item.href}/`)));
  return under.sort((a, b) => b.href.length - a.href.length)[0]?.href ?? null;
}

/** The header of a page seen without a session: the product, and the way in. */
export const SignedOutHeader = () => (
  <header>
    <strong>{PRODUCT_NAME}</strong>
    <a href={`${PORTAL_ROUTE}/sign-in`}>Sign in</a>
  </header>
);

/** The hidden field every portal form carries (see require-viewer.ts). */
export const FormToken = (props: { token: string }) => <input type="hidden" name="_form_token" value={props.token} />;

/** Beside the label of a mandatory input: said in words, since a star alone means nothing to a screen reader. */
export const RequiredMark = () => <span class="required-mark"> (required)</span>;

/** The first of `names` (in the form's order) that a refusal names: the input the page opens focused on. */
export const firstRefused = (names: readonly string[], refused: Record<string, unknown> | null | undefined) => names.find((name) => refused && name in refused) ?? null;

/** A refused form's problems as a page holds them: the first one's message and field, and every problem when the refusal listed several. */
interface ShownRefusal {
  field: string | null;
  message: string;
  problems?: readonly { field: string | null; message: string }[];
}

/** The message about one input: the problem naming it (`events.0` names `events`), or the refusal's own when it names that input. */
function messageAbout(error: ShownRefusal | null | undefined, field: string): string | null {
  if (!error) return null;
  const listed = error.problems?.find((p) => p.field === field || p.field?.split(".")[0] === field);
  if (listed) return listed.message;
  return error.field === field ? error.message : null;
}

/** A refusal shown beside the field it names; with every problem of the form listed, each field shows its own. */
export const FieldError = (props: { field: string; error?: ShownRefusal | null }) => {
  const message = messageAbout(props.error, props.field);
  return message !== null ? (
    <span class="field-error" id={`${props.field}-error`} role="alert">
      {message}
    </span>
  ) : null;
};

export interface PageFeedback {
  notice?: string | null;
  error?: ShownRefusal | null;
}

/**
 * The error summary's links (GOV.UK's pattern): one per problem that names a field, to the message
 * beside it (`<field>-error`, which FieldError draws); forms.js moves the focus on to that field's input.
 */
const ErrorLinks = (props: { problems?: readonly { field: string | null; message: string }[] }) => {
  const linked = (props.problems ?? []).filter((p): p is { field: string; message: string } => p.field !== null);
  return linked.length > 0 ? (
    <ul class="error-links" aria-label="Problems to fix">
      {linked.map((p) => (
        <li>
          <a href={`#${p.field}-error`} data-error-link={`${p.field}-error`}>
            {p.message}
          </a>
        </li>
      ))}
    </ul>
  ) : null;
};

/**
 * The outcome of the last action, first thing in the page's main: after post/redirect/get
 * the page opens at the top with it in view, and forms.js gives it the focus (`data-outcome`, `tabindex`).
 */
const Feedback = (props: { feedback?: PageFeedback }) => (
  <>
    {props.feedback?.notice ? (
      <p class="notice" role="status" id="outcome" tabindex={-1} data-outcome>
        {props.feedback.notice}
      </p>
    ) : null}
    {props.feedback?.error ? (
      <>
        <p class="error" role="alert" id={props.feedback.notice ? undefined : "outcome"} tabindex={-1} data-outcome>
          {props.feedback.error.message}
        </p>
        <ErrorLinks problems={props.feedback.error.problems} />
      </>
    ) : null}
  </>
);

/** A signed-in page: the organisation, the sandbox/live switch, sign-out and the navigation. */
export function PortalPage(props: { title: string; viewer: PageViewer; formToken: string; children?: Child; feedback?: PageFeedback; scripts?: string[] }) {
  const { viewer } = props;
  const items = navigationFor(viewer);
  const current = currentOf(items, viewer.path);
  const other = viewer.environment === "sandbox" ? "live" : "sandbox";
  return (
    <Document title={props.title} scripts={[FORMS_SCRIPT_PATH, ...(props.scripts ?? [])]} bodyClass={viewer.environment}>
      <header>
        <strong>{viewer.organisationName}</strong>
        <span class="env" aria-label={`Environment: ${LABELS.environment(viewer.environment)}`}>
          {LABELS.environment(viewer.environment)}
        </span>
        {other === "live" ? (
          // Switching to live is confirmed first (it shows and moves real money); back to sandbox is harmless and immediate.
          <ConfirmStart href={`${PORTAL_ROUTE}/environment/live`} label={environmentSwitchLabel("live")} />
        ) : (
          <form method="post" action={`${PORTAL_ROUTE}/environment`}>
            <FormToken token={props.formToken} />
            <input type="hidden" name="environment" value={other} />
            <button type="submit">{environmentSwitchLabel(other)}</button>
          </form>
        )}
        <a href={`${PORTAL_ROUTE}/passkeys`} aria-label={`${viewer.email}: your passkeys`} aria-current={viewer.path?.startsWith(`${PORTAL_ROUTE}/passkeys`) ? "page" : undefined}>
          {viewer.email}
        </a>
        <a href={`${PORTAL_ROUTE}/settings`} aria-current={viewer.path?.startsWith(`${PORTAL_ROUTE}/settings`) ? "page" : undefined}>
          Your settings
        </a>
        <form method="post" action={`${PORTAL_ROUTE}/sign-out`}>
          <FormToken token={props.formToken} />
          <button type="submit">Sign out</button>
        </form>
      </header>
      <nav aria-label="Portal">
        {items.map((item) => (
          <a href={item.href} aria-current={item.href === current ? "page" : undefined}>
            {item.label}
          </a>
        ))}
      </nav>
      <main id="main" tabindex={-1}>
        <h1>{props.title}</h1>
        <Feedback feedback={props.feedback} />
        {props.children}
      </main>
    </Document>
  );
}
