import { describe, expect, it } from "vitest";
import { checkResolvedAddresses, checkWebhookUrl, classify, readAnswer, readHost } from "../../../src/domain/webhooks/address-policy";

/** A DNS answer read and classified, as the resolution step does (null when it cannot be read). */
const classifyAddress = (answer: string) => {
  const address = readAnswer(answer);
  return address ? classify(address).cls : null;
};

const strict = { allowPrivate: false };
const local = { allowPrivate: true };

describe("webhook address policy", () => {
  it.each([
    // [url, why it is refused]
    ["http://hooks.example.com/x", "https"],
    ["https://10.0.0.1/x", "private"],
    ["https://10.255.255.255/x", "private"],
    ["https://172.16.0.1/x", "private"],
    ["https://172.31.255.254/x", "private"],
    ["https://192.168.1.10/x", "private"],
    ["https://127.0.0.1/x", "loopback"],
    ["https://127.255.0.9/x", "loopback"],
    ["https://[::1]/x", "loopback"],
    ["https://169.254.169.254/latest/meta-data", "link local"],
    ["https://[fe80::1]/x", "link local"],
    ["https://100.64.0.1/x", "shared cgnat"],
    ["https://100.127.255.255/x", "shared cgnat"],
    ["https://224.0.0.1/x", "multicast"],
    ["https://239.255.255.250/x", "multicast"],
    ["https://[ff02::1]/x", "multicast"],
    ["https://0.0.0.0/x", "unspecified"],
    ["https://0.1.2.3/x", "unspecified"],
    ["https://[::]/x", "unspecified"],
    ["https://255.255.255.255/x", "broadcast"],
    ["https://[fc00::1]/x", "unique local"],
    ["https://[fd12:3456:789a::1]/x", "unique local"],
    ["https://[::ffff:10.0.0.1]/x", "private"],
    ["https://[::ffff:a00:1]/x", "private"],
    ["https://[::ffff:127.0.0.1]/x", "loopback"],
    ["https://[::10.0.0.1]/x", "private"],
    ["https://[::a00:1]/x", "private"],
    ["https://[64:ff9b::10.0.0.1]/x", "private"],
    ["https://[64:ff9b::a9fe:a9fe]/x", "link local"],
    ["https://[64:ff9b:1::1]/x", "nat64 local"],
    ["https://[2002:a00:1::1]/x", "private"],
    ["https://2130706433/x", "loopback"],
    ["https://0177.0.0.1/x", "loopback"],
    ["https://0x7f.1/x", "loopback"],
    ["https://0x7f000001/x", "loopback"],
    ["https://127.1/x", "loopback"],
    ["https://10.1/x", "private"],
    ["https://0xa9.0xfe.0xa9.0xfe/x", "link local"],
    // Odd spellings: IPv4 in decimal, octal, hex, short and mixed forms, a trailing dot.
    ["https://0/x", "unspecified"],
    ["https://012.0.0.1/x", "private"],
    ["https://0x0a000001/x", "private"],
    ["https://167772161/x", "private"],
    ["https://0xc0.0xa8.1.1/x", "private"],
    ["https://0300.0250.1.1/x", "private"],
    ["https://192.168.257/x", "private"],
    ["https://172.020.0.1/x", "private"],
    ["https://0x7f.0.0.01/x", "loopback"],
    ["https://127.0.0.1./x", "loopback"],
    ["https://017700000001/x", "loopback"],
    ["https://0xA9FEA9FE/x", "link local"],
    ["https://2852039166/x", "link local"],
    ["https://100.0x40.0.1/x", "shared cgnat"],
    ["https://1681915905/x", "shared cgnat"],
    ["https://0xe0.0.0.1/x", "multicast"],
    ["https://3758096385/x", "multicast"],
    ["https://0.0/x", "unspecified"],
    // IPv6 long, zero-padded and upper-case forms, and IPv4 inside IPv6 in every form.
    ["https://[0:0:0:0:0:0:0:1]/x", "loopback"],
    ["https://[0000:0000:0000:0000:0000:0000:0000:0001]/x", "loopback"],
    ["https://[::0:1]/x", "loopback"],
    ["https://[0::]/x", "unspecified"],
    ["https://[FE80::A]/x", "link local"],
    ["https://[febf:ffff::1]/x", "link local"],
    ["https://[fec0::1]/x", "private"],
    ["https://[FF0E::1]/x", "multicast"],
    ["https://[0:0:0:0:0:ffff:127.0.0.1]/x", "loopback"],
    ["https://[::ffff:7f00:1]/x", "loopback"],
    ["https://[::FFFF:C0A8:0101]/x", "private"],
    ["https://[::ffff:169.254.169.254]/x", "link local"],
    ["https://[::ffff:100.64.0.1]/x", "shared cgnat"],
    ["https://[::ffff:224.0.0.1]/x", "multicast"],
    ["https://[::ffff:0.0.0.0]/x", "unspecified"],
    ["https://[::ffff:0:10.0.0.1]/x", "private"],
    ["https://[::ffff:0:7f00:1]/x", "loopback"],
    ["https://[::127.0.0.1]/x", "loopback"],
    ["https://[64:ff9b::127.0.0.1]/x", "loopback"],
    ["https://[2002:7f00:1::]/x", "loopback"],
    ["https://[2001:db8::1]/x", "documentation"],
    ["https://[2001::1]/x", "reserved"],
    ["https://[100::1]/x", "reserved"],
    ["https://localhost/x", "public host name"],
    ["https://LOCALHOST./x", "public host name"],
    ["https://api.localhost/x", "public host name"],
    ["https://intranet/x", "public host name"],
    ["https://printer.local/x", "public host name"],
    ["https://user:pass@hooks.example.com/x", "credentials"],
    ["not a url", "absolute URL"],
    // Added with ipaddr.js: the IPv4 an IPv6 address carries decides, in every wrapping.
    ["https://[64:ff9b::192.168.0.1]/x", "private"],
    ["https://[64:ff9b::a00:1]/x", "private"],
    ["https://[64:ff9b::100.64.0.1]/x", "shared cgnat"],
    ["https://[64:ff9b::0.0.0.0]/x", "unspecified"],
    ["https://[64:ff9b::e000:1]/x", "multicast"],
    ["https://[64:ff9b:1::a00:1]/x", "nat64 local"],
    ["https://[2002:c0a8:101::1]/x", "private"],
    ["https://[2002:a9fe:a9fe::]/x", "link local"],
    ["https://[2002:6440:1::1]/x", "shared cgnat"],
    ["https://[2002:e000:1::]/x", "multicast"],
    ["https://[2002:c000:201::]/x", "documentation"],
    ["https://[::ffff:0:192.168.1.1]/x", "private"],
    ["https://[::ffff:0:a9fe:a9fe]/x", "link local"],
    ["https://[::169.254.169.254]/x", "link local"],
    ["https://[::c0a8:101]/x", "private"],
    ["https://[::8.8.8.8]/x", "reserved address (ipv4Compatible carrying 8.8.8.8"],
    ["https://[::ffff:192.0.2.1]/x", "documentation"],
    ["https://[::ffff:198.18.0.1]/x", "reserved"],
    // Teredo (2001::/32) hides its IPv4 client: refused whole.
    ["https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/x", "reserved address (teredo)"],
    ["https://[2001:0:a00:1::1]/x", "reserved address (teredo)"],
    // Special-purpose IPv4 blocks ipaddr.js names (benchmarking, IETF protocol, old 6to4 relay, class E) and documentation.
    ["https://198.18.0.1/x", "reserved"],
    ["https://198.19.255.254/x", "reserved"],
    ["https://192.0.0.8/x", "reserved"],
    ["https://192.88.99.1/x", "reserved"],
    ["https://240.0.0.1/x", "reserved"],
    ["https://192.0.2.10/x", "documentation"],
    ["https://198.51.100.7/x", "documentation"],
    ["https://203.0.113.9/x", "documentation"],
    // Special-purpose IPv6 blocks, and IPv6 outside the global unicast 2000::/3.
    ["https://[3fff::1]/x", "documentation"],
    ["https://[2001:2::1]/x", "reserved address (benchmarking)"],
    ["https://[2001:20::1]/x", "reserved"],
    ["https://[5f00::1]/x", "reserved"],
    ["https://[4000::1]/x", "reserved address (outside 2000::/3)"],
    ["https://[::1:0:0:1]/x", "reserved address (outside 2000::/3)"],
    // More IPv4 spellings: all-hex, three parts, zero-padded, upper case, octal short, percent-encoded,
    // full-width digits, a trailing dot after a short form, a port.
    ["https://0x7f.0x0.0x0.0x1/x", "loopback"],
    ["https://127.0.1/x", "loopback"],
    ["https://127.000.000.001/x", "loopback"],
    ["https://0X7F.1/x", "loopback"],
    ["https://0177.1/x", "loopback"],
    ["https://%31%32%37.0.0.1/x", "loopback"],
    ["https://\uff11\uff12\uff17.0.0.1/x", "loopback"],
    ["https://0x7f.1./x", "loopback"],
    ["https://10.0.0.1:8443/x", "private"],
    ["https://0xa9.0xfea9fe/x", "link local"],
    ["https://0xa9fe.0xa9fe/x", "absolute URL"],
    // IPv6 in brackets with a port, with an embedded dotted tail in upper case; zone ids and double brackets.
    ["https://[::ffff:127.0.0.1]:8443/x", "loopback"],
    ["https://[0:0:0:0:0:FFFF:7F00:0001]/x", "loopback"],
    ["https://[fe80::1%eth0]/x", "absolute URL"],
    ["https://[fe80::1%25eth0]/x", "absolute URL"],
    ["https://[[::1]]/x", "absolute URL"],
    ["https://[::1/x", "absolute URL"],
    // Names with trailing dots.
    ["https://localhost../x", "public host name"],
    ["https://printer.local./x", "public host name"],
    ["https://metadata.google.internal/x", "public host name"],
    ["https://router.home.arpa/x", "public host name"],
  ])("refuses %s (%s)", (url, why) => {
    const verdict = checkWebhookUrl(url, strict);
    expect(verdict.ok).toBe(false);
    if (!verdict.ok) expect(verdict.reason).toContain(why);
  });

  it.each([
    "https://hooks.example.com/rfs",
    "https://93.184.216.34/x",
    "https://[2606:4700:4700::1111]/x",
    "https://8.8.8.8:8443/x",
    "https://[::ffff:8.8.8.8]/x",
    // NAT64 and 6to4 reaching a public IPv4 address reach the public internet.
    "https://[64:ff9b::808:808]/x",
    "https://[2002:808:808::1]/x",
    "https://hooks.example.com./rfs",
  ])(
    "accepts %s",
    (url) => expect(checkWebhookUrl(url, strict).ok).toBe(true),
  );

  it("lets local development reach http and loopback receivers, and nothing else private", () => {
    expect(checkWebhookUrl("http://127.0.0.1:8787/hook", local).ok).toBe(true);
    expect(checkWebhookUrl("http://localhost:8787/hook", local).ok).toBe(true);
    expect(checkWebhookUrl("http://[::1]:8787/hook", local).ok).toBe(true);
    expect(checkWebhookUrl("http://10.0.0.1/hook", local).ok).toBe(false);
    expect(checkWebhookUrl("https://169.254.169.254/", local).ok).toBe(false);
    expect(checkWebhookUrl("ftp://127.0.0.1/hook", local).ok).toBe(false);
  });

  it.each([
    ["10.0.0.1", "private"],
    ["192.168.0.1", "private"],
    ["127.0.0.1", "loopback"],
    ["::1", "loopback"],
    ["::ffff:192.168.0.1", "private"],
    ["::ffff:a9fe:a9fe", "link_local"],
    ["::ffff:0:a00:1", "private"],
    ["0:0:0:0:0:0:0:1", "loopback"],
    ["FE80::1", "link_local"],
    ["::", "unspecified"],
    ["ff02::1", "multicast"],
    ["224.0.0.251", "multicast"],
    ["0.0.0.0", "unspecified"],
    ["169.254.169.254", "link_local"],
    ["fe80::abcd", "link_local"],
    ["fd00::1", "unique_local"],
    ["100.100.100.100", "shared_cgnat"],
    ["8.8.8.8", "public"],
    ["2606:4700:4700::1111", "public"],
    ["64:ff9b::a00:1", "private"],
    ["64:ff9b::808:808", "public"],
    ["2002:a00:1::1", "private"],
    ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "reserved"],
    ["198.18.0.1", "reserved"],
    ["192.0.2.1", "documentation"],
    ["2001:db8::5", "documentation"],
    ["::a00:1", "private"],
  ])("classifies the resolved address %s as %s", (address, cls) => expect(classifyAddress(address)).toBe(cls));

  it("refuses a name when any resolved address is not public, or when it resolves to nothing", () => {
    expect(checkResolvedAddresses("a.example.com", ["93.184.216.34"], strict)).toEqual({ ok: true });
    expect(checkResolvedAddresses("a.example.com", ["93.184.216.34", "10.0.0.7"], strict).ok).toBe(false);
    expect(checkResolvedAddresses("a.example.com", ["::ffff:7f00:1"], strict).ok).toBe(false);
    expect(checkResolvedAddresses("a.example.com", [], strict).ok).toBe(false);
  });

  it("judges the host the URL parser hands over: workerd's parser writes every IPv4 spelling in dotted decimal", () => {
    // Why the policy reads url.hostname (see the top of address-policy.ts): fetch() connects to what this parser says.
    expect(new URL("https://2130706433/").hostname).toBe("127.0.0.1");
    expect(new URL("https://0x7f.1/").hostname).toBe("127.0.0.1");
    expect(new URL("https://0177.0.0.1/").hostname).toBe("127.0.0.1");
    expect(new URL("https://127.1/").hostname).toBe("127.0.0.1");
    expect(new URL("https://127.0.0.1./").hostname).toBe("127.0.0.1");
    expect(new URL("https://[::FFFF:127.0.0.1]/").hostname).toBe("[::ffff:7f00:1]");
    expect(() => new URL("https://[fe80::1%eth0]/")).toThrow();
  });

  it("reads an unnormalised host as inet_aton would, through ipaddr.js", () => {
    const read = (host: string) => {
      const parsed = readHost(host);
      return parsed.kind === "address" ? parsed.address.toString() : parsed.kind;
    };
    expect(read("2130706433")).toBe("127.0.0.1");
    expect(read("017700000001")).toBe("127.0.0.1");
    expect(read("0177.0.0.1")).toBe("127.0.0.1");
    expect(read("0x7f.1")).toBe("127.0.0.1");
    expect(read("127.1")).toBe("127.0.0.1");
    expect(read("10.1")).toBe("10.0.0.1");
    expect(read("192.168.257")).toBe("192.168.1.1");
    expect(read("127.0.0.1.")).toBe("127.0.0.1");
    expect(read("[::ffff:a00:1]")).toBe("::ffff:a00:1");
    expect(read("fe80::1%eth0")).toBe("unreadable");
    expect(read("[fe80::1%eth0]")).toBe("unreadable");
    expect(read("256.0.0.1")).toBe("name");
    expect(read("1.2.3.4.5")).toBe("name");
    expect(read("hooks.example.com")).toBe("name");
    const classOf = (host: string) => {
      const parsed = readHost(host);
      return parsed.kind === "address" ? classify(parsed.address).cls : parsed.kind;
    };
    expect(classOf("0x7f.1")).toBe("loopback");
    expect(classOf("0xa9fea9fe")).toBe("link_local");
    expect(classOf("012.0.0.1")).toBe("private");
  });

  it("reads DNS answers strictly: dotted decimal or plain IPv6, nothing else", () => {
    expect(readAnswer("10.0.0.1")?.toString()).toBe("10.0.0.1");
    expect(readAnswer("::ffff:10.0.0.1")?.toString()).toBe("::ffff:a00:1");
    expect(readAnswer("0x7f.1")).toBeNull();
    expect(readAnswer("2130706433")).toBeNull();
    expect(readAnswer("010.0.0.1")).toBeNull();
    expect(readAnswer("fe80::1%eth0")).toBeNull();
    expect(readAnswer("[::1]")).toBeNull();
    expect(readAnswer("hooks.example.com")).toBeNull();
    expect(classifyAddress("fe80::1%eth0")).toBeNull();
    expect(checkResolvedAddresses("a.example.com", ["0x7f.1"], strict)).toEqual({ ok: false, reason: "url host a.example.com resolved to an unreadable address" });
  });
});
