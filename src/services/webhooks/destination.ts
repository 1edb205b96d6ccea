/**
 * Checks a webhook URL and resolves its host through DNS over HTTPS (A and
 * AAAA), applying the address policy to every answer. Used at registration and
 * again before every send, so a name that later points inside a private
 * network is refused then too.
 */
import { checkWebhookUrl, type DestinationPolicy } from "../../domain/webhooks/address-policy";
import { judgeLookups } from "../../domain/webhooks/resolution";
import type { Deps } from "../deps";
import { DEFAULT_DOH_URL, DNS_TYPES, dohTimeoutFrom, lookup, type DnsType } from "./dns-over-https";

export interface DestinationOptions extends DestinationPolicy {
  dohUrl: string;
  dohTimeoutMs: number;
}

const destinationOptions = ({ env }: Deps): DestinationOptions => ({
  allowPrivate: env.ALLOW_PRIVATE_WEBHOOKS === "true",
  dohUrl: env.DOH_URL || DEFAULT_DOH_URL,
  dohTimeoutMs: dohTimeoutFrom(env.DOH_TIMEOUT_MS),
});

/** `refused`: the URL is at fault (`invalid_request` naming `url`). `unavailable`: the resolver is, so try again (`resolver_unavailable`). */
export type DestinationVerdict = { ok: true; url: URL } | { ok: false; kind: "refused" | "unavailable"; reason: string };

/** The policy and resolver come from `deps.env` (ALLOW_PRIVATE_WEBHOOKS, DOH_URL, DOH_TIMEOUT_MS); a resolver outage is logged through `deps.log`. */
export async function checkDestination(deps: Deps, raw: string): Promise<DestinationVerdict> {
  const options = destinationOptions(deps);
  const verdict = checkWebhookUrl(raw, options);
  if (!verdict.ok) return { ok: false, kind: "refused", reason: verdict.reason };
  if (verdict.host.kind === "address") return { ok: true, url: verdict.url };
  const name = verdict.host.name;
  // Loopback names are only ever allowed in local development; there is nothing to resolve.
  if (options.allowPrivate && (name === "localhost" || name.endsWith(".localhost"))) return { ok: true, url: verdict.url };
  const lookups = await Promise.all((Object.keys(DNS_TYPES) as DnsType[]).map((type) => lookup(name, type, options.dohUrl, options.dohTimeoutMs)));
  const resolved = judgeLookups(name, lookups, options);
  if (resolved.ok) return { ok: true, url: verdict.url };
  if (resolved.kind === "unavailable") {
    // An operator wants to see a resolver outage; the host name is the caller's and is not logged.
    const why = lookups.flatMap((l) => (l.kind === "unavailable" ? [l.why] : []));
    deps.log.log("warn", "dns_resolver_unavailable", { why: why.join("; ") });
  }
  return resolved;
}
