/**
 * A number as a person types it into a form: `50000`, `50,000`, `50 000` or
 * `1,250.50` all read as the number. Separators count only where they group
 * thousands (`5,0` is not fifty), so a typo is still refused beside its field
 * instead of being read as some other amount. Anything else is null: the form
 * passes the text on and the schema refuses it.
 */
const GROUPED = /^-?\d{1,3}(?:([,\u00a0\u202f ])\d{3})(?:\1\d{3})*(?:\.\d+)?$/;
const PLAIN = /^-?\d+(?:\.\d+)?$/;

export function readNumber(text: string): number | null {
  const t = text.trim();
  if (PLAIN.test(t)) return Number(t);
  if (GROUPED.test(t)) return Number(t.replace(/[,\u00a0\u202f ]/g, ""));
  return null;
}
