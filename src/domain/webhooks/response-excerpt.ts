/**
 * What the delivery log keeps of a receiver's answer: the first
 * `RESPONSE_EXCERPT_BYTES` of its body, decoded as UTF-8 text, with control and
 * direction-changing characters dropped so the excerpt can be shown as plain text
 * on a page (and never reorders what surrounds it). A multi-byte character cut by
 * the limit is dropped, not shown as a replacement mark. Pure: the sender reads
 * the bytes, this decides what of them is kept.
 */

/** 2 KB: enough for an error message or a stack trace's first lines, small enough to keep with every attempt. */
export const RESPONSE_EXCERPT_BYTES = 2048;

/** C0 controls but tab and line feed, DEL, C1 controls, and the bidi embeddings, overrides, isolates and marks. */
const DROPPED = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069\uFEFF]/g;

/** The kept text of `bytes` (already cut at the limit by the reader, or longer: cut here); null for an empty body. */
export function responseExcerpt(bytes: Uint8Array): string | null {
  const head = bytes.subarray(0, RESPONSE_EXCERPT_BYTES);
  // `stream: true` holds back an incomplete character at the end instead of writing U+FFFD for it.
  const text = new TextDecoder("utf-8").decode(head, { stream: true });
  const kept = text.replace(DROPPED, "");
  return kept.length > 0 ? kept : null;
}
