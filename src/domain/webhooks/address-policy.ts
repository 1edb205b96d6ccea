/**
 * Which webhook destinations the service may POST to. Pure: no DNS, no I/O.
 * Everything that could reach the service's own network, the platform's
 * metadata services or a neighbour's private range is refused (SSRF defence).
 * Resolution of names happens in `src/services/webhooks/destination.ts`; what
 * its answers mean is decided in `./resolution.ts`, with `readAnswer` and `classify` below.
 *
 * Where parsing happens. A webhook URL is read once, by the WHATWG URL parser
 * (`new URL`), the same parser `fetch()` uses to decide where it connects. In
 * workerd that parser already turns every IPv4 spelling inet_aton accepts
 * (`2130706433`, `0x7f.1`, `0177.0.0.1`, `127.1`, percent-encoded or
 * full-width digits, a trailing dot) into dotted decimal, writes IPv6 in its
 * compressed lower-case form in brackets, and refuses zone ids
 * (`[fe80::1%eth0]`). So the policy judges `url.hostname`, what fetch will
 * actually connect to, never the text the caller sent. ipaddr.js then reads
 * that host with its lenient parser (`IPv4.parse`, not only
 * `isValidFourPartDecimal`), so a host that ever arrived unnormalised would
 * still be read as the address a resolver library reads it as, never as a name
 * to look up. DNS answers are read strictly instead (`readAnswer`): a resolver
 * speaks dotted decimal and plain IPv6, and anything else from it is refused.
 *
 * Classification is ipaddr.js's `range()`; the list below holds only what it
 * does not say, or says too broadly (see `OWN_RANGES`).
 */
import ipaddr from "ipaddr.js";

export type AddressClass =
  | "public"
  | "unspecified"
  | "loopback"
  | "private"
  | "link_local"
  | "shared_cgnat"
  | "multicast"
  | "broadcast"
  | "reserved"
  | "documentation"
  | "unique_local"
  | "nat64_local";

export type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** An address's class and the range that put it there (ipaddr.js's name, or one of `OWN_RANGES`). */
export interface Classified {
  cls: AddressClass;
  range: string;
}

const cidr = (text: string) => ipaddr.parseCIDR(text) as [Address, number];

/**
 * Ranges ipaddr.js does not name apart, checked before its `range()`:
 * - documentation (RFC 5737, RFC 3849, RFC 9637): ipaddr.js files these under
 *   `reserved`; they are refused either way, named so the refusal says why.
 * Benchmarking 198.18.0.0/15 and shared CGNAT 100.64.0.0/10 need no entry:
 * ipaddr.js has them (`reserved`, `carrierGradeNat`). Two IPv6 rules need code,
 * not a range, in `classifyIpv6`: the IPv4-compatible block ::/96 and the
 * global unicast block 2000::/3.
 */
const OWN_RANGES = {
  documentation: ["192.0.2.0/24", "198.51.100.0/24", "203.0.113.0/24", "2001:db8::/32", "3fff::/20"].map(cidr),
};

/** Global unicast space (RFC 4291 §2.4); IPv6 outside it that ipaddr.js calls `unicast` is unallocated. */
const GLOBAL_UNICAST = cidr("2000::/3");
/** The well-known NAT64 prefix: the last 32 bits are the IPv4 address reached (RFC 6052). */
const NAT64_WELL_KNOWN = cidr("64:ff9b::/96");

/** ipaddr.js's IPv4 ranges. A name not listed (a range a later version adds) is refused as reserved. */
const IPV4_RANGE_CLASS: Record<string, AddressClass> = {
  unicast: "public",
  // AS112 (RFC 7534) and AMT relays (RFC 7450) are anycast services on the public internet.
  as112: "public",
  amt: "public",
  private: "private",
  loopback: "loopback",
  linkLocal: "link_local",
  carrierGradeNat: "shared_cgnat",
  multicast: "multicast",
  unspecified: "unspecified",
  broadcast: "broadcast",
  reserved: "reserved",
};

