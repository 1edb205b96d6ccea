import { HubRefusal } from "../../services/hub/client-hub";
import { messagesOf } from "../kit/messages";
import type { Feedback } from "./layout";
import { notFound, type HubContext } from "./context";

/** The statuses a refused form is shown again with. */
export type RefusalStatus = Exclude<HubRefusal["status"], 404>;

export async function formOf(c: HubContext) {
  try {
    return await c.req.formData();
  } catch {
    throw new HubRefusal(400, "The form could not be read; send it again from the page.");
  }
}

export const text = (form: FormData, name: string) => {
  const v = form.get(name);
  return typeof v === "string" ? v : undefined;
};

/** A refusal re-renders the page with its status and message; a 404 is the plain page; anything else goes to onError. */
export async function refused(c: HubContext, error: unknown, render: (f: Feedback, status: RefusalStatus) => Promise<Response>) {
  if (!(error instanceof HubRefusal)) throw error;
  if (error.status === 404) return notFound(c);
  // The hub's refusals are already worded for the business; the one messages map still reads them, so a field path never reaches the page.
  const [page] = messagesOf({ code: String(error.status), detail: error.message, field: error.field });
  return render({ error: { message: page.message, field: error.field } }, error.status);
}

/**
 * One hub form: read the form, keep what may be shown again (`draftOf`), act and redirect
 * (303) to where `act` answers; a refusal shows the form's page again with the draft.
 */
export function formAction<D>(
  act: (c: HubContext, form: FormData) => Promise<string>,
  showAgain: (c: HubContext, f: Feedback, status: RefusalStatus, draft: D) => Promise<Response>,
  draftOf: (form: FormData) => D,
) {
  return async (c: HubContext) => {
    let draft: D | undefined;
    try {
      const form = await formOf(c);
      draft = draftOf(form);
      return c.redirect(await act(c, form), 303);
    } catch (e) {
      return refused(c, e, (f, status) => showAgain(c, f, status, draft ?? ({} as D)));
    }
  };
}
