/**
 * The portal's pages send the client hub's strict headers; the only relaxation
 * is `script-src 'self'`, for the one script WebAuthn needs (served by the
 * Worker, never from elsewhere).
 */
const PORTAL_HEADERS: Record<string, string> = {
  "Referrer-Policy": "no-referrer",
  "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; script-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  "Cache-Control": "no-store",
  "X-Frame-Options": "DENY",
};

export const withPortalHeaders = (res: Response) => {
  for (const [name, value] of Object.entries(PORTAL_HEADERS)) res.headers.set(name, value);
  return res;
};
