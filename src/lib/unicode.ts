/** A UTF-16 surrogate with no partner; JSON escapes such as "\ud800" produce one, and it has no UTF-8 form to store. */
const LONE_SURROGATE = /\p{Surrogate}/u;

export const hasLoneSurrogate = (text: string) => LONE_SURROGATE.test(text);

/** Dotted path (`significant_persons.0.name`) of the first key or string value that is not valid Unicode, or undefined. */
export function firstInvalidText(value: unknown, path: string[] = []): string | undefined {
  if (typeof value === "string") return hasLoneSurrogate(value) ? path.join(".") : undefined;
  if (value === null || typeof value !== "object") return undefined;
  for (const [key, item] of Object.entries(value)) {
    const here = [...path, key];
    if (hasLoneSurrogate(key)) return here.join(".");
    const found = firstInvalidText(item, here);
    if (found !== undefined) return found;
  }
  return undefined;
}
