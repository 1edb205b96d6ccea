import type { PortalViewer } from "../../../domain/portal/viewer";
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

/** Newest first; "Older entries" carries the signed keyset cursor. */
export const auditPage = (p: { viewer: PortalViewer; formToken: string; entries: AuditLine[]; nextCursor: string | null; paged: boolean }) => (
  <PortalPage title="Audit log" viewer={p.viewer} formToken={p.formToken}>
    <p class="muted">Every action taken in the portal by your organisation's members: who, what, when, and in which environment.</p>
    {p.entries.length === 0 ? (
      <p>Nothing has been done in the portal yet.</p>
    ) : (
      <RecordTable
        label="Audit entries"
        rows={p.entries}
        columns={[
          { header: "When", cell: (e) => <time datetime={e.at}>{formatFor(null).time(e.at)}</time> },
          { header: "Who", cell: (e) => e.memberEmail ?? e.memberId },
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
