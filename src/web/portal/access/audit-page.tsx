import type { PortalViewer } from "../../../domain/portal/viewer";
import { apiKeyOfActor } from "../../../domain/portal/audit-actions";
import { PORTAL_ROUTE } from "../context";
import { PortalPage } from "../layout";
import { RecordTable } from "../../kit/table";
import { formatFor, LABELS } from "../../kit/format";
import { Copyable } from "../../kit/copy";

interface AuditLine {
  id: string;
  at: string;
  memberEmail: string | null;
  memberId: string;
  environment: string;
  action: string;
  target: string | null;
}

/**
 * Who acted, where no member's email names them: the operator ("operator"); a call of the API
 * ("api_key:<client id>", the id the API keys page lists); or a member since removed, whose internal id
 * would say nothing to a person.
 */
function whoWithoutEmail(memberId: string) {
  if (memberId === "operator") return "The service's operator";
  const clientId = apiKeyOfActor(memberId);
  if (clientId !== null) return `The API, with the key ${clientId}`;
  return "A former member";
}

/** Newest first; "Older entries" carries the signed keyset cursor. */
export const auditPage = (p: { viewer: PortalViewer; formToken: string; entries: AuditLine[]; nextCursor: string | null; paged: boolean }) => (
  <PortalPage title="Audit log" viewer={p.viewer} formToken={p.formToken}>
    <p class="muted">Every action taken in the portal by your organisation's members, and the service's operator's on your account (a commission paid, a hold on a company released): who, what, when, and in which environment.</p>
    {p.entries.length === 0 ? (
      <p>Nothing has been done in the portal yet.</p>
    ) : (
      <RecordTable
        label="Audit entries"
        rows={p.entries}
        columns={[
          { header: "When", cell: (e) => <time datetime={e.at}>{formatFor(null).time(e.at)}</time> },
          { header: "Who", cell: (e) => e.memberEmail ?? whoWithoutEmail(e.memberId) },
          { header: "Action", cell: (e) => LABELS.auditAction(e.action) },
          {
            header: "About",
            // An id is shown only to be copied (to look it up in the API or the events log): with its copy button.
            cell: (e) => (e.target ? <Copyable value={e.target} anchor={`audit-${e.id}`} /> : ""),
          },
          { header: "Environment", cell: (e) => LABELS.environment(e.environment) },
        ]}
      />
    )}
    <p>
      {p.paged ? <a href={`${PORTAL_ROUTE}/audit`}>Newest entries</a> : null} {p.nextCursor ? <a href={`${PORTAL_ROUTE}/audit?cursor=${encodeURIComponent(p.nextCursor)}`}>Older entries</a> : null}
    </p>
  </PortalPage>
);
