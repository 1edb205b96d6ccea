/**
 * What a webhook host's DNS lookups (A and AAAA) mean for the caller. Pure:
 * the lookups are done in `src/services/webhooks/dns-over-https.ts`.
 *
 * The line drawn here is whose fault a failure is. A name that does not exist,
 * has no address, or has one the address policy refuses is the caller's:
 * `invalid_request` naming `url`. A resolver that could not be reached, timed out or failed to
 * answer (SERVFAIL, an HTTP error) says nothing about the URL: the caller is
 * told to retry (`resolver_unavailable`), and nothing is registered meanwhile (fail closed).
 */
import { checkResolvedAddresses, type DestinationPolicy } from "./address-policy";

export type Lookup =
  | { kind: "answered"; addresses: string[] }
  /** NXDOMAIN: the name does not exist. */
  | { kind: "no_such_name" }
  /** No answer to judge by: unreachable, timed out, an HTTP error, SERVFAIL, an unreadable body. */
  | { kind: "unavailable"; why: string };

export type ResolutionVerdict = { ok: true } | { ok: false; kind: "refused"; reason: string } | { ok: false; kind: "unavailable"; reason: string };

export function judgeLookups(name: string, lookups: Lookup[], policy: DestinationPolicy): ResolutionVerdict {
  const addresses = lookups.flatMap((l) => (l.kind === "answered" ? l.addresses : []));
  // A refused address settles it even while the other lookup failed: no retry can make it acceptable.
  if (addresses.length > 0) {
    const checked = checkResolvedAddresses(name, addresses, policy);
    if (!checked.ok) return { ok: false, kind: "refused", reason: checked.reason };
  }
  // Otherwise an unanswered lookup could hide a refused address: nothing passes until it answers.
  const unavailable = lookups.find((l) => l.kind === "unavailable");
  if (unavailable) return { ok: false, kind: "unavailable", reason: `the DNS resolver could not be asked about url host ${name} (${unavailable.why})` };
  if (addresses.length > 0) return { ok: true };
  if (lookups.every((l) => l.kind === "no_such_name")) return { ok: false, kind: "refused", reason: `url host ${name} does not exist (NXDOMAIN)` };
  return { ok: false, kind: "refused", reason: `url host ${name} does not resolve to any address` };
}
