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

/**
 * Characters a name never needs and an attacker uses to make one read as
 * something else: the bidi embedding, override and isolate controls
 * (U+202A–202E, U+2066–2069), the directional marks (U+200E, U+200F, U+061C),
 * the line and paragraph separators and every C0/C1 control character (tabs
 * and newlines included). Issue 21 item 11.
 */
const NAME_FORBIDDEN = /[\p{Cc}\u200E\u200F\u061C\u202A-\u202E\u2066-\u2069\u2028\u2029]/u;

export const hasForbiddenNameCharacter = (text: string) => NAME_FORBIDDEN.test(text);

/** The message every refused name carries (the field is named by the caller). */
export const FORBIDDEN_NAME_MESSAGE = "contains a control or text-direction character (such as U+202E); names must be plain text.";
