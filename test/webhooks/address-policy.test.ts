import { describe, expect, it } from "vitest";
import { checkResolvedAddresses, checkWebhookUrl, classifyAddress, parseIpv4 } from "../../src/domain/webhooks/address-policy";

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
  ])("refuses %s (%s)", (url, why) => {
    const verdict = checkWebhookUrl(url, strict);
    expect(verdict.ok).toBe(false);
    if (!verdict.ok) expect(verdict.reason).toContain(why);
  });

  it.each(["https://hooks.example.com/rfs", "https://93.184.216.34/x", "https://[2606:4700:4700::1111]/x", "https://8.8.8.8:8443/x", "https://[::ffff:8.8.8.8]/x"])(
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
  ])("classifies the resolved address %s as %s", (address, cls) => expect(classifyAddress(address)).toBe(cls));

  it("refuses a name when any resolved address is not public, or when it resolves to nothing", () => {
    expect(checkResolvedAddresses("a.example.com", ["93.184.216.34"], strict)).toEqual({ ok: true });
    expect(checkResolvedAddresses("a.example.com", ["93.184.216.34", "10.0.0.7"], strict).ok).toBe(false);
    expect(checkResolvedAddresses("a.example.com", ["::ffff:7f00:1"], strict).ok).toBe(false);
    expect(checkResolvedAddresses("a.example.com", [], strict).ok).toBe(false);
  });

  it("reads IPv4 the way inet_aton does", () => {
    expect(parseIpv4("2130706433")).toEqual([127, 0, 0, 1]);
    expect(parseIpv4("0177.0.0.1")).toEqual([127, 0, 0, 1]);
    expect(parseIpv4("0x7f.1")).toEqual([127, 0, 0, 1]);
    expect(parseIpv4("10.1")).toEqual([10, 0, 0, 1]);
    expect(parseIpv4("192.168.257")).toEqual([192, 168, 1, 1]);
    expect(parseIpv4("256.0.0.1")).toBeNull();
    expect(parseIpv4("1.2.3.4.5")).toBeNull();
  });
});
