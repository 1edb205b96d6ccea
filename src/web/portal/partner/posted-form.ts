import type { PortalContext } from "../context";

/** The posted form as flat name → value (files and the form token left out; a repeated name keeps its first value). */
export async function postedForm(c: PortalContext): Promise<Record<string, string>> {
  const form: Record<string, string> = {};
  for (const [name, value] of await c.req.formData()) {
    if (name === "_form_token" || typeof value !== "string" || name in form) continue;
    form[name] = value;
  }
  return form;
}
