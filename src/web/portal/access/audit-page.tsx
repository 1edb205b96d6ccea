import type { PortalViewer } from "../../../domain/portal/viewer";
import { PORTAL_ROUTE } from "../context";
import { PortalPage } from "../layout";

export interface AuditLine {
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
      <div class="table-wrap" role="region" aria-label="Audit entries" tabindex={0}>
        <table>
          <thead>
            <tr>
              <th scope="col">When (UTC)</th>
              <th scope="col">Who</th>
              <th scope="col">Action</th>
              <th scope="col">About</th>
              <th scope="col">Environment</th>
            </tr>
          </thead>
          <tbody>
            {p.entries.map((e) => (
              <tr>
                <td>{e.at.replace("T", " ").slice(0, 19)}</td>
                <td>{e.memberEmail ?? e.memberId}</td>
                <td>
                  <code>{e.action}</code>
                </td>
                <td>{e.target ?? ""}</td>
                <td>{e.environment}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    )}
    <p>
      {p.paged ? <a href={`${PORTAL_ROUTE}/audit`}>Newest entries</a> : null} {p.nextCursor ? <a href={`${PORTAL_ROUTE}/audit?cursor=${encodeURIComponent(p.nextCursor)}`}>Older entries</a> : null}
    </p>
  </PortalPage>
);
