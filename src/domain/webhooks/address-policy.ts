/**
 * Which webhook destinations the service may POST to. Pure: no DNS, no I/O.
 * Everything that could reach the service's own network, the platform's
 * metadata services or a neighbour's private range is refused (SSRF defence).
 * Resolution of names happens in `src/services/webhook-destination.ts`, which
 * classifies every resolved address with `classifyAddress` below.
 */

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

export type ParsedHost =
  | { kind: "ipv4"; bytes: number[] }
  | { kind: "ipv6"; words: number[] }
  | { kind: "name"; name: string };

const parseIpv4Part = (part: string): number | null => {
  if (part === "") return null;
  if (/^0x[0-9a-f]*$/i.test(part)) return part.length === 2 ? 0 : parseInt(part.slice(2), 16);
  if (/^0[0-7]*$/.test(part)) return parseInt(part, 8);
  if (/^[1-9][0-9]*$/.test(part)) return parseInt(part, 10);
  return null;
};

/**
 * IPv4 the way inet_aton (and the WHATWG URL parser) reads it: 1 to 4 parts,
 * each decimal, octal (`0177`) or hex (`0x7f`); the last part fills the
 * remaining bytes, so `127.1`, `2130706433` and `0x7f.1` are all 127.0.0.1.
 */
export function parseIpv4(text: string): number[] | null {
  const parts = text.replace(/\.$/, "").split(".");
  if (parts.length < 1 || parts.length > 4) return null;
  const numbers = parts.map(parseIpv4Part);
  if (numbers.some((n) => n === null || !Number.isFinite(n))) return null;
  const values = numbers as number[];
  const last = values[values.length - 1];
  const lastBytes = 5 - values.length;
  if (values.slice(0, -1).some((n) => n > 255) || last >= 256 ** lastBytes) return null;
  const bytes = values.slice(0, -1);
  for (let i = lastBytes - 1; i >= 0; i--) bytes.push(Math.floor(last / 256 ** i) % 256);
  return bytes;
}

/** Eight 16-bit words, or null. Zone ids (`fe80::1%eth0`) are refused as unparseable. */
export function parseIpv6(text: string): number[] | null {
  let s = text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text;
  if (s.includes("%") || !/^[0-9a-f:.]+$/i.test(s)) return null;
  const lastColon = s.lastIndexOf(":");
  if (lastColon >= 0 && s.slice(lastColon + 1).includes(".")) {
    // An embedded dotted IPv4 tail (::ffff:10.0.0.1) becomes two hex words.
    const v4 = s.slice(lastColon + 1).split(".");
    if (v4.length !== 4 || v4.some((p) => !/^\d{1,3}$/.test(p) || Number(p) > 255)) return null;
    const b = v4.map(Number);
    s = `${s.slice(0, lastColon + 1)}${((b[0] << 8) | b[1]).toString(16)}:${((b[2] << 8) | b[3]).toString(16)}`;
  }
  const halves = s.split("::");
  if (halves.length > 2) return null;
  const toWords = (part: string) => (part === "" ? [] : part.split(":"));
  const head = toWords(halves[0]);
  const rest = halves.length === 2 ? toWords(halves[1]) : [];
  if ([...head, ...rest].some((w) => !/^[0-9a-f]{1,4}$/i.test(w))) return null;
  const explicit = head.length + rest.length;
  if (halves.length === 1 && explicit !== 8) return null;
  if (halves.length === 2 && explicit > 7) return null;
  const zeros = new Array(8 - explicit).fill(0);
  return [...head.map((w) => parseInt(w, 16)), ...zeros, ...rest.map((w) => parseInt(w, 16))];
}

/** A URL host as the URL parser hands it over (IPv6 in brackets), or a bare address from DNS. */
export function parseHost(host: string): ParsedHost {
  const h = host.trim().toLowerCase().replace(/\.$/, "");
  if (h.includes(":")) {
    const words = parseIpv6(h);
    return words ? { kind: "ipv6", words } : { kind: "name", name: h };
  }
  if (/^[0-9a-fx.]+$/i.test(h) && /^(0x[0-9a-f]*|\d+)(\.(0x[0-9a-f]*|\d+)){0,3}\.?$/i.test(h)) {
    const bytes = parseIpv4(h);
    if (bytes) return { kind: "ipv4", bytes };
  }
  return { kind: "name", name: h };
}

const inV4 = (b: number[], prefix: number[], bits: number) => {
  for (let i = 0; i < 4; i++) {
    const take = Math.max(0, Math.min(8, bits - i * 8));
    if (take === 0) break;
    const mask = (0xff << (8 - take)) & 0xff;
    if ((b[i] & mask) !== (prefix[i] & mask)) return false;
  }
  return true;
};

const V4_RANGES: [number[], number, AddressClass][] = [
  [[255, 255, 255, 255], 32, "broadcast"],
  [[0, 0, 0, 0], 8, "unspecified"],
  [[10, 0, 0, 0], 8, "private"],
  [[100, 64, 0, 0], 10, "shared_cgnat"],
  [[127, 0, 0, 0], 8, "loopback"],
  [[169, 254, 0, 0], 16, "link_local"],
  [[172, 16, 0, 0], 12, "private"],
  [[192, 0, 0, 0], 24, "reserved"],
  [[192, 0, 2, 0], 24, "documentation"],
  [[192, 88, 99, 0], 24, "reserved"],
  [[192, 168, 0, 0], 16, "private"],
  [[198, 18, 0, 0], 15, "reserved"],
  [[198, 51, 100, 0], 24, "documentation"],
  [[203, 0, 113, 0], 24, "documentation"],
  [[224, 0, 0, 0], 4, "multicast"],
  [[240, 0, 0, 0], 4, "reserved"],
];

