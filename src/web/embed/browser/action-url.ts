/**
 * Where the widget's Continue link may lead: the partner's `action` attribute resolved against the
 * host page, kept only when it is an `https:` address, or `http:` on the visitor's own machine (a
 * partner trying the widget locally). Anything else (`javascript:`, `data:`, `vbscript:`, `http:` to
 * another host, a value that is no URL) would run in or leave the host page on the visitor's click,
 * so the widget drops it and shows its Continue button instead (docs/embed.md, "Attributes").
 */
const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

const isLocalHost = (hostname: string) => LOCAL_HOSTS.has(hostname) || hostname.endsWith(".localhost");

export function continueUrl(action: string | null, base: string): URL | null {
  if (!action || !action.trim()) return null;
  let url: URL;
  try {
    url = new URL(action, base);
  } catch {
    return null;
  }
  if (url.protocol === "https:") return url;
  if (url.protocol === "http:" && isLocalHost(url.hostname)) return url;
  return null;
}
