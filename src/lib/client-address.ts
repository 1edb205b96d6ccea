/**
 * The address per-address limits count against (failed API authentications, portal sign-in attempts
 * and challenges). `CF-Connecting-IP` is believed only when the request came through Cloudflare:
 * the edge sets the header itself (overwriting any value the client sent) and hands the Worker
 * `request.cf`. A request without `request.cf` did not pass the edge, so its header is whatever the
 * client wrote; such requests all count against one bucket, `UNATTRIBUTED_ADDRESS`, so rotating the
 * header buys no fresh allowance. Under `wrangler dev` the local proxy plays the edge (it adds
 * `request.cf` and sets the header from the socket), but keeps a header the client sent itself:
 * local limits are no security boundary (docs/operations.md, "Security").
 */
export const UNATTRIBUTED_ADDRESS = "unattributed";

export function clientAddress(request: Request): string {
  const throughCloudflare = (request as Request & { cf?: unknown }).cf != null;
  const header = request.headers.get("CF-Connecting-IP")?.trim();
  return throughCloudflare && header ? header : UNATTRIBUTED_ADDRESS;
}
