/**
 * What a redirect after a successful action says on the next page. The URL
 * carries only a fixed code (`?notice=key-revoked`), never text or a secret,
 * so nothing a visitor puts in a link can be shown as if we had said it.
 */
const NOTICES = {
  "key-revoked": "The key is revoked: the next API request with it is refused.",
  "webhook-deleted": "The webhook endpoint is deleted; its pending deliveries are cancelled.",
  "webhook-reactivated": "The webhook endpoint is active again.",
  "webhook-updated": "The webhook endpoint is changed; the next deliveries follow the new settings.",
  "delivery-resent": "The delivery was sent again; its new attempt is in the log below.",
} as const;

type NoticeCode = keyof typeof NOTICES;

export const noticeFrom = (code: string | undefined): string | null => (code && Object.hasOwn(NOTICES, code) ? NOTICES[code as NoticeCode] : null);

export const withNotice = (path: string, code: NoticeCode) => `${path}?notice=${code}`;