export function classifyIpv4(bytes: number[]): AddressClass {
  for (const [prefix, bits, cls] of V4_RANGES) if (inV4(bytes, prefix, bits)) return cls;
  return "public";
}

const v4FromWords = (hi: number, lo: number) => [hi >> 8, hi & 0xff, lo >> 8, lo & 0xff];

export function classifyIpv6(w: number[]): AddressClass {
  const zeroUpTo = (n: number) => w.slice(0, n).every((x) => x === 0);
  if (zeroUpTo(8)) return "unspecified";
  if (zeroUpTo(7) && w[7] === 1) return "loopback";
  // IPv4-mapped (::ffff:a.b.c.d) and the deprecated IPv4-compatible (::a.b.c.d) carry an IPv4 address.
  if (zeroUpTo(5) && w[5] === 0xffff) return classifyIpv4(v4FromWords(w[6], w[7]));
  if (zeroUpTo(6)) return classifyIpv4(v4FromWords(w[6], w[7]));
  // IPv4-translated (::ffff:0:a.b.c.d, SIIT) carries one too.
  if (zeroUpTo(4) && w[4] === 0xffff && w[5] === 0) return classifyIpv4(v4FromWords(w[6], w[7]));
  // NAT64 well-known prefix 64:ff9b::/96 reaches the IPv4 address in its tail.
  if (w[0] === 0x64 && w[1] === 0xff9b && w.slice(2, 6).every((x) => x === 0)) return classifyIpv4(v4FromWords(w[6], w[7]));
  if (w[0] === 0x64 && w[1] === 0xff9b && w[2] === 1) return "nat64_local";
  // 6to4 (2002::/16) embeds an IPv4 address in words 1 and 2.
  if (w[0] === 0x2002) {
    const embedded = classifyIpv4(v4FromWords(w[1], w[2]));
    if (embedded !== "public") return embedded;
  }
  if ((w[0] & 0xfe00) === 0xfc00) return "unique_local";
  if ((w[0] & 0xffc0) === 0xfe80) return "link_local";
  if ((w[0] & 0xffc0) === 0xfec0) return "private";
  if ((w[0] & 0xff00) === 0xff00) return "multicast";
  if (w[0] === 0x2001 && w[1] === 0x0db8) return "documentation";
  // Teredo (2001::/32) hides an obfuscated IPv4 address; discard-only 100::/64.
  if (w[0] === 0x2001 && w[1] === 0) return "reserved";
  if (w[0] === 0x100 && w.slice(1, 4).every((x) => x === 0)) return "reserved";
  return "public";
}

/** The class of an address literal (a URL host or a DNS answer); names are null. */
export function classifyAddress(host: string): AddressClass | null {
  const parsed = parseHost(host);
  if (parsed.kind === "ipv4") return classifyIpv4(parsed.bytes);
  if (parsed.kind === "ipv6") return classifyIpv6(parsed.words);
  return null;
}

/** Names that mean "this machine" or cannot be a public host whatever DNS says. */
export function classifyName(name: string): AddressClass | null {
  const n = name.toLowerCase().replace(/\.$/, "");
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

export type UrlVerdict =
  | { ok: true; url: URL; host: { kind: "address"; address: string } | { kind: "name"; name: string } }
  | { ok: false; reason: string };

const MAX_URL_LENGTH = 2048;

/**
 * The static half of the check: scheme, shape, address literals in any
 * spelling and reserved names. A name that passes must still be resolved and
 * every address it resolves to checked (`checkResolvedAddresses`).
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
  const parsed = parseHost(url.hostname);
  if (parsed.kind !== "name") {
    const cls = parsed.kind === "ipv4" ? classifyIpv4(parsed.bytes) : classifyIpv6(parsed.words);
    if (!classAllowed(cls, policy)) return { ok: false, reason: `url host is a ${cls.replace(/_/g, " ")} address; webhooks go to public hosts only` };
    return { ok: true, url, host: { kind: "address", address: url.hostname } };
  }
  const named = classifyName(parsed.name);
  if (named && !classAllowed(named, policy)) return { ok: false, reason: `url host ${parsed.name} is not a public host name` };
  return { ok: true, url, host: { kind: "name", name: parsed.name } };
}

/** The dynamic half: every address a name resolved to must be allowed, and there must be one. */
export function checkResolvedAddresses(name: string, addresses: string[], policy: DestinationPolicy): { ok: true } | { ok: false; reason: string } {
  if (addresses.length === 0) return { ok: false, reason: `url host ${name} does not resolve to any address` };
  for (const address of addresses) {
    const cls = classifyAddress(address);
    if (cls === null) return { ok: false, reason: `url host ${name} resolved to an unreadable address` };
    if (!classAllowed(cls, policy)) return { ok: false, reason: `url host ${name} resolves to a ${cls.replace(/_/g, " ")} address (${address})` };
  }
  return { ok: true };
}
