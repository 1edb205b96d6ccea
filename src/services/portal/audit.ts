import { insertAuditEntry } from "../../db/portal/audit";
import type { PortalViewer } from "../../domain/portal/viewer";
import { newId } from "../../lib/ids";
import { isoNow, type Deps } from "../deps";

/**
 * Every portal action is written down: who, what, when, in which environment,
 * and the id it was about (never personal data). Written after the action
 * succeeds, so a refused action leaves no entry.
 */
export async function recordPortalAction(deps: Deps, viewer: PortalViewer, action: string, target: string | null = null) {
  await insertAuditEntry(deps.db, {
    id: newId("aud"),
    organisationId: viewer.organisationId,
    memberId: viewer.memberId,
    environment: viewer.environment,
    action,
    target,
    at: isoNow(deps),
  });
}
