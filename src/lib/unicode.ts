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
 * The one rule for text a person types: characters
 * plain text never needs and an attacker uses to make it read as something else, or to hide
 * something in it.
 * - every format character, `\p{Cf}`: the bidi embeddings, overrides and isolates (U+202A–202E,
 *   U+2066–2069), the direction marks (U+200E, U+200F, U+061C), and the invisible ones (U+200B
 *   zero width space, U+00AD soft hyphen, U+FEFF, U+2060 word joiner, U+180E, the joiners U+200C/D);
 * - the invisible characters that are not `Cf` but show nothing either: U+034F (combining grapheme
 *   joiner), the Hangul fillers (U+115F, U+1160, U+3164, U+FFA0) and U+17B4/17B5;
 * - the line and paragraph separators (U+2028, U+2029) and every C0/C1 control character.
 * A multi-line field (a message, a note, a reason) keeps its line feeds, carriage returns and tabs;
 * a one-line field (a name, a reference, an address line) refuses them too. Variation selectors stay
 * allowed: an emoji needs them.
 */
const ONE_LINE_FORBIDDEN = /[\p{Cc}\p{Cf}\u034F\u115F\u1160\u17B4\u17B5\u3164\uFFA0\u2028\u2029]/u;
const MULTI_LINE_FORBIDDEN = /[\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x9F\p{Cf}\u034F\u115F\u1160\u17B4\u17B5\u3164\uFFA0\u2028\u2029]/u;

export const hasForbiddenTextCharacter = (text: string, shape: { lines?: boolean } = {}) => (shape.lines ? MULTI_LINE_FORBIDDEN : ONE_LINE_FORBIDDEN).test(text);

/** The message every refused one-line text carries (the field is named by the caller). */
export const FORBIDDEN_TEXT_MESSAGE = "contains a control, invisible or text-direction character (such as a line break, U+200B or U+202E); it must be plain text on one line.";

/** The message every refused multi-line text carries. */
export const FORBIDDEN_LINES_MESSAGE = "contains a control, invisible or text-direction character (such as U+200B or U+202E); it must be plain text (line breaks are fine).";