/** ipaddr.js's IPv6 ranges that decide by themselves; those carrying IPv4 are handled in `classifyIpv6`. */
const IPV6_RANGE_CLASS: Record<string, AddressClass> = {
  as112v6: "public",
  amt: "public",
  unspecified: "unspecified",
  loopback: "loopback",
  linkLocal: "link_local",
  uniqueLocal: "unique_local",
  // fec0::/10, deprecated site-local: the IPv6 twin of RFC 1918.
  deprecatedSiteLocal: "private",
  multicast: "multicast",
  // Teredo hides an obfuscated IPv4 client behind a relay; refused whole, as is every other
  // special-purpose block (discard, benchmarking, ORCHID, DRIP, segment routing, reserved).
};

const ownRange = (address: Address): string | null => {
  const name = ipaddr.subnetMatch(address, OWN_RANGES, "");
  return name === "" ? null : name;
};

const ipv4At = (address: ipaddr.IPv6, byte: number) => ipaddr.fromByteArray(address.toByteArray().slice(byte, byte + 4)) as ipaddr.IPv4;

export function classifyIpv4(address: ipaddr.IPv4): Classified {
  const own = ownRange(address);
  if (own) return { cls: own as AddressClass, range: own };
  const range = address.range();
  return { cls: IPV4_RANGE_CLASS[range] ?? "reserved", range };
}

/** The IPv4 address an IPv6 one carries decides, whatever the wrapping. */
const carried = (wrapper: string, inner: ipaddr.IPv4): Classified => {
  const { cls, range } = classifyIpv4(inner);
  return { cls, range: `${wrapper} carrying ${inner.toString()} (${range})` };
};

export function classifyIpv6(address: ipaddr.IPv6): Classified {
  const own = ownRange(address);
  if (own) return { cls: own as AddressClass, range: own };
  const range = address.range();
  switch (range) {
    // ::ffff:a.b.c.d (mapped) and ::ffff:0:a.b.c.d (SIIT, RFC 6145) reach the IPv4 address in their tail.
    case "ipv4Mapped":
    case "rfc6145":
      return carried(range, ipv4At(address, 12));
    // 64:ff9b::/96 reaches the IPv4 address in its tail; 64:ff9b:1::/48 is a network's own NAT64.
    case "rfc6052":
      return address.match(NAT64_WELL_KNOWN) ? carried(range, ipv4At(address, 12)) : { cls: "nat64_local", range };
    // 2002:AABB:CCDD::/48 is the 6to4 network of the IPv4 address AA.BB.CC.DD.
    case "6to4":
      return carried(range, ipv4At(address, 2));
    case "unicast": {
      // ::a.b.c.d, IPv4-compatible (RFC 4291, deprecated): ipaddr.js reads that spelling as mapped,
      // but the same address written ::a00:1 (as the URL parser writes it) comes back `unicast`.
      // Its IPv4 decides; one carrying a public IPv4 is still refused, as nothing routes it.
      if (address.parts.slice(0, 6).every((part) => part === 0)) {
        const inner = carried("ipv4Compatible", ipv4At(address, 12));
        return inner.cls === "public" ? { cls: "reserved", range: inner.range } : inner;
      }
      return address.match(GLOBAL_UNICAST) ? { cls: "public", range } : { cls: "reserved", range: "outside 2000::/3" };
    }
    default:
      return { cls: IPV6_RANGE_CLASS[range] ?? "reserved", range };
  }
}

export const classify = (address: Address): Classified => (address.kind() === "ipv4" ? classifyIpv4(address as ipaddr.IPv4) : classifyIpv6(address as ipaddr.IPv6));

export type ReadHost = { kind: "address"; address: Address } | { kind: "name"; name: string } | { kind: "unreadable" };

/**
 * A URL host as the URL parser hands it over (IPv6 in brackets). IPv4 in any
 * inet_aton spelling is an address (see the top of this file); an IPv6 zone
 * id makes the host unreadable (the URL parser refuses it before this).
 */
