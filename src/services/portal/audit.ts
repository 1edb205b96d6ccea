import { auditingDatabase, insertAuditEntry, setAuditTarget } from "../../db/portal/audit";
import type { PortalViewer } from "../../domain/portal/viewer";
import { newId } from "../../lib/ids";
import { isoNow, type Deps } from "../deps";

/**
 * Every portal action is written down: who, what, when, in which environment,
 * and the id it was about (never personal data). Written on its own: for an
 * action that changes nothing in D1 (a prequalification check, signing out).
 */
export async function recordPortalAction(deps: Deps, viewer: PortalViewer, action: string, target: string | null = null) {
  await insertAuditEntry(deps.db, entryOf(deps, viewer, action, target));
}

const entryOf = (deps: Deps, viewer: PortalViewer, action: string, target: string | null) => ({
  id: newId("aud"),
  organisationId: viewer.organisationId,
  memberId: viewer.memberId,
  environment: viewer.environment,
  action,
  target,
  at: isoNow(deps),
});

/** One portal action's audit entry, handed to the services that act as data (their `deps`). */
export interface AuditedAction {
  /** The services' deps: every batch they write goes through a database that carries the entry in the first one. */
  deps: Deps;
  /** The id the action made, known only once it is made (a new offer's, a new key's): the entry is about it. */
  about(target: string): void;
  /** After the action: the entry on its own when no batch carried it, or the made id set on the entry that was carried. */
  settle(): Promise<void>;
}

/**
 * The audit entry of one portal action, written in the action's own D1 batch (db/portal/audit.ts
 * `auditingDatabase`): the action, its events and its entry are written together or not at all, and
 * a refused action (nothing written) leaves no entry.
 */
export function auditedAction(deps: Deps, viewer: PortalViewer, action: string, target: string | null = null): AuditedAction {
  const row = entryOf(deps, viewer, action, target);
  const audited = auditingDatabase(deps.db, { ...row });
  let about = target;
  return {
    deps: { ...deps, db: audited.db },
    about(made) {
      about = made;
    },
    async settle() {
      if (!audited.carried()) await recordPortalAction(deps, viewer, action, about);
      else if (about !== row.target) await setAuditTarget(audited.home(), row.id, about);
    },
  };
}
