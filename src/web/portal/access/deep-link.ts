import { PORTAL_ROUTE } from "../context";

/**
 * The page to land on after sign-in: a portal path (and its query) that the
 * sign-in link carried, or the overview. Anything else (another host, `//…`,
 * a backslash, the sign-in page itself) is ignored, so the link cannot send a
 * person off the portal.
 */
export function landingOf(next: string | null | undefined): string {
  if (!next || next.length > 2048 || !next.startsWith(`${PORTAL_ROUTE}/`) || next.includes("\\") || next.startsWith("//")) return PORTAL_ROUTE;
  let url: URL;
  try {
    url = new URL(next, "https://portal.invalid");
  } catch {
    return PORTAL_ROUTE;
  }
  if (url.origin !== "https://portal.invalid" || !url.pathname.startsWith(`${PORTAL_ROUTE}/`) || url.pathname.startsWith(`${PORTAL_ROUTE}/sign-in`)) return PORTAL_ROUTE;
  return `${url.pathname}${url.search}`;
}