export function readHost(host: string): ReadHost {
  const h = host.trim().toLowerCase().replace(/\.+$/, "");
  const bracketed = h.startsWith("[") && h.endsWith("]");
  const inner = bracketed ? h.slice(1, -1) : h;
  if (ipaddr.IPv6.isValid(inner)) {
    const address = ipaddr.IPv6.parse(inner);
    return address.zoneId === undefined ? { kind: "address", address } : { kind: "unreadable" };
  }
  if (bracketed || h.includes("%")) return { kind: "unreadable" };
  if (ipaddr.IPv4.isValid(h)) return { kind: "address", address: ipaddr.IPv4.parse(h) };
  return { kind: "name", name: h };
}

/** An A or AAAA answer: dotted decimal or plain IPv6 (no zone id), else null. */
export function readAnswer(text: string): Address | null {
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) return ipaddr.IPv4.parse(text);
  if (!ipaddr.IPv6.isValid(text)) return null;
  const address = ipaddr.IPv6.parse(text);
  return address.zoneId === undefined ? address : null;
}

/** Names that mean "this machine" or cannot be a public host whatever DNS says. */
export function classifyName(name: string): AddressClass | null {
  const n = name.toLowerCase().replace(/\.+$/, "");
  if (n === "localhost" || n.endsWith(".localhost")) return "loopback";
  if (!n.includes(".")) return "reserved";
  if (/\.(local|internal|localdomain|home\.arpa)$/.test(n)) return "reserved";
  return null;
}

export interface DestinationPolicy {
  /** Local development only: http and loopback receivers are accepted. */
  allowPrivate: boolean;
}

/** Whether an address class may be contacted under the policy. */
export const classAllowed = (cls: AddressClass, policy: DestinationPolicy) =>
  cls === "public" || (policy.allowPrivate && cls === "loopback");

const described = ({ cls, range }: Classified) => `a ${cls.replace(/_/g, " ")} address (${range})`;

export type UrlVerdict =
  | { ok: true; url: URL; host: { kind: "address"; address: string } | { kind: "name"; name: string } }
  | { ok: false; reason: string };

const MAX_URL_LENGTH = 2048;

/**
 * The static half of the check: scheme, shape, address literals in any
 * spelling and reserved names. A name that passes must still be resolved and
 * every address it resolves to checked (`./resolution.ts`).
 */
export function checkWebhookUrl(raw: string, policy: DestinationPolicy): UrlVerdict {
  if (raw.length > MAX_URL_LENGTH) return { ok: false, reason: `url must be at most ${MAX_URL_LENGTH} characters` };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: "url is not an absolute URL" };
  }
  if (url.protocol !== "https:" && !(policy.allowPrivate && url.protocol === "http:")) {
    return { ok: false, reason: "url must use https" };
  }
  if (url.username || url.password) return { ok: false, reason: "url must not carry credentials" };
  const host = readHost(url.hostname);
  if (host.kind === "unreadable") return { ok: false, reason: "url host is not a readable address" };
  if (host.kind === "address") {
    const classified = classify(host.address);
    if (!classAllowed(classified.cls, policy)) return { ok: false, reason: `url host is ${described(classified)}; webhooks go to public hosts only` };
    return { ok: true, url, host: { kind: "address", address: url.hostname } };
  }
  const named = classifyName(host.name);
  if (named && !classAllowed(named, policy)) return { ok: false, reason: `url host ${host.name} is not a public host name` };
  return { ok: true, url, host: { kind: "name", name: host.name } };
}

/** Every address a name resolved to must be allowed, and there must be one. */
export function checkResolvedAddresses(name: string, addresses: string[], policy: DestinationPolicy): { ok: true } | { ok: false; reason: string } {
  if (addresses.length === 0) return { ok: false, reason: `url host ${name} does not resolve to any address` };
  for (const answer of addresses) {
    const address = readAnswer(answer);
    if (address === null) return { ok: false, reason: `url host ${name} resolved to an unreadable address` };
    const classified = classify(address);
    if (!classAllowed(classified.cls, policy)) return { ok: false, reason: `url host ${name} resolves to ${described(classified)}: ${answer}` };
  }
  return { ok: true };
}
