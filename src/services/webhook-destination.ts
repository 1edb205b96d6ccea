/**
 * Resolves a webhook URL's host through DNS over HTTPS (JSON API, A and AAAA)
 * and applies the address policy to every answer. Used at registration and
 * again before every send, so a name that later points inside a private
 * network is refused then too.
 */
import { checkResolvedAddresses, checkWebhookUrl, type DestinationPolicy } from "../domain/webhooks/address-policy";
import type { Bindings } from "../lib/env";

export const DEFAULT_DOH_URL = "https://cloudflare-dns.com/dns-query";
const DNS_TYPES = { A: 1, AAAA: 28 } as const;
const DOH_TIMEOUT_MS = 3000;

export interface DestinationOptions extends DestinationPolicy {
  dohUrl: string;
}

export const destinationOptions = (env: Pick<Bindings, "ALLOW_PRIVATE_WEBHOOKS" | "DOH_URL">): DestinationOptions => ({
  allowPrivate: env.ALLOW_PRIVATE_WEBHOOKS === "true",
  dohUrl: env.DOH_URL || DEFAULT_DOH_URL,
});

interface DohAnswer {
  Status?: number;
  Answer?: { type: number; data: string }[];
}

/** Addresses of `name`; an NXDOMAIN or empty answer is an empty list, a transport failure throws. */
export async function resolveAddresses(name: string, dohUrl: string): Promise<string[]> {
  const lookups = Object.entries(DNS_TYPES).map(async ([type, code]) => {
    const url = new URL(dohUrl);
    url.searchParams.set("name", name);
    url.searchParams.set("type", type);
    const res = await fetch(url, { headers: { Accept: "application/dns-json" }, signal: AbortSignal.timeout(DOH_TIMEOUT_MS) });
    if (!res.ok) throw new Error(`DNS over HTTPS answered ${res.status}`);
    const answer = (await res.json()) as DohAnswer;
    if (answer.Status !== undefined && answer.Status !== 0 && answer.Status !== 3) throw new Error(`DNS lookup failed (status ${answer.Status})`);
    // CNAME records (type 5) are followed by the resolver; only the final addresses matter.
    return (answer.Answer ?? []).filter((a) => a.type === code).map((a) => a.data);
  });
  return (await Promise.all(lookups)).flat();
}

export type DestinationVerdict = { ok: true; url: URL } | { ok: false; reason: string };

export async function checkDestination(raw: string, options: DestinationOptions): Promise<DestinationVerdict> {
  const verdict = checkWebhookUrl(raw, options);
  if (!verdict.ok) return verdict;
  if (verdict.host.kind === "address") return { ok: true, url: verdict.url };
  // Loopback names are only ever allowed in local development; there is nothing to resolve.
  if (options.allowPrivate && (verdict.host.name === "localhost" || verdict.host.name.endsWith(".localhost"))) {
    return { ok: true, url: verdict.url };
  }
  let addresses: string[];
  try {
    addresses = await resolveAddresses(verdict.host.name, options.dohUrl);
  } catch (error) {
    return { ok: false, reason: `url host ${verdict.host.name} could not be resolved (${(error as Error).message}); try again` };
  }
  const resolved = checkResolvedAddresses(verdict.host.name, addresses, options);
  return resolved.ok ? { ok: true, url: verdict.url } : resolved;
}
