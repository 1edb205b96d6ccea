/** Opaque keyset cursors: base64url of the sort key of the last row of a page. */
import { ApiError } from "./errors";

export interface KeysetPosition {
  createdAt: string;
  id: string;
}

export const encodeCursor = (p: KeysetPosition) =>
  btoa(JSON.stringify([p.createdAt, p.id])).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

export function decodeCursor(cursor: string | undefined): KeysetPosition | null {
  if (!cursor) return null;
  try {
    const [createdAt, id] = JSON.parse(atob(cursor.replace(/-/g, "+").replace(/_/g, "/")));
    if (typeof createdAt === "string" && typeof id === "string") return { createdAt, id };
  } catch {
    /* falls through */
  }
  throw new ApiError("invalid_request", "cursor is not a cursor this API returned.", { field: "query.cursor" });
}
