import { describe, expect, it } from "vitest";
import { judgeLookups, type Lookup } from "../../../src/domain/webhooks/resolution";

const strict = { allowPrivate: false };
const answered = (...addresses: string[]): Lookup => ({ kind: "answered", addresses });
const nx: Lookup = { kind: "no_such_name" };
const down = (why = "the resolver could not be reached"): Lookup => ({ kind: "unavailable", why });

describe("what a webhook host's lookups mean", () => {
  it("passes public answers", () => {
    expect(judgeLookups("a.example.com", [answered("93.184.216.34"), answered("2606:4700::1")], strict)).toEqual({ ok: true });
    expect(judgeLookups("a.example.com", [answered("93.184.216.34"), answered()], strict)).toEqual({ ok: true });
  });

  it("blames the caller for a name that does not exist, has no address or has a refused one", () => {
    expect(judgeLookups("a.example.com", [nx, nx], strict)).toEqual({ ok: false, kind: "refused", reason: "url host a.example.com does not exist (NXDOMAIN)" });
    expect(judgeLookups("a.example.com", [answered(), answered()], strict)).toMatchObject({ kind: "refused", reason: expect.stringContaining("does not resolve to any address") });
    expect(judgeLookups("a.example.com", [answered(), nx], strict)).toMatchObject({ kind: "refused", reason: expect.stringContaining("does not resolve to any address") });
    expect(judgeLookups("a.example.com", [answered("93.184.216.34", "10.0.0.7"), answered()], strict)).toMatchObject({ kind: "refused", reason: expect.stringContaining("private") });
  });

  it("blames the resolver when a lookup went unanswered, unless an answer already settles it", () => {
    expect(judgeLookups("a.example.com", [down(), down("no answer within 3 seconds")], strict)).toEqual({
      ok: false,
      kind: "unavailable",
      reason: "the DNS resolver could not be asked about url host a.example.com (the resolver could not be reached)",
    });
    // A public A record says nothing about the AAAA records the send could use.
    expect(judgeLookups("a.example.com", [answered("93.184.216.34"), down()], strict)).toMatchObject({ ok: false, kind: "unavailable" });
    expect(judgeLookups("a.example.com", [nx, down()], strict)).toMatchObject({ ok: false, kind: "unavailable" });
    // A refused address is refused whatever the other lookup did: retrying cannot help.
    expect(judgeLookups("a.example.com", [answered("127.0.0.1"), down()], strict)).toMatchObject({ ok: false, kind: "refused" });
  });
});
