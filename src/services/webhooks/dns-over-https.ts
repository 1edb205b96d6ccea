/**
 * One DNS lookup over HTTPS (the JSON API: Cloudflare's and Google's resolvers
 * speak it). Workers have no DNS API, so this is how a webhook host's addresses
 * are learnt before the address policy judges them. Never throws: every
 * failure is a `Lookup` saying whose fault it is (`src/domain/webhooks/resolution.ts`).
 */
import type { Lookup } from "../../domain/webhooks/resolution";

export const DEFAULT_DOH_URL = "https://cloudflare-dns.com/dns-query";
export const DNS_TYPES = { A: 1, AAAA: 28 } as const;
export type DnsType = keyof typeof DNS_TYPES;
/** Long enough for a cold resolver, short enough that a registration is answered. */
export const DOH_TIMEOUT_MS = 3000;

/**
 * The lookup's timeout: `DOH_TIMEOUT_MS` when the binding holds a positive whole number of
 * milliseconds, else the 3 seconds above. No wrangler.toml environment sets it; the workerd test
 * suite does (vitest.config.mts), so its resolver-that-hangs cases wait a fraction of a second.
 */
export function dohTimeoutFrom(raw: string | undefined): number {
  const parsed = Number(raw);
  return raw !== undefined && raw.trim() !== "" && Number.isInteger(parsed) && parsed > 0 ? parsed : DOH_TIMEOUT_MS;
}

/** DNS RCODEs (RFC 1035 §4.1.1, RFC 6895) a resolver may answer with. */
const RCODE = { NOERROR: 0, NXDOMAIN: 3 } as const;
const RCODE_NAMES: Record<number, string> = { 1: "FORMERR", 2: "SERVFAIL", 4: "NOTIMP", 5: "REFUSED" };

interface DohAnswer {
  Status?: number;
  Answer?: { type: number; data: string }[];
}

const readJson = async (res: Response): Promise<DohAnswer | null> => {
  try {
    const body = (await res.json()) as unknown;
    return body !== null && typeof body === "object" ? (body as DohAnswer) : null;
  } catch {
    return null;
  }
};

export async function lookup(name: string, type: DnsType, dohUrl: string, timeoutMs = DOH_TIMEOUT_MS): Promise<Lookup> {
  const url = new URL(dohUrl);
  url.searchParams.set("name", name);
  url.searchParams.set("type", type);
  let res: Response;
  try {
    res = await fetch(url, { headers: { Accept: "application/dns-json" }, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    const timedOut = (error as Error)?.name === "TimeoutError" || (error as Error)?.name === "AbortError";
    return { kind: "unavailable", why: timedOut ? `no answer within ${timeoutMs / 1000} seconds` : "the resolver could not be reached" };
  }
  if (!res.ok) {
    await res.body?.cancel();
    return { kind: "unavailable", why: `the resolver answered HTTP ${res.status}` };
  }
  const answer = await readJson(res);
  if (answer === null || (answer.Status !== undefined && typeof answer.Status !== "number")) return { kind: "unavailable", why: "the resolver's answer could not be read" };
  const status = answer.Status ?? RCODE.NOERROR;
  if (status === RCODE.NXDOMAIN) return { kind: "no_such_name" };
  if (status !== RCODE.NOERROR) return { kind: "unavailable", why: `the resolver answered ${RCODE_NAMES[status] ?? `DNS status ${status}`}` };
  // CNAME records (type 5) are followed by the resolver; only the final addresses matter.
  const records = Array.isArray(answer.Answer) ? answer.Answer : [];
  return { kind: "answered", addresses: records.filter((a) => a?.type === DNS_TYPES[type] && typeof a.data === "string").map((a) => a.data) };
}
