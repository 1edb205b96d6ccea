/**
 * The portal's one shape of a form post: the kit's `formAction` (read the form once, act, show the
 * form again or redirect with a notice) with the audit entry of the action written in the action's
 * own D1 batch. The entry is handed to the services as data: while the action runs, `c.get("deps")`
 * is the audited deps (services/portal/audit.ts `auditedAction`), so whatever service the action
 * calls writes the entry in its first write batch, and a refused action writes none.
 */
import type { PortalViewer } from "../../domain/portal/viewer";
import { auditedAction, type AuditedAction } from "../../services/portal/audit";
import { formAction, type FormNext, type FormPage } from "../kit/form";
import type { PortalContext } from "./context";

/** What the audit log says of an action: its name and, when known before acting, the id it is about. */
interface AuditAsked {
  action: string;
  target?: string | null;
  /** The member as the entry names them, when not the viewer as they are (the environment switched to). */
  viewer?: PortalViewer;
}

interface PortalFormPage<D> extends Omit<FormPage<PortalContext, D>, "act"> {
  /** The audit entry of this post, from what was asked; null for a post that is not audited. */
  audit: ((c: PortalContext, form: FormData) => AuditAsked | null) | null;
  /** Acts (services through `c.get("deps")`); `entry.about(id)` names a thing the action made. */
  act: (c: PortalContext, form: FormData, entry: Pick<AuditedAction, "about">) => Promise<FormNext>;
}

const unaudited: Pick<AuditedAction, "about"> = { about: () => {} };

export function portalForm<D = Record<string, never>>(page: PortalFormPage<D>) {
  return formAction<PortalContext, D>({
    ...page,
    act: async (c, form) => {
      const asked = page.audit?.(c, form) ?? null;
      if (!asked) return page.act(c, form, unaudited);
      const deps = c.get("deps");
      const entry = auditedAction(deps, asked.viewer ?? c.get("viewer"), asked.action, asked.target ?? null);
      c.set("deps", entry.deps);
      let next: FormNext;
      try {
        next = await page.act(c, form, entry);
      } finally {
        // The form claim's settle (require-viewer.ts) and the page drawn next write on their own again.
        c.set("deps", deps);
      }
      await entry.settle();
      return next;
    },
  });
}
