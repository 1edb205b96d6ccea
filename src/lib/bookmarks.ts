/**
 * D1 read-replication bookmarks (`session.getBookmark()`): a position in the database's commit log,
 * written as fixed-width hex fields (`00000085-0000024c-00004c6d-8e61…`), so the later of two
 * compares greater as a string — the comparison the D1 session itself uses to move its own forward.
 */

/** What a bookmark looks like; anything else (a tampered cookie) is ignored rather than sent to D1. */
const BOOKMARK = /^[0-9a-f]{8}(?:-[0-9a-f]{8}){2}-[0-9a-f]{32}$/i;

export const isBookmark = (value: unknown): value is string => typeof value === "string" && BOOKMARK.test(value);

/** The later of two bookmarks (either may be absent): a kept bookmark only ever moves forward. */
export const laterBookmark = (a: string | null | undefined, b: string | null | undefined): string | undefined => {
  if (!isBookmark(a)) return isBookmark(b) ? b : undefined;
  if (!isBookmark(b)) return a;
  return b > a ? b : a;
};
